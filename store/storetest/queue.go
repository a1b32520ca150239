package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"arbiter/store"
)

// claimTimeout is the queue's reclaim timeout in the queue tests.
const claimTimeout = 1500 * time.Millisecond

// testQueueReclaim: a job claimed by a worker that never acks it goes to
// another worker after the claim timeout, not before; a worker that
// extends its job keeps it.
func testQueueReclaim(t *testing.T, e *env) {
	t.Parallel()
	ctx := Context(t)
	s := e.open(func(c *store.Config) { c.ClaimTimeout = claimTimeout })
	g := NewGame(t, e.reg, "hique", "1", "1")
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	_, err := s.ClaimBotTurn(ctx, "w1", 0)
	MustErr(t, err, store.ErrNoJob, "claim from an empty queue")
	id, err := s.EnqueueBotTurn(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	job, err := s.ClaimBotTurn(ctx, "w1", 0) // w1 claims and dies
	if err != nil {
		t.Fatal(err)
	}
	if job.ID != id || job.Channel != "1" || job.GameID != g.ID || job.Version != 1 || job.Reclaimed {
		t.Fatalf("claimed %+v", job)
	}
	_, err = s.ClaimBotTurn(ctx, "w2", 0)
	MustErr(t, err, store.ErrNoJob, "claim while w1 holds the only job")
	// w1 restarted under its name waits for the lease like any
	// other worker: a job that crashes its worker does not come back
	// to it at once, again and again.
	_, err = s.ClaimBotTurn(ctx, "w1", 0)
	MustErr(t, err, store.ErrNoJob, "w1 after a restart, before the lease ran out")

	var again *store.Job
	for start := time.Now(); time.Since(start) < HangBound; time.Sleep(100 * time.Millisecond) {
		if again, err = s.ClaimBotTurn(ctx, "w2", 0); err == nil {
			break
		}
		MustErr(t, err, store.ErrNoJob, "claim while waiting for the timeout")
	}
	if again == nil || again.ID != id || !again.Reclaimed || again.Deliveries != 2 {
		t.Fatalf("w2 got %+v after the claim timeout, want job %s reclaimed, delivered twice", again, id)
	}
	if err := s.AckBotTurn(ctx, again); err != nil {
		t.Fatal(err)
	}
	if err := s.AckBotTurn(ctx, job); err != nil { // w1 comes back late: harmless
		t.Fatal(err)
	}
	time.Sleep(claimTimeout)
	_, err = s.ClaimBotTurn(ctx, "w3", 0)
	MustErr(t, err, store.ErrNoJob, "claim after the ack")

	// A worker that extends its job keeps it past the timeout.
	if _, err := s.EnqueueBotTurn(ctx, g); err != nil {
		t.Fatal(err)
	}
	job, err = s.ClaimBotTurn(ctx, "w1", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(claimTimeout * 6 / 10)
	extended := time.Now() // the renewed lease runs from after this
	if err := s.ExtendBotTurn(ctx, "w1", job); err != nil {
		t.Fatal(err)
	}
	time.Sleep(claimTimeout * 6 / 10) // past the first lease
	// A claim that ended while the renewed lease surely ran finds no job
	// (a machine that slept past the renewed lease too leaves nothing to
	// check here but the order of the ack and the extension below).
	if other, err := s.ClaimBotTurn(ctx, "w2", 0); err == nil {
		if time.Since(extended) < claimTimeout {
			t.Fatalf("w2 claimed %+v while w1's extended lease ran", other)
		}
	} else {
		MustErr(t, err, store.ErrNoJob, "claim a job its worker extended")
	}
	if err := s.AckBotTurn(ctx, job); err != nil {
		t.Fatal(err)
	}
	MustErr(t, s.ExtendBotTurn(ctx, "w1", job), store.ErrStaleJob, "extend an acked job")
}

// testQueueStaleJob: a job queued for a version the game has left does
// nothing, even when run twice.
func testQueueStaleJob(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	rng := rand.New(rand.NewPCG(1, 1))
	g := NewGame(t, e.reg, "sixes", "1", "1")
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EnqueueBotTurn(ctx, g); err != nil {
		t.Fatal(err)
	}
	job, err := s.ClaimBotTurn(ctx, "w1", 0)
	if err != nil {
		t.Fatal(err)
	}
	// The job is current: the worker loads, thinks and moves.
	mine, err := s.LoadForJob(ctx, job)
	if err != nil {
		t.Fatal(err)
	}
	// Meanwhile the game moves on (say, the person resigned the turn
	// to a timeout, or a repeated job moved first).
	other, _ := s.Load(ctx, "1")
	PlayRandom(other, rng, "")
	if err := s.Save(ctx, other); err != nil {
		t.Fatal(err)
	}
	PlayRandom(mine, rng, "")
	MustErr(t, s.Save(ctx, mine), store.ErrConflict, "the job's move after the game moved on")
	_, err = s.LoadForJob(ctx, job)
	MustErr(t, err, store.ErrStaleJob, "load for a stale job")
	if err := s.AckBotTurn(ctx, job); err != nil {
		t.Fatal(err)
	}
	got, _ := s.Load(ctx, "1")
	if got.Version != 2 || len(got.Moves) != 1 || got.Moves[0] != other.Moves[0] {
		t.Fatalf("after a stale job: version %d moves %v", got.Version, got.Moves)
	}
	// A job for a game that is gone, or for an earlier game of the
	// channel, is stale too.
	job.Channel = "404"
	_, err = s.LoadForJob(ctx, job)
	MustErr(t, err, store.ErrStaleJob, "load for a job whose game is gone")
	job.Channel, job.GameID, job.Version = "1", "999", got.Version
	_, err = s.LoadForJob(ctx, job)
	MustErr(t, err, store.ErrStaleJob, "load for a job of another game")
}

// testQueueMalformedEntry: an entry the store did not write is dropped,
// not handed to a worker, and does not block the queue.
func testQueueMalformedEntry(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	g := NewGame(t, e.reg, "sixes", "1", "1")
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	e.putMalformedJob(s)
	if _, err := s.EnqueueBotTurn(ctx, g); err != nil {
		t.Fatal(err)
	}
	job, err := s.ClaimBotTurn(ctx, "w1", 0)
	if err != nil || job.Channel != "1" {
		t.Fatalf("claim past a malformed entry: %+v %v", job, err)
	}
	if err := s.AckBotTurn(ctx, job); err != nil {
		t.Fatal(err)
	}
	if n := e.queueLen(s); n != 0 {
		t.Fatalf("queue length %d after the acks", n)
	}
}

// testQueueBlockingClaim: a worker waiting on an empty queue gets a job
// queued while it waits.
func testQueueBlockingClaim(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	g := NewGame(t, e.reg, "hiya", "1", "1")
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	queued := make(chan error, 1)
	go func() {
		time.Sleep(200 * time.Millisecond)
		_, err := s.EnqueueBotTurn(ctx, g)
		queued <- err
	}()
	job, err := s.ClaimBotTurn(ctx, "w1", 5*time.Second)
	if err != nil {
		t.Fatalf("blocking claim: %v", err)
	}
	if err := <-queued; err != nil {
		t.Fatal(err)
	}
	if job.Channel != "1" || job.Version != g.Version {
		t.Fatalf("claimed %+v", job)
	}
	if err := s.AckBotTurn(ctx, job); err != nil {
		t.Fatal(err)
	}
}

// testQueueReclaimBehindBusyJobs: a crashed worker's job is reclaimed even
// when more jobs than Redis looks at in one XAUTOCLAIM page stand before
// it, held by live workers.
func testQueueReclaimBehindBusyJobs(t *testing.T, e *env) {
	t.Parallel()
	ctx := Context(t)
	// The live workers renew their jobs every tenth of the lease, as a
	// worker does while it thinks, from before the dead worker's claim
	// to the rescue: only a pause of most of the lease between two
	// renewals (a hang) lets a live job go stale.
	const reclaimTimeout = 4 * time.Second
	s := e.open(func(c *store.Config) { c.ClaimTimeout = reclaimTimeout })
	var busy []*store.Job
	live, stop := context.WithCancel(ctx)
	var renewing sync.WaitGroup
	defer renewing.Wait()
	defer stop()
	for i := range 16 {
		g := NewGame(t, e.reg, "sixes", ChName(i), "1")
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		if _, err := s.EnqueueBotTurn(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	// A worker holds one job at a time (its own unacked job comes back
	// first), so each live job has its own worker; the dead worker's is
	// queued last.
	for i := range 15 {
		job, err := s.ClaimBotTurn(ctx, fmt.Sprintf("live%d", i), 0)
		if err != nil {
			t.Fatal(err)
		}
		busy = append(busy, job)
	}
	renewing.Go(func() {
		for {
			for i, j := range busy {
				if err := s.ExtendBotTurn(live, fmt.Sprintf("live%d", i), j); err != nil && live.Err() == nil {
					t.Errorf("live%d renews its job: %v", i, err)
					return
				}
			}
			select {
			case <-live.Done():
				return
			case <-time.After(reclaimTimeout / 10):
			}
		}
	})
	dead, err := s.ClaimBotTurn(ctx, "dead", 0)
	if err != nil || dead.Channel != ChName(15) {
		t.Fatalf("the dead worker claimed %+v, %v; want the job of channel %s", dead, err, ChName(15))
	}
	claimed := time.Now()
	// The dead worker's lease runs out; the live workers renew on.
	const slack = 5 * time.Millisecond // the stores keep times in whole milliseconds
	for time.Since(claimed) <= reclaimTimeout+slack {
		time.Sleep(reclaimTimeout + slack - time.Since(claimed) + time.Millisecond)
	}
	job, err := s.ClaimBotTurn(ctx, "rescuer", 0)
	if err != nil || job.Channel != ChName(15) || !job.Reclaimed {
		t.Fatalf("rescuer got %+v, %v; want the dead worker's job in channel %s", job, err, ChName(15))
	}
}

// testQueuedBotTurns: the count of bot turns waiting includes the ones
// being thought about and drops as each is acked, over every partition.
func testQueuedBotTurns(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open(func(c *store.Config) { c.Partitions = 4 })
	count := func(want int64) {
		t.Helper()
		if n, err := s.QueuedBotTurns(ctx); err != nil || n != want {
			t.Fatalf("QueuedBotTurns = %d, %v; want %d", n, err, want)
		}
	}
	count(0)
	for i := range 3 {
		g := NewGame(t, e.reg, "sixes", ChName(i), "1")
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		if _, err := s.EnqueueBotTurn(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	count(3)
	job, err := s.ClaimBotTurn(ctx, "w1", 0)
	if err != nil {
		t.Fatal(err)
	}
	count(3)
	if err := s.AckBotTurn(ctx, job); err != nil {
		t.Fatal(err)
	}
	count(2)
}
