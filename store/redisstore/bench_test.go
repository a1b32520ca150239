package redisstore_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/redisstore"
	"arbiter/store/redistest"
	"arbiter/store/storetest"
)

// BenchmarkMove measures one move's store round trip: Load the game,
// play a random legal move, Save it (the compare-and-set), over 16 games
// of the four kinds, starting a new game when one reaches 80 moves or
// ends (those saves, which archive, are not counted). It reports the
// median and 99th percentile latency and the Redis commands and round
// trips per move.
func BenchmarkMove(b *testing.B) {
	b.Run("redis-tcp", func(b *testing.B) {
		srv := redistest.Start(b, redistest.Options{TCP: true})
		benchMove(b, store.Config{RedisURL: srv.URL()})
	})
	b.Run("redis-tcp-aof-always", func(b *testing.B) {
		srv := redistest.Start(b, redistest.Options{TCP: true, AppendOnly: true})
		benchMove(b, store.Config{RedisURL: srv.URL()})
	})
	b.Run("embedded", func(b *testing.B) {
		benchMove(b, store.Config{DataDir: b.TempDir()})
	})
}

func benchMove(b *testing.B, cfg store.Config) {
	ctx := context.Background()
	reg := games.Registry()
	cfg.Registry, cfg.Logger = reg, storetest.QuietLogger()
	s, err := redisstore.Open(ctx, cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close(ctx)
	const channels = 16
	for c := range channels {
		g := storetest.NewGame(b, reg, storetest.GameNames[c%len(storetest.GameNames)], storetest.ChName(c), "1")
		g.Deadline = time.Now().Add(time.Hour)
		if err := s.Create(ctx, g); err != nil {
			b.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	lat := make([]time.Duration, 0, b.N)
	var cmds, rtts int64
	b.ResetTimer()
	for i := range b.N {
		ch := storetest.ChName(i % channels)
		before := s.Stats()
		t0 := time.Now()
		g, err := s.Load(ctx, ch)
		if err != nil {
			b.Fatal(err)
		}
		storetest.PlayRandom(g, rng, "u")
		g.Deadline = time.Now().Add(time.Hour)
		if g.Status == store.Finished || len(g.Moves) >= 80 {
			// Not a typical move: it archives. Finish and start anew.
			g.Status = store.Finished
			if err := s.Save(ctx, g); err != nil && !errors.Is(err, store.ErrConflict) {
				b.Fatal(err)
			}
			if err := s.Create(ctx, storetest.NewGame(b, reg, g.Name, ch, "1")); err != nil {
				b.Fatal(err)
			}
			continue
		}
		if err := s.Save(ctx, g); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
		after := s.Stats()
		cmds += after.Commands - before.Commands
		rtts += after.RoundTrips - before.RoundTrips
	}
	b.StopTimer()
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	p := func(q float64) float64 { return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))]) / 1e3 }
	b.ReportMetric(p(0.50), "p50-µs")
	b.ReportMetric(p(0.99), "p99-µs")
	b.ReportMetric(float64(cmds)/float64(len(lat)), "cmds/move")
	b.ReportMetric(float64(rtts)/float64(len(lat)), "rtts/move")
}
