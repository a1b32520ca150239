package redisstore_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/redisstore"
	"arbiter/store/redistest"
	"arbiter/store/storetest"
)

// acked remembers, per channel, the last move list whose save was
// acknowledged.
type acked struct {
	mu      sync.Mutex
	version map[string]int64
	moves   map[string][]store.Move
	id      map[string]string
}

func (a *acked) note(g *store.Game) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if g.Version > a.version[g.Channel] {
		a.version[g.Channel] = g.Version
		a.moves[g.Channel] = append([]store.Move(nil), g.Moves...)
		a.id[g.Channel] = g.ID
	}
}

// TestRedisKillKeepsAcknowledgedMoves: Redis with an append-only file
// (fsync always) is killed with SIGKILL while moves are being saved; when
// it is started again, every acknowledged move is there.
func TestRedisKillKeepsAcknowledgedMoves(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{AppendOnly: true})
	reg := games.Registry()
	// A timeout well above a loaded machine's stalls: before the kill every
	// save must go through (after it, the refused dials fail at once).
	cfg := store.Config{RedisURL: srv.URL(), Registry: reg, Logger: storetest.QuietLogger(), Timeout: 4 * time.Second}
	ctx := storetest.Context(t)
	s, err := redisstore.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	const channels = 20
	for c := range channels {
		if err := s.Create(ctx, storetest.NewGame(t, reg, storetest.GameNames[c%len(storetest.GameNames)], storetest.ChName(c), "1")); err != nil {
			t.Fatal(err)
		}
	}
	ack := &acked{version: map[string]int64{}, moves: map[string][]store.Move{}, id: map[string]string{}}
	var (
		wg       sync.WaitGroup
		count    sync.WaitGroup // the first 200 acks
		killed   = make(chan struct{})
		unavail  = make(chan struct{}, 8)
		ackCount = 0
		countMu  sync.Mutex
	)
	count.Add(1)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 5))
			for {
				g, err := s.Load(ctx, storetest.ChName(rng.IntN(channels)))
				if err == nil && storetest.PlayRandom(g, rng, "u") {
					err = s.Save(ctx, g)
					if err == nil {
						ack.note(g)
						countMu.Lock()
						ackCount++
						if ackCount == 200 {
							count.Done()
						}
						countMu.Unlock()
					}
				}
				switch {
				case err == nil, errors.Is(err, store.ErrConflict), errors.Is(err, store.ErrNotFound):
				case errors.Is(err, store.ErrUnavailable):
					select {
					case <-killed:
						unavail <- struct{}{}
						return
					default:
						t.Errorf("unavailable before the kill: %v", err)
						return
					}
				default:
					t.Errorf("save: %v", err)
					return
				}
			}
		}()
	}
	count.Wait()
	close(killed)
	srv.Kill()
	wg.Wait()
	if t.Failed() {
		return
	}
	srv.Restart()

	// The same store reconnects by itself; a new one sees the same.
	s2, err := redisstore.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close(ctx)
	for _, st := range []*redisstore.Redis{s, s2} {
		for ch, v := range ack.version {
			// go-redis may hold back dials for a moment after the failed
			// ones during the outage: give the old store time to reconnect.
			g, err := eventually(func() (*store.Game, error) {
				g, err := st.Load(ctx, ch)
				if errors.Is(err, store.ErrNotFound) {
					return st.LoadArchived(ctx, "1", ack.id[ch])
				}
				return g, err
			})
			if err != nil {
				t.Fatalf("channel %s after the restart: %v", ch, err)
			}
			if g.Version < v {
				t.Fatalf("channel %s: version %d after the restart, but version %d was acknowledged", ch, g.Version, v)
			}
			want := ack.moves[ch]
			for i := range want {
				if g.Moves[i].Text != want[i].Text || g.Moves[i].Seat != want[i].Seat {
					t.Fatalf("channel %s: move %d is %v after the restart, %v was acknowledged", ch, i+1, g.Moves[i], want[i])
				}
			}
			storetest.CheckReplays(t, reg, g)
		}
	}
	t.Logf("%d saves acknowledged before the kill over %d channels", ackCount, len(ack.version))
}

