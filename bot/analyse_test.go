package bot_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"arbiter/bot/discordtest"
	"arbiter/engine"
)

// TestAnalyseThroughDiscord: a finished game's /history offers the
// analysis as a button; pressed, it is queued, and the bot posts it once
// in the channel, as an ordinary message with the graph attached; asked
// again, the kept analysis comes at once.
func TestAnalyseThroughDiscord(t *testing.T) {
	w := newWorld(t, false)
	p := w.start(procOptions{gateway: true, workers: 1, analysis: engine.Limits{Depth: 2}})
	ann, bob := w.srv.AddUser("Ann"), w.srv.AddUser("Bob")
	ch := w.general
	rng := rand.New(rand.NewPCG(5, 6))

	challenge := w.public(w.do(ann.ID, ch, "play", opt("game", "sixes"), opt("opponent", bob.ID), opt("options", "turns=8")))
	w.public(w.press(bob.ID, challenge.ID, button(t, challenge, "Accept")))
	w.private(w.do(ann.ID, ch, "analyse"), "still going on")
	for g := p.game(ch); g != nil; g = p.game(ch) {
		mover := ann.ID
		if g.Players[g.State.ToMove()].UserID == bob.ID {
			mover = bob.ID
		}
		w.public(w.do(mover, ch, "move", opt("move", randomMove(t, g, rng))))
	}
	history := w.public(w.do(ann.ID, ch, "history", opt("game", "1")))
	queued := w.public(w.press(bob.ID, history.ID, button(t, history, "Analyse")))
	if !strings.Contains(queued.Content, "position 1 in line") {
		t.Fatalf("the Analyse button: %q", queued.Content)
	}
	posted := func() []discordtest.Message {
		var out []discordtest.Message
		for _, m := range w.srv.Messages(ch) {
			if m.AuthorID == w.srv.AppID() && m.InteractionID == "" && !m.Deleted && strings.HasPrefix(m.Content, "**Analysis of") {
				out = append(out, m)
			}
		}
		return out
	}
	waitFor(t, "the analysis", func() bool { return len(posted()) > 0 })
	time.Sleep(300 * time.Millisecond) // time for a second post, were there one
	got := posted()
	if len(got) != 1 {
		t.Fatalf("the analysis was posted %d times", len(got))
	}
	if len(got[0].Attachments) != 1 || !strings.HasSuffix(got[0].Attachments[0].Filename, ".png") {
		t.Errorf("the analysis's attachments: %+v", got[0].Attachments)
	}
	// Between its post and its keeping the game is still in line: asked
	// for then, it is not queued again.
	var again discordtest.Message
	waitFor(t, "the analysis kept", func() bool {
		again = w.do(ann.ID, ch, "analyse", opt("game", "1"))
		return !again.Ephemeral()
	})
	if again.Content != got[0].Content || len(again.Attachments) != 1 {
		t.Errorf("asked again: %q with %d attachments, want the kept analysis", again.Content, len(again.Attachments))
	}
	if n := len(posted()); n != 1 {
		t.Errorf("asked again, the analysis was posted %d times", n)
	}
	w.noViolations()
}
