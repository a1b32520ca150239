package cli

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"arbiter/bot/discordtest"
	"arbiter/store/redistest"
)

// waitLog waits until p logged a line matching re, and returns it.
func (p *proc) waitLog(re *regexp.Regexp) string {
	t := p.c.t
	t.Helper()
	for end := time.Now().Add(hangBound); ; time.Sleep(20 * time.Millisecond) {
		if m := re.FindString(p.log.String()); m != "" {
			return m
		}
		if time.Now().After(end) {
			t.Fatalf("no line matching %s logged in %v:\n%s", re, hangBound, p.log.String())
		}
	}
}

// answer sends a slash command of alice in the general channel to p's
// interactions endpoint and returns the message that answers it, once
// complete (a deferred answer edited, with its attachments).
func (p *proc) answer(name string, opts ...discordtest.Option) discordtest.Message {
	t := p.c.t
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangBound)
	defer cancel()
	ans, err := p.c.discord.PostInteraction(ctx, p.endpoint, discordtest.InteractionSpec{Type: discordtest.InteractionCommand,
		UserID: p.c.alice.ID, ChannelID: p.c.general, Name: name, Options: opts}, discordtest.Delivery{})
	if err != nil {
		t.Fatalf("/%s: %v\n%s", name, err, p.log.String())
	}
	m, err := p.c.discord.WaitForMessage(ctx, func(m discordtest.Message) bool {
		return m.InteractionID == ans.Interaction.ID && !m.Loading()
	})
	if err != nil {
		t.Fatalf("no answer to /%s: %v", name, err)
	}
	return m
}

// finishedGame plays a game of Sixes against the bot through p and
// resigns it, so that it is archived, finished.
func (p *proc) finishedGame() {
	t := p.c.t
	t.Helper()
	if text := p.command("play", discordtest.Option{Name: "game", Value: "sixes"}, discordtest.Option{Name: "level", Value: 1}); !strings.Contains(text, "Sixes") {
		t.Fatalf("/play answered %q", text)
	}
	if text := p.command("resign"); !strings.Contains(strings.ToLower(text), "resign") {
		t.Fatalf("/resign answered %q", text)
	}
}

// analysesPosted returns the analyses posted in the classroom's general
// channel.
func (c *classroom) analysesPosted() []discordtest.Message {
	var out []discordtest.Message
	for _, m := range c.discord.Messages(c.general) {
		if m.AuthorID == c.discord.AppID() && m.InteractionID == "" && !m.Deleted && strings.HasPrefix(m.Content, "**Analysis of") {
			out = append(out, m)
		}
	}
	return out
}

// taken and made are the analyst's log lines when it takes a game from
// the line and when the game is posted and out of line.
var (
	taken = regexp.MustCompile(`analysis taken from the line.*`)
	made  = regexp.MustCompile(`analysis made and posted.*`)
)

// TestAnalysisFinishedByAnotherWorkerAcrossProcesses: an `arbiter bot`
// that runs no workers and two `arbiter worker` processes on one
// redis-server, and on a Redis Cluster. An analysis asked for through the
// bot is taken by the first worker, whose searches last an hour; it is
// SIGKILLed, and the second worker takes the analysis over once its lease
// ran out, makes it and posts it once.
func TestAnalysisFinishedByAnotherWorkerAcrossProcesses(t *testing.T) {
	t.Run("redis", func(t *testing.T) {
		srv := redistest.Start(t, redistest.Options{})
		analysisFinishedByAnotherWorker(t, "REDIS_URL="+srv.URL())
	})
	t.Run("cluster", func(t *testing.T) {
		if testing.Short() {
			t.Skip("a Redis Cluster of its own takes a while to start; the contract suite covers the cluster under -short")
		}
		redistest.SkipWithoutCluster(t)
		cluster, err := redistest.NewCluster(redistest.ClusterOptions{})
		if err != nil {
			t.Fatalf("start a Redis Cluster: %v", err)
		}
		t.Cleanup(cluster.Close)
		analysisFinishedByAnotherWorker(t, "REDIS_URL="+cluster.URL(), "REDIS_CLUSTER=true")
	})
}

// analysisFinishedByAnotherWorker is the body of
// TestAnalysisFinishedByAnotherWorkerAcrossProcesses on the Redis of
// storeEnv.
func analysisFinishedByAnotherWorker(t *testing.T, storeEnv ...string) {
	c := newClassroom(t, storeEnv...)
	workersReady := regexp.MustCompile(`bot-turn workers running`)
	w1 := c.start(workersReady, []string{"ANALYSIS_MOVE_TIME=1h"}, "worker", "--name", "w1", "--workers", "1")
	b := c.start(regexp.MustCompile(`serving Discord's interactions`), nil, "bot", "--http", "127.0.0.1:0", "--workers", "0")
	b.finishedGame()
	if text := b.command("analyse"); !strings.Contains(text, "position 1 in line") {
		t.Fatalf("/analyse answered %q", text)
	}
	w1.waitLog(taken)
	w1.kill()
	if n := len(c.analysesPosted()); n != 0 {
		t.Fatalf("the analysis was posted %d times before its worker was killed, its searches lasting an hour", n)
	}
	w2 := c.start(workersReady, []string{"ANALYSIS_MOVE_TIME=20ms"}, "worker", "--name", "w2", "--workers", "1")
	if line := w2.waitLog(taken); !strings.Contains(line, "deliveries=2") {
		t.Errorf("the second worker took the analysis as %q; want its second delivery", line)
	}
	w2.waitLog(made)
	posted := c.analysesPosted()
	if len(posted) != 1 {
		t.Fatalf("the analysis was posted %d times; want once:\n%s", len(posted), w2.log.String())
	}
	if len(posted[0].Attachments) != 1 {
		t.Errorf("the analysis came with %d attachments; want its graph", len(posted[0].Attachments))
	}
	// Kept in the store: asked again through the bot, it is answered at once.
	if m := b.answer("analyse"); m.Content != posted[0].Content || len(m.Attachments) != 1 {
		t.Errorf("/analyse once made answered %q with %d attachments; want the analysis kept", m.Content, len(m.Attachments))
	}
	if n := len(c.analysesPosted()); n != 1 {
		t.Errorf("asked again, the analysis was posted %d times", n)
	}
}

// TestAnalysisFinishedAfterRestartEmbedded: with the embedded store, an
// analysis taken by a bot's own workers before a SIGKILL is made and
// posted once by the bot after its restart.
func TestAnalysisFinishedAfterRestartEmbedded(t *testing.T) {
	c := newClassroom(t, "DATA_DIR="+t.TempDir())
	ready := regexp.MustCompile(`serving Discord's interactions`)
	p := c.start(ready, []string{"ANALYSIS_MOVE_TIME=1h"}, "bot", "--http", "127.0.0.1:0", "--workers", "1")
	p.finishedGame()
	if text := p.command("analyse"); !strings.Contains(text, "position 1 in line") {
		t.Fatalf("/analyse answered %q", text)
	}
	p.waitLog(taken)
	p.kill()
	p = c.start(ready, []string{"ANALYSIS_MOVE_TIME=20ms"}, "bot", "--http", "127.0.0.1:0", "--workers", "1")
	p.waitLog(made)
	if n := len(c.analysesPosted()); n != 1 {
		t.Fatalf("the analysis was posted %d times after the restart; want once:\n%s", n, p.log.String())
	}
	if m := p.answer("analyse"); !strings.HasPrefix(m.Content, "**Analysis of") || len(m.Attachments) != 1 {
		t.Errorf("/analyse once made answered %q with %d attachments; want the analysis kept", m.Content, len(m.Attachments))
	}
}
