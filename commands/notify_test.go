package commands_test

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestTurnNotices: /notify dm:on mid-game reaches the games going on;
// one direct message per turn (a draw offer, which saves the game, sends
// none); seats swapped by a challenge keep each person's choice; dm:off
// stops them.
func TestTurnNotices(t *testing.T) {
	e := newEnv(t, false)
	rng := rand.New(rand.NewPCG(5, 5))
	e.ok(ann, "c1", "/play game:sixes opponent:@bob side:first")
	e.ok(bob, "c1", "/accept")
	e.ok(bob, "c2", "/play game:sixes opponent:@ann side:second")
	if r := e.do(bob, "c1", "/notify dm:on"); !strings.Contains(r.Text, "your turn: on") {
		t.Fatalf("/notify answered %q", r.Text)
	}
	e.ok(ann, "c2", "/accept") // seats swap: Ann moves first, Bob's choice goes with him
	e.ok(ann, "c1", "/move "+e.randomMove("c1", rng))
	e.ok(ann, "c2", "/move "+e.randomMove("c2", rng))
	waitFor(t, "a DM for each of Bob's turns", func() bool { return len(e.posts.directs(bob.ID)) == 2 })
	channels := map[string]bool{}
	for _, n := range e.posts.directs(bob.ID) {
		channels[n.Channel] = true
		if n.Game != "Sixes" || !strings.Contains(n.Text, "your move as O") {
			t.Errorf("DM %+v", n)
		}
	}
	if !channels["c1"] || !channels["c2"] {
		t.Errorf("Bob's DMs are about %v, want c1 and c2", channels)
	}
	e.ok(bob, "c1", "/draw")
	e.ok(bob, "c1", "/move "+e.randomMove("c1", rng))
	e.ok(ann, "c1", "/move "+e.randomMove("c1", rng))
	waitFor(t, "Bob's third turn's DM", func() bool { return len(e.posts.directs(bob.ID)) == 3 })
	e.do(bob, "c1", "/notify dm:off")
	e.ok(bob, "c2", "/move "+e.randomMove("c2", rng))
	e.ok(ann, "c2", "/move "+e.randomMove("c2", rng))
	e.ok(ann, "c9", "/play game:sixes") // a later command, after the DMs would have gone
	if n := len(e.posts.directs(bob.ID)); n != 3 {
		t.Errorf("Bob has %d DMs, want 3: one a turn, none after dm:off", n)
	}
	if n := len(e.posts.directs(ann.ID)); n != 0 {
		t.Errorf("Ann, with DMs off, got %d", n)
	}
}

// TestTurnNoticeKeysDifferAcrossGuilds: game #1 of one server and game #1
// of another, at the same move, send their turn notices with different
// idempotency keys, so that the platform delivers both (Discord returns
// the first message for a repeated nonce instead of sending the second).
func TestTurnNoticeKeysDifferAcrossGuilds(t *testing.T) {
	e := newEnv(t, false)
	rng := rand.New(rand.NewPCG(6, 6))
	for _, guild := range []string{"guild1", "guild2"} {
		if r := e.doIn(guild, ann, "c-"+guild, "/play game:sixes opponent:@bob side:first"); r.Private {
			t.Fatalf("%s: /play: %q", guild, r.Text)
		}
		e.doIn(guild, bob, "c-"+guild, "/accept")
		e.doIn(guild, bob, "c-"+guild, "/notify dm:on")
		if r := e.doIn(guild, ann, "c-"+guild, "/move "+e.randomMove("c-"+guild, rng)); r.Private {
			t.Fatalf("%s: /move: %q", guild, r.Text)
		}
	}
	waitFor(t, "a DM for Bob's turn in each server", func() bool { return len(e.posts.directs(bob.ID)) == 2 })
	notes := e.posts.directs(bob.ID)
	if notes[0].Key == "" || notes[0].Key == notes[1].Key {
		t.Errorf("the turn notices of game #1 in two servers have keys %q and %q; want two different keys", notes[0].Key, notes[1].Key)
	}
}
