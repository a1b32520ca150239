package storetest

import (
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"arbiter/store"
)

// testOneMoveWinsTheTurn: 50 goroutines send a move for the same turn at
// once; exactly one is applied, the others learn that the game moved on.
func testOneMoveWinsTheTurn(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	for gi, name := range GameNames {
		ch := ChName(gi)
		g := NewGame(t, e.reg, name, ch, "1")
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		const n = 50
		var (
			loaded    sync.WaitGroup
			done      sync.WaitGroup
			applied   atomic.Int32
			conflicts atomic.Int32
			winner    atomic.Value
		)
		start := make(chan struct{})
		for i := range n {
			loaded.Add(1)
			done.Add(1)
			go func() {
				defer done.Done()
				mine, err := s.Load(ctx, ch)
				loaded.Done()
				if err != nil {
					t.Error(err)
					return
				}
				PlayRandom(mine, rand.New(rand.NewPCG(uint64(i), 9)), ChName(i))
				<-start // everyone loaded the same turn: go
				switch err := s.Save(ctx, mine); {
				case err == nil:
					applied.Add(1)
					winner.Store(mine.Moves[0])
				case errors.Is(err, store.ErrConflict):
					conflicts.Add(1)
				default:
					t.Error(err)
				}
			}()
		}
		loaded.Wait()
		close(start)
		done.Wait()
		if applied.Load() != 1 || conflicts.Load() != n-1 {
			t.Fatalf("%s: %d moves applied and %d conflicts, want 1 and %d", name, applied.Load(), conflicts.Load(), n-1)
		}
		got, err := s.Load(ctx, ch)
		if err != nil {
			t.Fatal(err)
		}
		if got.Version != 2 || len(got.Moves) != 1 || got.Moves[0] != winner.Load().(store.Move) {
			t.Fatalf("%s: stored version %d with moves %v, want the one applied move", name, got.Version, got.Moves)
		}
		CheckReplays(t, e.reg, got)
	}
}

// testManyChannelsReplay: 1,000 random legal moves sent concurrently over
// 100 channels; afterwards every game, going on or archived, replays its
// move list to its stored state, and the moves stored are exactly the
// moves whose save succeeded.
func testManyChannelsReplay(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	const (
		channels = 100
		moves    = 1000
		workers  = 32
	)
	guild := func(c int) string { return ChName(c % 3) }
	for c := range channels {
		if err := s.Create(ctx, NewGame(t, e.reg, GameNames[c%len(GameNames)], ChName(c), guild(c))); err != nil {
			t.Fatal(err)
		}
	}
	var (
		tickets   atomic.Int64 // moves not yet being sent
		applied   atomic.Int64
		conflicts atomic.Int64
		created   atomic.Int64
		wg        sync.WaitGroup
	)
	tickets.Store(moves)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 77))
			for applied.Load() < moves && !t.Failed() {
				if tickets.Add(-1) < 0 {
					tickets.Add(1) // every owed move is in flight: wait for their fate
					time.Sleep(time.Millisecond)
					continue
				}
				c := rng.IntN(channels)
				g, err := s.Load(ctx, ChName(c))
				if errors.Is(err, store.ErrNotFound) {
					tickets.Add(1)
					// Its game finished: start the next one.
					err := s.Create(ctx, NewGame(t, e.reg, GameNames[rng.IntN(len(GameNames))], ChName(c), guild(c)))
					if err == nil {
						created.Add(1)
					} else if !errors.Is(err, store.ErrBusy) {
						t.Error(err)
					}
					continue
				}
				if err != nil {
					t.Error(err)
					return
				}
				if !PlayRandom(g, rng, "u") {
					tickets.Add(1) // finished, not yet archived
					continue
				}
				switch err := s.Save(ctx, g); {
				case err == nil:
					applied.Add(1)
				case errors.Is(err, store.ErrConflict):
					conflicts.Add(1)
					tickets.Add(1) // not applied: still owed
				default:
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	total := 0
	games := 0
	for c := range channels {
		g, err := s.Load(ctx, ChName(c))
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		CheckReplays(t, e.reg, g)
		CheckEverySaveAMove(t, g)
		total += len(g.Moves)
		games++
	}
	for gd := range 3 {
		list, n, err := s.Archived(ctx, ChName(gd), 0, store.MaxList)
		if err != nil || int(n) != len(list) {
			t.Fatalf("archive of guild %d: %d of %d listed, %v", gd, len(list), n, err)
		}
		for _, sum := range list {
			g, err := s.LoadArchived(ctx, ChName(gd), sum.ID)
			if err != nil {
				t.Fatal(err)
			}
			CheckReplays(t, e.reg, g)
			CheckEverySaveAMove(t, g)
			total += len(g.Moves)
			games++
		}
	}
	if applied.Load() != moves || total != moves {
		t.Fatalf("%d moves stored over %d games, want the %d applied", total, games, applied.Load())
	}
	t.Logf("%s: %d moves over %d games (%d started during the run), %d conflicts", e.name, total, games, created.Load(), conflicts.Load())
}
