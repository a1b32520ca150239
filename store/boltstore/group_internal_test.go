package boltstore

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/storetest"
)

// openTemp opens an embedded store in a new directory, closed at the
// end of the test.
func openTemp(t *testing.T) (*Bolt, *rules.Registry) {
	t.Helper()
	ctx := context.Background()
	reg := games.Registry()
	s, err := Open(ctx, store.Config{DataDir: t.TempDir(), Registry: reg, Logger: storetest.QuietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close(ctx) })
	return s, reg
}

// groupFixture is an embedded store with games in channels 1..n, each
// with one move played and not yet saved.
func groupFixture(t *testing.T, n int) (*Bolt, []*store.Game) {
	t.Helper()
	ctx := context.Background()
	s, reg := openTemp(t)
	rng := rand.New(rand.NewPCG(1, 2))
	var gs []*store.Game
	for i := 1; i <= n; i++ {
		g := storetest.NewGame(t, reg, "hique", strconv.Itoa(i), "g")
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		storetest.PlayRandom(g, rng, "1001")
		gs = append(gs, g)
	}
	return s, gs
}

// holdWriter takes bbolt's writer lock with a transaction of its own and
// returns the function that lets it go, so that the saves started
// meanwhile queue behind it.
func holdWriter(t *testing.T, s *Bolt) (release func()) {
	t.Helper()
	holding, let := make(chan struct{}), make(chan struct{})
	go func() {
		_ = s.db.Update(func(*bolt.Tx) error {
			close(holding)
			<-let
			return nil
		})
	}()
	<-holding
	return func() { close(let) }
}

// waitQueued waits until n saves wait in the group's queue.
func waitQueued(t *testing.T, s *Bolt, n int) {
	t.Helper()
	for start := time.Now(); ; time.Sleep(time.Millisecond) {
		s.group.mu.Lock()
		q := len(s.group.queue)
		s.group.mu.Unlock()
		if q == n {
			return
		}
		if time.Since(start) > storetest.HangBound {
			t.Fatalf("%d saves queued, want %d", q, n)
		}
	}
}

// saveAll saves each game in a goroutine of its own, the first alone
// first and the others queued in order behind it; it calls queued when
// all are queued and returns each save's error once all are done.
func saveAll(t *testing.T, s *Bolt, gs []*store.Game, queued func()) []error {
	t.Helper()
	errs := make([]error, len(gs))
	var wg sync.WaitGroup
	for i, g := range gs {
		wg.Go(func() { errs[i] = s.Save(context.Background(), g) })
		if i == 0 {
			// The first save leads a transaction that waits on the
			// writer lock; the others queue behind it, in order.
			waitLeading(t, s)
		} else {
			waitQueued(t, s, i)
		}
	}
	queued()
	wg.Wait()
	return errs
}

// waitLeading waits until a save leads a transaction and the queue is
// empty again (the leader took it).
func waitLeading(t *testing.T, s *Bolt) {
	t.Helper()
	for start := time.Now(); ; time.Sleep(time.Millisecond) {
		s.group.mu.Lock()
		ok := s.group.leading && len(s.group.queue) == 0
		s.group.mu.Unlock()
		if ok {
			return
		}
		if time.Since(start) > storetest.HangBound {
			t.Fatal("no save leads a transaction")
		}
	}
}

// TestGroupCommitSharesTransactions: saves that arrive while a transaction
// of the group commits share the next one: ten saves, one alone and nine
// together, take two transactions, and every one is on disk.
func TestGroupCommitSharesTransactions(t *testing.T) {
	s, gs := groupFixture(t, 10)
	release := holdWriter(t, s)
	before := s.txs.Load()
	for i, err := range saveAll(t, s, gs, release) {
		if err != nil {
			t.Fatalf("save %d: %v", i, err)
		}
	}
	if n := s.txs.Load() - before; n != 2 {
		t.Errorf("10 saves took %d transactions, want 2 (one alone, then nine together)", n)
	}
	for _, g := range gs {
		got, err := s.Load(context.Background(), g.Channel)
		if err != nil {
			t.Fatal(err)
		}
		if got.Version != 2 || len(got.Moves) != 1 {
			t.Errorf("channel %s: version %d with %d moves, want version 2 with the move saved", g.Channel, got.Version, len(got.Moves))
		}
	}
}

// TestGroupCommitFailureAlone: a save of a batch that fails (a stale copy
// of a game saved earlier in the same batch) gets ErrConflict and changes
// nothing, and the others of the batch are applied.
func TestGroupCommitFailureAlone(t *testing.T) {
	s, gs := groupFixture(t, 4)
	stale := *gs[2] // the same version with another move, saved after it
	stale.Moves = []store.Move{gs[2].Moves[0]}
	stale.Moves[0].By = "someone else"
	batch := []*store.Game{gs[0], gs[1], gs[2], &stale, gs[3]}
	release := holdWriter(t, s)
	errs := saveAll(t, s, batch, release)
	for i, err := range errs {
		if i == 3 {
			if !errors.Is(err, store.ErrConflict) {
				t.Errorf("the stale save: %v, want ErrConflict", err)
			}
			continue
		}
		if err != nil {
			t.Errorf("save %d: %v", i, err)
		}
	}
	got, err := s.Load(context.Background(), gs[2].Channel)
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != 2 || got.Moves[0].By != "1001" {
		t.Errorf("channel %s: version %d, move by %q: want the first save's version 2 by 1001", got.Channel, got.Version, got.Moves[0].By)
	}
	for _, g := range []*store.Game{gs[0], gs[1], gs[3]} {
		if got, err := s.Load(context.Background(), g.Channel); err != nil || got.Version != 2 {
			t.Errorf("channel %s after the batch: %v, %v; want version 2", g.Channel, got, err)
		}
	}
}

