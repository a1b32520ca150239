package commands

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/open"
)

type quietNotifier struct{}

func (quietNotifier) Post(context.Context, string, Message) error { return nil }

// TestWorkerKeepsTheBotsMove: in a process that takes commands, the game
// a worker saved with the bot's move is kept for the person's answer, so
// that the /move after a bot's move needs no read either.
func TestWorkerKeepsTheBotsMove(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // reached only by a hang
	defer cancel()
	reg := games.Registry()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := open.Store(ctx, store.Config{DataDir: t.TempDir(), Registry: reg, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(context.Background())
	s := New(Config{BotMoveTime: 30 * time.Millisecond, Workers: 1, TakesCommands: true}, st, reg, quietNotifier{}, log, nil)
	wctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { s.RunWorkers(wctx); close(done) }()
	defer func() { stop(); <-done }()

	inv, err := ParseLine("/play game:sixes level:1 side:second", CommandSet(reg.Names()))
	if err != nil {
		t.Fatal(err)
	}
	inv.Guild, inv.Channel, inv.User = "g", "c", User{ID: "100", Name: "ann"}
	if r := s.Handle(ctx, inv); r.Private {
		t.Fatalf("play: %s", r.Text)
	}
	for {
		g, err := st.Load(ctx, "c")
		if err != nil {
			t.Fatal(err)
		}
		if g.Players[g.State.ToMove()].Kind == store.Human && s.BotTurnsInFlight() == 0 {
			kept := s.cached.take("c")
			if kept == nil || kept.Version != g.Version {
				t.Fatalf("after the bot's move the cache holds %v, want the game at version %d", kept, g.Version)
			}
			return
		}
		if ctx.Err() != nil {
			t.Fatal("the bot did not move")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
