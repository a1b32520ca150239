package storetest

import (
	"testing"
	"time"

	"arbiter/store"
)

// testLeaseFromGameLimit: a bot turn's lease is a quarter of its game's
// time per move, so the turn of a worker that died is taken over by a
// worker of any name well within the limit (Sixes: 5 s a move, so 1.25 s),
// and not before the lease ran out.
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
	var got *store.Job
	for time.Since(claimed) < 10*time.Second {
		job, err := s.ClaimBotTurn(ctx, "fresh-name", 50*time.Millisecond)
		if err == nil {
			got = job
			break
		}
		MustErr(t, err, store.ErrNoJob, "claim while the lease runs")
	}
	atLeast, atMost := time.Since(claimed), time.Since(asked)
	if got == nil || got.ID != sixesJob.ID || !got.Reclaimed {
		t.Fatalf("a worker of another name got %+v, want the Sixes turn reclaimed", got)
	}
	if atMost < 1250*time.Millisecond || atLeast > 5*time.Second {
		t.Fatalf("the Sixes turn was taken over %v to %v after its claim: want after its 1.25s lease and within its 5s limit", atLeast, atMost)
	}
	// The dead worker, back, finds the turn is no longer its own.
	MustErr(t, s.ExtendBotTurn(ctx, "dead-worker", sixesJob), store.ErrStaleJob, "extend a turn taken over")
	if err := s.ExtendBotTurn(ctx, "fresh-name", got); err != nil {
		t.Fatalf("extend by its new worker: %v", err)
	}
}
