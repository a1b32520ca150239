package redisstore

// The two ways of doing the compare-and-set, measured side by side on a
// real redis-server over loopback TCP:
//
//   - lua: Load (HMGET), change, Save (one pipeline: ZADD LT, EVALSHA of
//     the check-and-write script, ZREM), as the store does it.
//   - watch: WATCH the game's key, HMGET it, change, MULTI/HSET/ZADD/EXEC;
//     EXEC fails if the key changed since WATCH.
//
// Each benchmark loads the game, changes a field and saves it: the cost of
// the concurrency control around a move, without the move. "contended"
// runs 8 goroutines on one game and reports the saves applied per second.

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/redistest"
	"arbiter/store/storetest"
)

// watchMove is the WATCH/MULTI version of load, change, save.
func (s *Redis) watchMove(ctx context.Context, channel string, change func(*store.Game)) error {
	key := gameKey(channel)
	return s.rdb.Watch(ctx, func(tx *redis.Tx) error {
		vals, err := tx.HMGet(ctx, key, "id", "version", "record").Result()
		if err != nil {
			return err
		}
		g, err := s.gameFromHash(channel, vals, nil)
		if err != nil {
			return err
		}
		if g.Status != store.Active {
			return store.ErrConflict
		}
		change(g)
		g.Version++
		g.Updated = time.Now()
		data, err := store.EncodeRecord(g)
		if err != nil {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.HSet(ctx, key, "id", g.ID, "version", strconv.FormatInt(g.Version, 10), "status", string(g.Status), "record", data)
			if w := g.Wake(); !w.IsZero() {
				pipe.ZAdd(ctx, deadlinesKey, redis.Z{Score: float64(w.UnixMilli()), Member: deadlineMember(channel, g.ID, g.Version)})
			}
			return nil
		})
		if errors.Is(err, redis.TxFailedErr) {
			return store.ErrConflict
		}
		return err
	}, key)
}

// luaMove is the store's own load, change, save.
func (s *Redis) luaMove(ctx context.Context, channel string, change func(*store.Game)) error {
	g, err := s.Load(ctx, channel)
	if err != nil {
		return err
	}
	change(g)
	return s.Save(ctx, g)
}

func BenchmarkCAS(b *testing.B) {
	srv := redistest.Start(b, redistest.Options{TCP: true})
	ctx := context.Background()
	s, err := Open(ctx, store.Config{RedisURL: srv.URL(), Registry: games.Registry(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close(ctx)
	g := storetest.SeedGame(b, s.reg, "hique")
	g.ID, g.Version = "", 0
	g.Deadline = time.Now().Add(time.Hour)
	if err := s.Create(ctx, g); err != nil {
		b.Fatal(err)
	}
	ways := []struct {
		name string
		move func(ctx context.Context, channel string, change func(*store.Game)) error
	}{{"lua", s.luaMove}, {"watch", s.watchMove}}
	n := 0
	change := func(g *store.Game) { n++; g.Reason = strconv.Itoa(n) }

	for _, way := range ways {
		b.Run(way.name+"/uncontended", func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			before := s.Stats()
			b.ResetTimer()
			for range b.N {
				t0 := time.Now()
				if err := way.move(ctx, "1", change); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			b.StopTimer()
			after := s.Stats()
			reportLatency(b, lat)
			b.ReportMetric(float64(after.RoundTrips-before.RoundTrips)/float64(b.N), "rtts/move")
			b.ReportMetric(float64(after.Commands-before.Commands)/float64(b.N), "cmds/move")
		})
		b.Run(way.name+"/contended", func(b *testing.B) {
			var applied, conflicts atomic.Int64
			b.SetParallelism(4) // 4 x GOMAXPROCS goroutines on one game
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					err := way.move(ctx, "1", func(g *store.Game) { g.Reason = "x" })
					switch {
					case err == nil:
						applied.Add(1)
					case errors.Is(err, store.ErrConflict):
						conflicts.Add(1)
					default:
						b.Error(err)
						return
					}
				}
			})
			elapsed := time.Since(start)
			b.ReportMetric(float64(applied.Load())/elapsed.Seconds(), "applied/s")
			b.ReportMetric(float64(conflicts.Load())/float64(b.N), "conflicts/try")
		})
	}
}

// reportLatency reports the median and 99th percentile of lat.
func reportLatency(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	p := func(q float64) float64 {
		return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))]) / 1e3
	}
	b.ReportMetric(p(0.50), "p50-µs")
	b.ReportMetric(p(0.99), "p99-µs")
}