// TestGroupCommitCancelWhileQueued: a save whose context ends while it
// waits for its transaction returns the context's error and is not
// applied; the saves around it are.
func TestGroupCommitCancelWhileQueued(t *testing.T) {
	s, gs := groupFixture(t, 3)
	release := holdWriter(t, s)
	var wg sync.WaitGroup
	var first, last error
	wg.Go(func() { first = s.Save(context.Background(), gs[0]) })
	waitLeading(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	cancelled := make(chan error, 1)
	go func() { cancelled <- s.Save(ctx, gs[1]) }()
	waitQueued(t, s, 1)
	wg.Go(func() { last = s.Save(context.Background(), gs[2]) })
	waitQueued(t, s, 2)
	cancel()
	if err := <-cancelled; !errors.Is(err, context.Canceled) {
		t.Errorf("the cancelled save: %v, want context.Canceled", err)
	}
	release()
	wg.Wait()
	if first != nil || last != nil {
		t.Fatalf("the other saves: %v, %v", first, last)
	}
	for i, want := range []int64{2, 1, 2} {
		got, err := s.Load(context.Background(), gs[i].Channel)
		if err != nil {
			t.Fatal(err)
		}
		if got.Version != want {
			t.Errorf("channel %s: version %d, want %d", got.Channel, got.Version, want)
		}
	}
}

// expectWrites sets what the group knows of the last commit: n writes
// active then, and how long it took.
func expectWrites(s *Bolt, n int, took time.Duration) {
	s.group.mu.Lock()
	s.group.expect, s.group.lastTx = n, took
	s.group.mu.Unlock()
}

// TestGroupCommitGathersReturningWriters: with five writes active at the
// last commit, the next leader waits until five are queued, so that
// writes coming back one by one share one transaction; that commit then
// expects five again.
func TestGroupCommitGathersReturningWriters(t *testing.T) {
	s, gs := groupFixture(t, 5)
	s.group.longest = time.Hour
	expectWrites(s, 5, time.Hour)
	before := s.txs.Load()
	errs := make([]error, len(gs))
	var wg sync.WaitGroup
	for i, g := range gs {
		wg.Go(func() { errs[i] = s.Save(context.Background(), g) })
		if i < len(gs)-1 {
			waitQueued(t, s, i+1) // the leader's own write stays queued while it gathers
		}
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("save %d: %v", i, err)
		}
	}
	if n := s.txs.Load() - before; n != 1 {
		t.Errorf("5 saves arriving one by one took %d transactions, want 1", n)
	}
	if s.group.expect != 5 {
		t.Errorf("after a commit of 5 writes the group expects %d, want 5", s.group.expect)
	}
}

// TestGroupCommitGathersForAWhileOnly: a leader whose expected writes do
// not come commits alone once the last commit's time has passed, or
// maxGather after a commit that took an hour (a stalled disk), and the
// group then expects it alone, so that a lone writer waits no more.
func TestGroupCommitGathersForAWhileOnly(t *testing.T) {
	for _, took := range []time.Duration{20 * time.Millisecond, time.Hour} {
		t.Run(took.String(), func(t *testing.T) {
			s, gs := groupFixture(t, 1)
			expectWrites(s, 5, took)
			before := s.txs.Load()
			saved := make(chan error, 1)
			go func() { saved <- s.Save(context.Background(), gs[0]) }()
			select {
			case err := <-saved:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(time.Minute):
				t.Fatal("a lone save still waits for writes that never came")
			}
			if n := s.txs.Load() - before; n != 1 {
				t.Errorf("the lone save took %d transactions, want 1", n)
			}
			if s.group.expect != 1 {
				t.Errorf("after a lone commit the group expects %d writes, want 1", s.group.expect)
			}
		})
	}
}

// TestGroupCommitExpectsTheQueuedToo: a commit of one write with four
// queued behind it expects five, so the next leader waits for the writer
// that committed, and that writer's next save shares the four's
// transaction.
func TestGroupCommitExpectsTheQueuedToo(t *testing.T) {
	ctx := context.Background()
	s, gs := groupFixture(t, 5)
	s.group.longest = time.Minute // gathering as long as the last commit, however long
	release := holdWriter(t, s)
	before := s.txs.Load()
	first := make(chan error, 1)
	go func() { first <- s.Save(ctx, gs[0]) }()
	waitLeading(t, s)
	errs := make([]error, len(gs))
	var wg sync.WaitGroup
	for i, g := range gs[1:] {
		wg.Go(func() { errs[i+1] = s.Save(ctx, g) })
		waitQueued(t, s, i+1)
	}
	// A commit of a second: the first writer then has as long to come
	// back before the four commit without it.
	time.Sleep(time.Second)
	release()
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	s.group.mu.Lock()
	expect := s.group.expect
	s.group.mu.Unlock()
	if expect != 5 {
		t.Errorf("after a commit of 1 write with 4 queued the group expects %d, want 5", expect)
	}
	storetest.PlayRandom(gs[0], rand.New(rand.NewPCG(3, 4)), "1001")
	errs[0] = s.Save(ctx, gs[0])
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("save %d: %v", i, err)
		}
	}
	if n := s.txs.Load() - before; n != 2 {
		t.Errorf("1 save, then 4 queued and the first one's next: %d transactions, want 2", n)
	}
}