// TestRedisDownAndBack: with Redis stopped every operation says storage is
// unreachable (and changes nothing); when Redis is back, the same store
// works again. A Redis that hangs is reported the same way.
func TestRedisDownAndBack(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{AppendOnly: true})
	reg := games.Registry()
	ctx := storetest.Context(t)
	s, err := redisstore.Open(ctx, store.Config{RedisURL: srv.URL(), Registry: reg, Logger: storetest.QuietLogger(), Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	g := storetest.NewGame(t, reg, "hique", "1", "1")
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	loaded, err := s.Load(ctx, "1")
	if err != nil {
		t.Fatal(err)
	}
	storetest.PlayRandom(loaded, rand.New(rand.NewPCG(1, 2)), "u")

	everything := func(what string) {
		t.Helper()
		check := func(op string, err error) {
			t.Helper()
			if !errors.Is(err, store.ErrUnavailable) || !strings.Contains(err.Error(), "storage is not reachable right now") {
				t.Fatalf("%s, %s: got %v, want ErrUnavailable", what, op, err)
			}
		}
		_, err := s.Load(ctx, "1")
		check("load", err)
		check("save", s.Save(ctx, loaded))
		check("create", s.Create(ctx, storetest.NewGame(t, reg, "sixes", "2", "1")))
		_, err = s.Due(ctx, time.Now(), 10)
		check("due", err)
		_, err = s.EnqueueBotTurn(ctx, g)
		check("enqueue", err)
		_, err = s.ClaimBotTurn(ctx, "w", 0)
		check("claim", err)
		_, err = s.TryLock(ctx, "clock", time.Second)
		check("lock", err)
		_, _, err = s.Archived(ctx, "1", 0, 10)
		check("archive", err)
		_, err = s.UpdateRatings(ctx, "1", "hique", "1", []string{"a", "b"}, func(r []store.Rating) ([]store.Rating, error) { return r, nil })
		check("ratings", err)
		_, err = s.Leaderboard(ctx, "1", "hique", 0, 10)
		check("leaderboard", err)
	}

	srv.Kill()
	everything("redis killed")
	srv.Restart()
	// After as many failed dials as its pool has connections, go-redis
	// stops dialing until a probe it sends once a second gets through: an
	// operation may fail for that long after Redis is back, whether or not
	// one before it found a connection. Give it a few seconds.
	got, err := eventually(func() (*store.Game, error) { return s.Load(ctx, "1") })
	if err != nil {
		t.Fatalf("load after Redis came back: %v", err)
	}
	if got.Version != 1 || len(got.Moves) != 0 {
		t.Fatalf("a save that failed while Redis was down changed the game: version %d", got.Version)
	}
	if _, err := eventually(func() (*store.Game, error) { return loaded, s.Save(ctx, loaded) }); err != nil {
		t.Fatalf("save after Redis came back: %v", err)
	}

	srv.Pause()
	everything("redis hanging")
	srv.Resume()
	got, err = eventually(func() (*store.Game, error) { return s.Load(ctx, "1") })
	if err != nil {
		t.Fatalf("load after Redis resumed: %v", err)
	}
	if got.Version != 2 {
		t.Fatalf("version %d after Redis resumed, want 2", got.Version)
	}
}

// eventually calls f until it succeeds, for up to storetest.HangBound.
func eventually[T any](f func() (T, error)) (T, error) {
	start := time.Now()
	for {
		v, err := f()
		if err == nil || time.Since(start) > storetest.HangBound {
			return v, err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestOpenUnreachable: opening a store on a Redis that is not there fails
// with ErrUnavailable, quickly and without panicking.
func TestOpenUnreachable(t *testing.T) {
	dir := t.TempDir()
	_, err := redisstore.Open(context.Background(), store.Config{
		RedisURL: "unix://" + filepath.Join(dir, "none.sock"), Registry: games.Registry(), Logger: storetest.QuietLogger(), Timeout: 300 * time.Millisecond,
	})
	storetest.MustErr(t, err, store.ErrUnavailable, "open on a missing Redis")
	_, err = redisstore.Open(context.Background(), store.Config{RedisURL: "http://x", Registry: games.Registry(), Logger: storetest.QuietLogger()})
	storetest.MustErr(t, err, store.ErrInvalid, "open on a URL that is not Redis's")
	_, err = redisstore.Open(context.Background(), store.Config{DataDir: dir})
	storetest.MustErr(t, err, store.ErrInvalid, "open without a registry")
}
