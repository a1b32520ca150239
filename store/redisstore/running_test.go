package redisstore_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"

	"arbiter/rules"
	"arbiter/store"
)

// beforeSRem is a go-redis hook that calls before ahead of the first
// SREM sent on its own.
type beforeSRem struct {
	once   sync.Once
	before func()
}

func (h *beforeSRem) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *beforeSRem) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if strings.EqualFold(cmd.Name(), "srem") {
			h.once.Do(h.before)
		}
		return next(ctx, cmd)
	}
}

func (h *beforeSRem) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// TestRunningAfterFailedCreate: a Create that fails leaves the index of
// running games right: a game of another guild in the channel is listed
// for its own guild only, and a channel whose game was moved aside is
// dropped.
func TestRunningAfterFailedCreate(t *testing.T) {
	forEachBackend(t, func(t *testing.T, e *env) {
		ctx := ctxT(t)
		s := e.open()
		if err := s.Create(ctx, newGame(t, e.reg, "sixes", "31", "7")); err != nil {
			t.Fatal(err)
		}
		mustErr(t, s.Create(ctx, newGame(t, e.reg, "hique", "31", "8")), store.ErrBusy, "create over another guild's game")
		for _, c := range []struct {
			guild string
			want  int
		}{{"8", 0}, {"7", 1}, {"8", 0}} {
			running, err := s.Running(ctx, c.guild)
			if err != nil || len(running) != c.want {
				t.Fatalf("running in guild %s: %v, %v; want %d games", c.guild, running, err, c.want)
			}
		}
		if _, err := s.Quarantine(ctx, "31"); err != nil {
			t.Fatal(err)
		}
		if running, err := s.Running(ctx, "7"); err != nil || len(running) != 0 {
			t.Fatalf("running after the game was moved aside: %v, %v", running, err)
		}
	})
}

// TestRunningRacesCreate: a game created in a channel while the channel
// leaves the index of running games (between the Load that found its old
// game gone or over and the SREM) stays in the index: when Running drops
// a stale entry, and when a finishing game is archived.
func TestRunningRacesCreate(t *testing.T) {
	forEachBackend(t, func(t *testing.T, e *env) {
		ctx := ctxT(t)
		s := e.open()
		// A stale entry: the game's record moved aside stays in the index.
		if err := s.Create(ctx, newGame(t, e.reg, "sixes", "21", "7")); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Quarantine(ctx, "21"); err != nil {
			t.Fatal(err)
		}
		// A game that finishes.
		over := newGame(t, e.reg, "sixes", "22", "7")
		if err := s.Create(ctx, over); err != nil {
			t.Fatal(err)
		}
		// On Redis the new game is created between the Load and the SREM
		// of the index. The embedded store updates the index in the game's
		// own transaction, so there is no between: the returned func
		// creates it after the operation instead (a no-op on Redis).
		createBeforeSRem := func(channel string) func() {
			create := func() {
				if err := s.Create(ctx, newGame(t, e.reg, "hiya", channel, "7")); err != nil {
					t.Errorf("create in channel %s before the SREM: %v", channel, err)
				}
			}
			if r, ok := s.(*store.Redis); ok {
				r.Raw().AddHook(&beforeSRem{before: create})
				return func() {}
			}
			return create
		}
		running := func(want ...string) {
			t.Helper()
			games, err := s.Running(ctx, "7")
			var got []string
			for _, g := range games {
				got = append(got, g.Channel+":"+g.Name)
			}
			if err != nil || strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("running: %v, %v; want %v", got, err, want)
			}
		}

		createBeforeSRem("21")()       // the channel is free: at once
		running("22:sixes", "21:hiya") // oldest first
		running("22:sixes", "21:hiya") // oldest first

		after := createBeforeSRem("22")
		over.Status, over.Result, over.Reason = store.Finished, rules.P1Wins, "resigned"
		if err := s.Save(ctx, over); err != nil {
			t.Fatal(err)
		}
		after()
		running("21:hiya", "22:hiya")
	})
}
