package retention_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"arbiter/retention"
	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/boltstore"
	"arbiter/store/storetest"
)

// archiveAt files a finished game of guild "6100" that finished at at.
func archiveAt(t *testing.T, s store.Store, reg *rules.Registry, id string, at time.Time) {
	t.Helper()
	g := storetest.NewGame(t, reg, "hique", "6101", "6100")
	g.ID, g.Version, g.Status, g.Result, g.Reason = id, 1, store.Finished, rules.P1Wins, "won"
	g.Created, g.Updated, g.Finished = at, at, at
	if err := s.Archive(context.Background(), g); err != nil {
		t.Fatal(err)
	}
}

func archived(t *testing.T, s store.Store) int64 {
	t.Helper()
	_, n, err := s.Archived(context.Background(), "6100", 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestKeeper: on the embedded store with the clock of a synctest bubble,
// a retention of 30 days forgets at its first sweep the game that
// finished 31 days ago, keeps the one of 10 days ago until its 30 days
// are over, and then forgets it at the next hourly sweep; no retention
// forgets nothing.
func TestKeeper(t *testing.T) {
	reg := games.Registry()
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		s, err := boltstore.Open(ctx, store.Config{Registry: reg, Logger: storetest.QuietLogger(), DataDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close(context.Background())
		start := time.Now()
		archiveAt(t, s, reg, "old", start.Add(-31*24*time.Hour))
		archiveAt(t, s, reg, "recent", start.Add(-10*24*time.Hour))

		off := &retention.Keeper{Store: s, Log: storetest.QuietLogger()}
		if n, err := off.Sweep(ctx); err != nil || n != 0 {
			t.Fatalf("no retention swept %d, %v", n, err)
		}
		off.Run(ctx) // returns at once

		k := &retention.Keeper{Store: s, Days: 30, Every: time.Hour, Log: storetest.QuietLogger()}
		done := make(chan struct{})
		go func() { k.Run(ctx); close(done) }()
		synctest.Wait()
		if n := archived(t, s); n != 1 {
			t.Fatalf("after the first sweep %d games are archived, want 1", n)
		}
		time.Sleep(20*24*time.Hour - time.Minute) // just before the recent game's 30 days
		synctest.Wait()
		if n := archived(t, s); n != 1 {
			t.Fatalf("%d games archived before the recent one's 30 days, want 1", n)
		}
		time.Sleep(time.Hour + time.Minute)
		synctest.Wait()
		if n := archived(t, s); n != 0 {
			t.Fatalf("%d games archived after the recent one's 30 days, want 0", n)
		}
		cancel()
		<-done
	})
}
