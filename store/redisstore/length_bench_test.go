package redisstore_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/redisstore"
	"arbiter/store/redistest"
	"arbiter/store/storetest"
)

// BenchmarkSaveByLength measures one move's Save (the load before it is
// not timed) in a HiQUE game that already has 0 or 150 moves, on a
// loopback redis-server: with the moves in a list beside a small record,
// the two should cost about the same. It reports the median latency.
func BenchmarkSaveByLength(b *testing.B) {
	srv := redistest.Start(b, redistest.Options{TCP: true})
	reg := games.Registry()
	ctx := context.Background()
	s, err := redisstore.Open(ctx, store.Config{RedisURL: srv.URL(), Registry: reg, Logger: storetest.QuietLogger()})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close(ctx)
	for _, plies := range []int{0, 150} {
		b.Run(fmt.Sprintf("plies=%d", plies), func(b *testing.B) {
			ch := fmt.Sprintf("len%d-%d", plies, b.N)
			g, found := storetest.GameOfLength(b, reg, "hique", ch, "1", plies+b.N+1) // a game that lasts past plies+b.N
			if !found {
				b.Skipf("no random HiQUE game of 500 seeds lasts %d moves", plies+b.N+1)
			}
			all := g.Moves
			fresh := storetest.NewGame(b, reg, "hique", ch, "1")
			replayed, err := reg.Replay("hique", fresh.Options, moveTexts(all[:plies]))
			if err != nil {
				b.Fatal(err)
			}
			fresh.State, fresh.Moves = replayed, slices.Clone(all[:plies])
			if err := s.Create(ctx, fresh); err != nil {
				b.Fatal(err)
			}
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				b.StopTimer()
				cur, err := s.Load(ctx, ch)
				if err != nil {
					b.Fatal(err)
				}
				m, err := cur.State.ParseMove(all[plies+i].Text)
				if err != nil {
					b.Fatal(err)
				}
				cur.State.Play(m)
				cur.Moves = append(cur.Moves, all[plies+i])
				b.StartTimer()
				t0 := time.Now()
				if err := s.Save(ctx, cur); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
		})
	}
}
