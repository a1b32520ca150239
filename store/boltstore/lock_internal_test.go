package boltstore

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"arbiter/rules/games"
	"arbiter/store"
)

// TestBoltForgetsExpiredLocks: one short lock per name (as the HTTP
// interactions' replay check takes) does not grow the embedded store's
// memory without bound.
func TestBoltForgetsExpiredLocks(t *testing.T) {
	s, err := Open(context.Background(), store.Config{DataDir: t.TempDir(), Registry: games.Registry(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	for i := range 3000 {
		if _, err := s.TryLock(context.Background(), fmt.Sprintf("ix-%d", i), time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if i%500 == 0 {
			time.Sleep(2 * time.Millisecond)
		}
	}
	s.mu.Lock()
	n := len(s.locks)
	s.mu.Unlock()
	if n > 1100 {
		t.Fatalf("%d locks kept after 3000 expired ones", n)
	}
}
