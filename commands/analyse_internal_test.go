package commands

import "testing"

// TestAnalysisKeptIsNotQueuedAgain: a game whose analysis completed after
// its asker looked in the kept results is answered from them, not queued
// again (enqueue looks under the queue's own lock).
func TestAnalysisKeptIsNotQueuedAgain(t *testing.T) {
	a := newAnalyses(8)
	a.complete(&analysisJob{key: "g/1"}, &analysisResult{msg: Message{Text: "the analysis"}})
	place, added, kept, err := a.enqueue(&analysisJob{key: "g/1"})
	if err != nil || added || kept == nil || kept.msg.Text != "the analysis" {
		t.Fatalf("enqueue of a kept game: place %d, added %v, kept %+v, err %v; want the kept result", place, added, kept, err)
	}
	if len(a.queue) != 0 {
		t.Errorf("%d games in line, want none", len(a.queue))
	}
}
