package storetest

import (
	"testing"
	"time"

	"arbiter/store"
)

// testLeaseFromGameLimit: a bot turn's lease is a quarter of its game's
// time per move, so the turn of a worker that died is taken over by a
// worker of any name by the first claim after the lease ran out (Sixes:
// 5 s a move, so 1.25 s), well within the limit, and not before.
func testLeaseFromGameLimit(t *testing.T, e *env) {
	t.Parallel()
	ctx := Context(t)
	s := e.open()
	hique := NewGame(t, e.reg, "hique", "1", "1")
	sixes := NewGame(t, e.reg, "sixes", "2", "1")
	for _, g := range []*store.Game{hique, sixes} {
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		if _, err := s.EnqueueBotTurn(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	leases := map[string]time.Duration{}
	var sixesJob *store.Job
	// The lease starts inside the claim: after asked, before claimed.
	asked := time.Now()
	for range 2 {
		job, err := s.ClaimBotTurn(ctx, "dead-worker", 0)
		if err != nil {
			t.Fatal(err)
		}
		leases[job.Channel] = job.Lease
		if job.Channel == "2" {
			sixesJob = job
		}
	}
	if leases["1"] != 5*time.Second || leases["2"] != 1250*time.Millisecond {
		t.Fatalf("leases %v, want 5s for HiQUE (20 s a move) and 1.25s for Sixes (5 s)", leases)
	}
	claimed := time.Now()
	// Claims until one takes the turn over. Each is timed on the host's
	// clock, which the stores' clocks follow here: a claim that ended
	// before the lease could have run out must not get the turn, and one
	// that began after it surely ran out must (a slow machine only makes
	// more claims fail first, never one succeed early). Only a hang
	// reaches the bound.
	lease := leases["2"]
	const slack = 5 * time.Millisecond // the stores keep times in whole milliseconds
	var got *store.Job
	for begun := time.Now(); got == nil; begun = time.Now() {
		if time.Since(claimed) > HangBound {
			t.Fatal("no claim took the Sixes turn over")
		}
		job, err := s.ClaimBotTurn(ctx, "fresh-name", 50*time.Millisecond)
		if err != nil {
			MustErr(t, err, store.ErrNoJob, "claim while the lease runs")
			if begun.After(claimed.Add(lease + slack)) {
				t.Fatalf("a claim begun %v after the turn was claimed, past its %v lease, found no job", begun.Sub(claimed), lease)
			}
			continue
		}
		// A store's clock counts whole milliseconds, so a lease begun late in
		// one may run out up to a millisecond short of its length.
		if ended := time.Since(asked); ended < lease-time.Millisecond {
			t.Fatalf("the Sixes turn was taken over by a claim that ended %v after it was asked for: before its %v lease ran out", ended, lease)
		}
		got = job
	}
	if got.ID != sixesJob.ID || !got.Reclaimed {
		t.Fatalf("a worker of another name got %+v, want the Sixes turn reclaimed", got)
	}
	// The dead worker, back, finds the turn is no longer its own.
	MustErr(t, s.ExtendBotTurn(ctx, "dead-worker", sixesJob), store.ErrStaleJob, "extend a turn taken over")
	if err := s.ExtendBotTurn(ctx, "fresh-name", got); err != nil {
		t.Fatalf("extend by its new worker: %v", err)
	}
}
