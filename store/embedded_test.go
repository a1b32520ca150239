package store

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"arbiter/rules/games"
)

// TestEmbeddedDirty: what changes data marks the embedded backend's data
// file for writing; the polls of an idle bot (empty claims, the clock's
// lock renewals and deadline reads, listings) do not, so that the file is
// not rewritten every few seconds while nothing happens.
func TestEmbeddedDirty(t *testing.T) {
	ctx := context.Background()
	s, err := OpenRedis(ctx, Config{DataDir: t.TempDir(), Registry: games.Registry(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), SaveEvery: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	check := func(what string, want bool, f func() error) {
		t.Helper()
		s.emb.dirty.Store(false)
		if err := f(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got := s.emb.dirty.Load(); got != want {
			t.Errorf("%s: marked changed %v, want %v", what, got, want)
		}
	}
	noJob := func(err error) error {
		if errors.Is(err, ErrNoJob) {
			return nil
		}
		return err
	}
	g := seedGame(t, s.reg, "sixes")
	g.ID, g.Version = "", 0
	g.Deadline = time.Now().Add(time.Hour)
	check("create", true, func() error { return s.Create(ctx, g) })
	check("claim from an empty queue", false, func() error { _, err := s.ClaimBotTurn(ctx, "w", 0); return noJob(err) })
	check("blocking claim from an empty queue", false, func() error {
		_, err := s.ClaimBotTurn(ctx, "w", 20*time.Millisecond)
		return noJob(err)
	})
	var lock Lock
	check("lock", true, func() error { lock, err = s.TryLock(ctx, "clock", time.Minute); return err })
	// The first renewal loads the script (EVAL after NOSCRIPT), which
	// counts as a change; the renewals after it run it by its hash.
	check("renew the lock", false, func() error {
		if err := lock.Renew(ctx); err != nil {
			return err
		}
		s.emb.dirty.Store(false)
		return lock.Renew(ctx)
	})
	check("lock held by another", false, func() error {
		if _, err := s.TryLock(ctx, "clock", time.Minute); !errors.Is(err, ErrLocked) {
			return err
		}
		return nil
	})
	check("due", false, func() error { _, err := s.Due(ctx, time.Now(), 0); return err })
	check("running", false, func() error { _, err := s.Running(ctx, g.Guild); return err })
	check("load", false, func() error { _, err := s.Load(ctx, g.Channel); return err })
	check("enqueue", true, func() error { _, err := s.EnqueueBotTurn(ctx, g); return err })
	var job *Job
	check("claim a job", true, func() error { job, err = s.ClaimBotTurn(ctx, "w", 0); return err })
	check("ack", true, func() error { return s.AckBotTurn(ctx, job) })
	check("release the lock", true, func() error { return lock.Release(ctx) })
}
