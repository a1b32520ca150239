package commands_test

import (
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"arbiter/commands"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/open"
)

// twoProcesses returns two services on one store, as two processes of
// Arbiter see it: on Redis each has its own connection to one
// redis-server; the embedded store is one process's, so both services
// share it. Each service keeps its own cache of the games it saved.
func twoProcesses(t *testing.T, backend string) (a, b *env) {
	t.Helper()
	var e *env
	if backend == "redis" {
		e = newEnv(t, false)
	} else {
		e = newEmbeddedEnv(t)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st := e.st
	if backend == "redis" {
		var err error
		st, err = open.Store(context.Background(), store.Config{RedisURL: e.srv.URL(), Registry: e.reg, Logger: log, Now: e.clock.Now})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = st.Close(context.Background()) })
	}
	other := *e
	other.st = st
	other.svc = commands.New(commands.Config{RefereeRole: "referee"}, st, e.reg, e.posts, log, e.clock.Now)
	return e, &other
}

// newEmbeddedEnv is newEnv on the embedded store (no workers).
func newEmbeddedEnv(t *testing.T) *env {
	t.Helper()
	reg := games.Registry()
	clk := &clock{now: time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := open.Store(context.Background(), store.Config{DataDir: t.TempDir(), Registry: reg, Logger: log, Now: clk.Now})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { _ = st.Close(context.Background()) })
	p := &posts{}
	svc := commands.New(commands.Config{RefereeRole: "referee"}, st, reg, p, log, clk.Now)
	return &env{t: t, svc: svc, st: st, clock: clk, posts: p, reg: reg}
}

// A /move is played first on the game as its process last saved it. When
// another process changed the game since (a move, a pause, a resignation,
// a new game in the channel), the move must be judged on the game as
// stored: never refused for the stale copy's sake, never accepted on it.
func TestMoveAfterAnotherProcessChangedTheGame(t *testing.T) {
	for _, backend := range []string{"redis", "embedded"} {
		t.Run(backend, func(t *testing.T) {
			a, b := twoProcesses(t, backend)
			rng := rand.New(rand.NewPCG(13, 1))
			// begin starts a game in ch whose first move a played and
			// keeps: bob to move in a's copy.
			begin := func(ch string) {
				a.ok(cat, ch, "/referee start game:hique p1:@ann p2:@bob time:1d")
				a.ok(ann, ch, "/move "+a.randomMove(ch, rng))
			}
			moves := func(ch string) int { return len(a.game(ch).Moves) }

			// Bob moved elsewhere: Ann is not told it is not her turn.
			begin("moved")
			b.ok(bob, "moved", "/move "+b.randomMove("moved", rng))
			a.ok(ann, "moved", "/move "+a.randomMove("moved", rng))
			if n := moves("moved"); n != 3 {
				t.Errorf("%d moves stored, want 3", n)
			}

			// Bob moved elsewhere: a move legal in a's copy is refused
			// as the stored game says (Ann's turn), not played.
			begin("again")
			stale := a.randomMove("again", rng)
			b.ok(bob, "again", "/move "+b.randomMove("again", rng))
			a.refused(bob, "again", "/move "+stale, "turn, not yours")
			if n := moves("again"); n != 2 {
				t.Errorf("%d moves stored, want 2", n)
			}

			// Paused by a referee elsewhere: refused as paused.
			begin("paused")
			b.ok(cat, "paused", "/referee pause")
			a.refused(bob, "paused", "/move "+a.randomMove("paused", rng), "paused")
			b.ok(cat, "paused", "/referee resume")
			a.ok(bob, "paused", "/move "+a.randomMove("paused", rng))

			// Resigned elsewhere: there is no game any more.
			begin("resigned")
			move := a.randomMove("resigned", rng)
			b.ok(ann, "resigned", "/resign")
			a.refused(bob, "resigned", "/move "+move, "there is no game in this channel")

			// A new game in the channel, started elsewhere: the move is
			// played in it.
			begin("new")
			old := a.game("new").ID
			b.ok(ann, "new", "/resign")
			b.ok(cat, "new", "/referee start game:hique p1:@bob p2:@ann time:1d")
			a.ok(bob, "new", "/move "+a.randomMove("new", rng))
			if g := a.game("new"); g.ID == old || len(g.Moves) != 1 || g.Moves[0].By != bob.ID {
				t.Errorf("after the new game's first move: game %s (the old one was %s) with %d moves", g.ID, old, len(g.Moves))
			}
		})
	}
}

// A move in a game this process started or saved last costs one round
// trip to the store (the compare-and-set), from the first move on.
func TestMoveNeedsOneRoundTrip(t *testing.T) {
	e := newEnv(t, false)
	rng := rand.New(rand.NewPCG(13, 2))
	play := func(ch string, moves int) {
		for i := range moves {
			g := e.game(ch)
			who := ann
			if g.Players[g.State.ToMove()].UserID == bob.ID {
				who = bob
			}
			text := e.randomMove(ch, rng)
			before := e.st.Stats()
			r := e.ok(who, ch, "/move "+text)
			if trips := e.st.Stats().RoundTrips - before.RoundTrips; trips != 1 {
				t.Fatalf("%s: move %d took %d round trips, want 1 (%s)", ch, i+1, trips, strings.SplitN(r.Text, "\n", 2)[0])
			}
		}
	}
	e.ok(cat, "rt", "/referee start game:hique p1:@ann p2:@bob time:1d")
	play("rt", 40)
	e.ok(ann, "rt2", "/play game:sixes opponent:@bob")
	e.ok(bob, "rt2", "/accept")
	play("rt2", 10)
}
