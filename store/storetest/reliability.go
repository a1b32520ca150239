package storetest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"arbiter/store"
)

// testHeartbeatOutageSeenOnce: after a gap longer than the stale bound,
// exactly one of many concurrent beats reports the outage, and it is
// recorded with the store's times.
func testHeartbeatOutageSeenOnce(t *testing.T, e *env) {
	s := e.open()
	ctx := Context(t)
	if o, err := s.Heartbeat(ctx, 100*time.Millisecond); err != nil || !o.IsZero() {
		t.Fatalf("first beat: outage %v, err %v; want none", o, err)
	}
	if o, err := s.Heartbeat(ctx, time.Hour); err != nil || !o.IsZero() {
		t.Fatalf("second beat: outage %v, err %v; want none", o, err)
	}
	_, before, err := s.LastBeat(ctx)
	if err != nil || before.IsZero() {
		t.Fatalf("LastBeat: last %v, err %v", before, err)
	}
	// A gap of 2 s by the store's clock, then 16 beats at once that count
	// a gap of over 1 s as an outage.
	const gap, stale = 2 * time.Second, time.Second
	waitStoreTime(t, s, before.Add(gap))
	var (
		mu   sync.Mutex
		seen []store.Outage
		wg   sync.WaitGroup
	)
	for range 16 {
		wg.Go(func() {
			o, err := s.Heartbeat(ctx, stale)
			if err != nil {
				t.Error(err)
			}
			if !o.IsZero() {
				mu.Lock()
				seen = append(seen, o)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	// The gap is reported by exactly one beat. A machine slow enough to
	// leave over a second between two of the beats makes that pause an
	// outage of its own, reported by the one beat that ended it; no
	// outage is reported twice.
	gapSeen := 0
	froms := map[int64]bool{}
	for _, o := range seen {
		if froms[o.From.UnixMilli()] {
			t.Errorf("the outage from %v was reported twice", o.From)
		}
		froms[o.From.UnixMilli()] = true
		switch {
		case o.From.Equal(before):
			gapSeen++
			if o.Length() < gap {
				t.Errorf("outage of %v, want the gap of at least %v", o.Length(), gap)
			}
		case o.From.Before(before) || o.Length() <= stale:
			t.Errorf("an outage %v..%v reported that is neither the gap nor a pause between the beats", o.From, o.To)
		}
	}
	if gapSeen != 1 {
		t.Fatalf("%d beats reported the outage, want exactly 1 (reported: %v)", gapSeen, seen)
	}
	now, last, err := s.LastBeat(ctx)
	if err != nil || last.IsZero() || now.Before(last) {
		t.Fatalf("LastBeat: now %v last %v err %v", now, last, err)
	}
	outs, err := s.Outages(ctx, before.Add(-time.Minute))
	if err != nil || len(outs) != len(seen) {
		t.Fatalf("Outages: %v, %v; want the %d reported", outs, err, len(seen))
	}
	if outs, _ := s.Outages(ctx, outs[len(outs)-1].To); len(outs) != 0 {
		t.Fatalf("Outages after the last outage's end: %v, want none", outs)
	}
}

// testStoreTime: the store's clock is Redis's, near the host's here.
func testStoreTime(t *testing.T, e *env) {
	s := e.open()
	st, err := s.Time(Context(t))
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(st); d > time.Minute || d < -time.Minute {
		t.Fatalf("store time %v is %v from the host's", st, d)
	}
}

// testOutboxAndDeadLetters: entries come due at their time, leave when
// done; attempts count until finished; dead letters are kept.
func testOutboxAndDeadLetters(t *testing.T, e *env) {
	s := e.open()
	ctx := Context(t)
	now := time.Now()
	for i, due := range []time.Time{now.Add(-time.Second), now.Add(time.Hour)} {
		err := s.OutboxPut(ctx, store.OutboxEntry{Key: fmt.Sprintf("c/1/%d", i+2), Channel: "c", Guild: "g", Game: "1",
			Version: int64(i + 2), Check: "x", Payload: json.RawMessage(`{"a":1}`), Due: due})
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.OutboxDue(ctx, now, 10)
	if err != nil || len(got) != 1 || got[0].Key != "c/1/2" || string(got[0].Payload) != `{"a":1}` {
		t.Fatalf("OutboxDue: %+v, %v; want c/1/2", got, err)
	}
	if err := s.OutboxDone(ctx, "c/1/2"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.OutboxDue(ctx, now.Add(2*time.Hour), 10); len(got) != 1 || got[0].Key != "c/1/3" {
		t.Fatalf("after done: %+v, want only c/1/3", got)
	}
	for want := 1; want <= 3; want++ {
		if n, err := s.Attempt(ctx, "bot/c/1/2"); err != nil || n != want {
			t.Fatalf("attempt %d: %d, %v", want, n, err)
		}
	}
	if err := s.AddDeadLetter(ctx, store.DeadLetter{Key: "bot/c/1/2", Channel: "c", Failure: "panic: boom"}); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Attempt(ctx, "bot/c/1/2"); n != 1 {
		t.Fatalf("attempts after the dead letter: %d, want a fresh count", n)
	}
	if err := s.Finished(ctx, "bot/c/1/2"); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Attempt(ctx, "bot/c/1/2"); n != 1 {
		t.Fatalf("attempts after Finished: %d, want 1", n)
	}
	dl, err := s.DeadLetters(ctx, 10)
	if err != nil || len(dl) != 1 || dl[0].Failure != "panic: boom" {
		t.Fatalf("DeadLetters: %+v, %v", dl, err)
	}
}

// testRatingsManyAtOnce: many games finishing at once from many clients
// are each rated exactly once, none lost to contention, even when every
// game shares one player (the bot).
func testRatingsManyAtOnce(t *testing.T, e *env) {
	games, clients := 500, 64
	if testing.Short() {
		games, clients = 120, 16
	}
	if e.b.Slow && testing.Short() {
		games = 40
	}
	s := e.open(func(c *store.Config) { c.Timeout = 5 * time.Second })
	ctx := Context(t)
	jobs := make(chan int)
	var applied, calls atomic.Int64
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(c), 1))
			for i := range jobs {
				players := []string{fmt.Sprintf("u%d", rng.IntN(40)), "bot:5"}
				// Each result is delivered twice (an outbox retry).
				for range 2 {
					ok, err := s.UpdateRatings(ctx, "g1", "hique", fmt.Sprint(i+1), players, func(cur []store.Rating) ([]store.Rating, error) {
						calls.Add(1)
						next := append([]store.Rating(nil), cur...)
						for k := range next {
							next[k].Games++
							next[k].Rating = float64(next[k].Games)
						}
						return next, nil
					})
					if err != nil {
						t.Errorf("game %d: %v", i+1, err)
					}
					if ok {
						applied.Add(1)
					}
				}
			}
		})
	}
	for i := range games {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if applied.Load() != int64(games) {
		t.Fatalf("%d of %d results applied", applied.Load(), games)
	}
	r, err := s.Ratings(ctx, "g1", "hique", "bot:5")
	if err != nil || r[0].Games != games {
		t.Fatalf("the bot played %d rated games, want %d (%v)", r[0].Games, games, err)
	}
	t.Logf("%d games from %d clients: %d applied, update called %d times", games, clients, applied.Load(), calls.Load())
}
