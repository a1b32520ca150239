package commands

import (
	"strings"
	"testing"
)

// TestAnalysisKeptIsNotQueuedAgain: a game whose analysis completed after
// its asker looked in the kept results is answered from them, not queued
// again (enqueue looks under the queue's own lock).
func TestAnalysisKeptIsNotQueuedAgain(t *testing.T) {
	a := newAnalyses(8, 0, 0)
	a.complete(&analysisJob{key: "g/1"}, &analysisResult{msg: Message{Text: "the analysis"}})
	place, added, kept, err := a.enqueue(&analysisJob{key: "g/1"})
	if err != nil || added || kept == nil || kept.msg.Text != "the analysis" {
		t.Fatalf("enqueue of a kept game: place %d, added %v, kept %+v, err %v; want the kept result", place, added, kept, err)
	}
	if len(a.queue) != 0 {
		t.Errorf("%d games in line, want none", len(a.queue))
	}
}

// TestAnalysisPostedInEveryChannelThatAsked: a finished analysis goes to
// each channel that asked for it once, in the order they asked, including
// one that asks while it is being posted; the wall's ask (no channel)
// posts nothing; only when no channel is left is it kept and out of line.
func TestAnalysisPostedInEveryChannelThatAsked(t *testing.T) {
	a := newAnalyses(8, 0, 0)
	job := &analysisJob{key: "g/1", channels: []string{"c1"}}
	a.queue = append(a.queue, job) // as enqueue leaves it
	for _, ask := range []*analysisJob{{key: "g/1"}, {key: "g/1", channels: []string{"c2"}}, {key: "g/1", channels: []string{"c1"}}} {
		if place, added, kept, err := a.enqueue(ask); place != 1 || added || kept != nil || err != nil {
			t.Fatalf("asked again from %v: place %d, added %v, kept %v, err %v; want place 1", ask.channels, place, added, kept, err)
		}
	}
	r := &analysisResult{msg: Message{Text: "the analysis"}}
	var posted []string
	for ch, ok := a.next(job, r); ok; ch, ok = a.next(job, r) {
		posted = append(posted, ch)
		if ch == "c1" { // asked for in c3 while c1's post is on its way
			if place, _, _, _ := a.enqueue(&analysisJob{key: "g/1", channels: []string{"c3"}}); place != 1 {
				t.Fatalf("asked for while posted: place %d, want 1 (still in line)", place)
			}
		}
	}
	if got := strings.Join(posted, " "); got != "c1 c2 c3" {
		t.Errorf("posted in %q, want c1 c2 c3", got)
	}
	if len(a.queue) != 0 {
		t.Errorf("%d games in line after the posts, want none", len(a.queue))
	}
	if kept, ok := a.cached("g/1"); !ok || kept.msg.Text != "the analysis" {
		t.Errorf("kept %+v, %v; want the analysis", kept, ok)
	}
}
