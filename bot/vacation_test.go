package bot_test

import (
	"strings"
	"testing"

	"arbiter/bot/discordtest"
	"arbiter/store/storetest"
)

// TestPremoveChainThroughDiscord: Bob leaves a chain of premoves
// privately; Ann's matching moves are answered at once, in her move's
// public answer; a line her move does not match is dropped; /history
// marks the premoves.
func TestPremoveChainThroughDiscord(t *testing.T) {
	w := newWorld(t, false)
	p := w.start(procOptions{gateway: true})
	ann, bob := w.srv.AddUser("Ann"), w.srv.AddUser("Bob")
	ch := w.general
	challenge := w.public(w.do(ann.ID, ch, "play", opt("game", "hiya"), opt("opponent", bob.ID), opt("side", "first")))
	w.public(w.press(bob.ID, challenge.ID, button(t, challenge, "Accept")))
	line := storetest.LegalLine(t, p.game(ch), 4, 0)
	w.private(w.do(bob.ID, ch, "premove", opt("line", strings.Join(line, ", "))), "only you see them")
	r := w.public(w.do(ann.ID, ch, "move", opt("move", line[0])))
	if !strings.Contains(r.Content, "played by premove **"+line[1]) {
		t.Fatalf("Ann's move answered %q, want Bob's premove %s", r.Content, line[1])
	}
	if !pinged(r, ann.ID) {
		t.Errorf("the premove's answer pinged %+v, want Ann (to move again)", r.Pings)
	}
	r = w.public(w.do(ann.ID, ch, "move", opt("move", line[2])))
	if !strings.Contains(r.Content, "played by premove **"+line[3]) {
		t.Fatalf("Ann's second move answered %q, want Bob's premove %s", r.Content, line[3])
	}
	other, mine := storetest.LegalLine(t, p.game(ch), 2, 1), storetest.LegalLine(t, p.game(ch), 2, 0)
	w.private(w.do(bob.ID, ch, "premove", opt("line", strings.Join(other, ", "))), "only you see them")
	if r := w.public(w.do(ann.ID, ch, "move", opt("move", mine[0]))); strings.Contains(r.Content, "premove") {
		t.Errorf("a premove answered a move it was not written for: %q", r.Content)
	}
	w.private(w.do(bob.ID, ch, "premove"), "no premoves")
	if h := w.public(w.do(ann.ID, ch, "history")); !strings.Contains(h.Content, "Played by premove: moves 2, 4") {
		t.Errorf("/history says %q", h.Content)
	}
	w.noViolations()
}

// TestVacationThroughDiscord: Ann's vacation runs across her deadline
// without a timeout, while Bob's clock in the game where he is to move
// runs on and times him out; each game's channel is told. (It waits for
// a real deadline of 10 seconds: not under -short.)
func TestVacationThroughDiscord(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for real deadlines; the same flow runs under -short in commands' TestVacationAcrossADeadline")
	}
	w := newWorld(t, false)
	p := w.start(procOptions{gateway: true})
	ann, bob := w.srv.AddUser("Ann"), w.srv.AddUser("Bob")
	c1 := w.general
	second, err := w.srv.AddChannel("", "second")
	if err != nil {
		t.Fatal(err)
	}
	c2 := second.ID
	for _, c := range []struct{ ch, side string }{{c1, "first"}, {c2, "second"}} {
		challenge := w.public(w.do(ann.ID, c.ch, "play", opt("game", "sixes"), opt("opponent", bob.ID), opt("side", c.side), opt("time", "10s")))
		w.public(w.press(bob.ID, challenge.ID, button(t, challenge, "Accept")))
	}
	w.private(w.do(ann.ID, c1, "vacation", discordtest.Option{Name: "start"}), "2 clocks stopped")
	// Ann's deadline in the first channel came before Bob's in the second
	// (its game started first): once Bob has timed out, Ann would have too.
	waitFor(t, "Bob's timeout in the second channel", func() bool { return p.game(c2) == nil })
	if p.game(c1) == nil {
		t.Fatal("Ann timed out while on vacation")
	}
	for _, c := range []string{c1, c2} {
		told := false
		for _, m := range w.srv.Messages(c) {
			told = told || strings.Contains(m.Content, "is on vacation")
		}
		if !told {
			t.Errorf("channel %s was not told of the vacation", c)
		}
	}
	w.private(w.do(ann.ID, c1, "vacation", discordtest.Option{Name: "end"}), "1 clock running")
	w.noViolations()
}
