package bot_test

import (
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"arbiter/bot/discordtest"
)

// dms returns the bot's messages in userID's DM channel.
func (w *world) dms(userID string) []discordtest.Message {
	ch := w.srv.DMChannel(userID)
	if ch == "" {
		return nil
	}
	return w.srv.Messages(ch)
}

// TestTurnDirectMessages: with /notify dm:on a player gets one direct
// message at each of their turns, naming the game, its channel (with a
// link) and the deadline as a timestamp; a player with it off gets none;
// when Discord refuses the DM (50007), the option turns off and the
// channel is told so once.
func TestTurnDirectMessages(t *testing.T) {
	w := newWorld(t, false)
	p := w.start(procOptions{gateway: true})
	ann, bob := w.srv.AddUser("Ann"), w.srv.AddUser("Bob")
	ch := w.general
	rng := rand.New(rand.NewPCG(3, 9))
	w.private(w.do(ann.ID, ch, "notify", opt("dm", "on")), "your turn: on")
	challenge := w.public(w.do(ann.ID, ch, "play", opt("game", "sixes"), opt("opponent", bob.ID), opt("side", "first")))
	w.public(w.press(bob.ID, challenge.ID, button(t, challenge, "Accept")))
	// Ann moves first: her first turn started with the acceptance.
	waitFor(t, "Ann's first DM", func() bool { return len(w.dms(ann.ID)) == 1 })
	first := w.dms(ann.ID)[0]
	g := p.game(ch)
	for _, want := range []string{"**Sixes** in <#" + ch + ">", "your move as X", "<t:", ":R>", "https://discord.com/channels/" + g.Guild + "/" + ch} {
		if !strings.Contains(first.Content, want) {
			t.Errorf("the DM %q lacks %q", first.Content, want)
		}
	}
	users := map[string]string{ann.ID: ann.ID, bob.ID: bob.ID}
	annTurns := 1
	for range 6 {
		g := p.game(ch)
		mover := users[g.Players[g.State.ToMove()].UserID]
		w.public(w.do(mover, ch, "move", opt("move", randomMove(t, g, rng))))
		if mover == bob.ID {
			annTurns++
		}
		waitFor(t, "a DM at each of Ann's turns", func() bool { return len(w.dms(ann.ID)) == annTurns })
	}
	if got := w.dms(bob.ID); len(got) != 0 {
		t.Errorf("Bob, with /notify off, got DMs: %+v", got)
	}
	// Ann closes her DMs: the next DM is refused, the option turns off,
	// and the channel hears of it once.
	w.srv.CloseDMs(ann.ID, true)
	refused := func() int {
		n := 0
		for _, m := range w.srv.Messages(ch) {
			if strings.Contains(m.Content, "direct messages from Arbiter to you are refused") {
				n++
			}
		}
		return n
	}
	for range 4 {
		g := p.game(ch)
		mover := users[g.Players[g.State.ToMove()].UserID]
		w.public(w.do(mover, ch, "move", opt("move", randomMove(t, g, rng))))
		if mover == bob.ID {
			waitFor(t, "the refusal said in the channel", func() bool { return refused() == 1 })
		}
	}
	w.private(w.do(ann.ID, ch, "notify"), "your turn: off")
	if n := refused(); n != 1 {
		t.Errorf("the channel was told %d times that Ann's DMs are closed, want once", n)
	}
	if got := len(w.dms(ann.ID)); got != annTurns {
		t.Errorf("Ann has %d DMs, want %d: none after hers closed", got, annTurns)
	}
	// The one refused DM is the only request Discord refused: once off,
	// no DM is tried again.
	w.onlyForbidden(1)
}

// TestDigestThroughDiscord: a daily digest comes as a direct message at
// its time in the person's time zone, listing the games waiting for them.
// The game flow's clock is set a moment before 08:30 in Berlin.
func TestDigestThroughDiscord(t *testing.T) {
	w := newWorld(t, false)
	var offset atomic.Int64 // the game flow's clock minus the real one
	at := func(t time.Time) { offset.Store(int64(time.Until(t))) }
	at(time.Date(2026, 11, 26, 7, 0, 0, 0, time.UTC)) // 08:00 in Berlin
	p := w.start(procOptions{gateway: true, now: func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }})
	ann, bob := w.srv.AddUser("Ann"), w.srv.AddUser("Bob")
	ch := w.general
	w.private(w.do(ann.ID, ch, "notify", opt("digest", "08:30"), opt("tz", "Europe/Berlin")), "at 08:30 Europe/Berlin")
	challenge := w.public(w.do(ann.ID, ch, "play", opt("game", "sixes"), opt("opponent", bob.ID), opt("side", "first")))
	w.public(w.press(bob.ID, challenge.ID, button(t, challenge, "Accept")))
	time.Sleep(300 * time.Millisecond) // a tick or more at 08:00: no digest yet
	if n := len(w.dms(ann.ID)); n != 0 {
		t.Fatalf("%d direct messages before the digest's time", n)
	}
	at(time.Date(2026, 11, 26, 7, 30, 0, 0, time.UTC)) // 08:30 in Berlin
	waitFor(t, "Ann's digest", func() bool { return len(w.dms(ann.ID)) == 1 })
	d := w.dms(ann.ID)[0]
	if !strings.Contains(d.Content, "1 game waiting for your move") || !strings.Contains(d.Content, "Sixes in <#"+ch+">") || !strings.Contains(d.Content, ":R>") {
		t.Errorf("digest %q", d.Content)
	}
	if p.game(ch) == nil {
		t.Fatal("no game")
	}
	if got := w.dms(bob.ID); len(got) != 0 {
		t.Errorf("Bob got %+v", got)
	}
	w.noViolations()
}
