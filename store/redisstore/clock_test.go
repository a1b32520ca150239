package redisstore_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"arbiter/store/storetest"
)

// TestHostClockOffRedis: a host whose clock is seconds off Redis's is not
// refused its saves ("storage too slow"): a save is timed by Redis's clock,
// as the store last measured it (Redis TIME), not by the host's.
func TestHostClockOffRedis(t *testing.T) {
	forEachRedis(t, func(t *testing.T, e *env) {
		ctx := storetest.Context(t)
		for i, off := range []time.Duration{-3 * time.Second, 3 * time.Second} {
			s := e.openRedis()
			if err := s.SkewHostClock(ctx, off); err != nil {
				t.Fatal(err)
			}
			g := storetest.NewGame(t, e.reg, "sixes", storetest.ChName(i), "1")
			if err := s.Create(ctx, g); err != nil {
				t.Fatalf("host %v off: create: %v", off, err)
			}
			storetest.PlayRandom(g, rand.New(rand.NewPCG(1, 2)), "p")
			if err := s.Save(ctx, g); err != nil {
				t.Fatalf("host %v off: save: %v", off, err)
			}
		}
	})
}
