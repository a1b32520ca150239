package redisstore_test

import (
	"math/rand/v2"
	"syscall"
	"testing"

	"github.com/redis/go-redis/v9"

	"arbiter/rules/games"
	"arbiter/store/redistest"
	"arbiter/store/storetest"
)

// TestRetriesOnAConnectionRedisClosed: the store's connections do not
// offer their socket, so go-redis does not peek at one for a close before
// using it; when Redis has closed every connection the store holds (as it
// does to idle clients past its timeout, or CLIENT KILL), the next load
// and save still go through, on new connections.
func TestRetriesOnAConnectionRedisClosed(t *testing.T) {
	for _, network := range []string{"tcp", "unix"} {
		t.Run(network, func(t *testing.T) {
			reg := games.Registry()
			s := (&env{t: t, srv: redistest.Start(t, redistest.Options{TCP: network == "tcp"}), reg: reg}).openRedis()
			ctx := storetest.Context(t)
			client := s.Raw().(*redis.Client)
			addr := client.Options().Addr
			c, err := client.Options().Dialer(ctx, client.Options().Network, addr)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := c.(syscall.Conn); ok {
				t.Errorf("the store's dialer makes a %T, which offers its socket: go-redis peeks before every command", c)
			}
			c.Close()

			g := storetest.NewGame(t, reg, "hique", "1", "1")
			if err := s.Create(ctx, g); err != nil {
				t.Fatal(err)
			}
			// killAll closes every connection the store holds, from Redis's side.
			killAll := func() {
				t.Helper()
				other := redis.NewClient(&redis.Options{Network: client.Options().Network, Addr: addr})
				defer other.Close()
				if killed, err := other.ClientKillByFilter(ctx, "TYPE", "normal", "SKIPME", "yes").Result(); err != nil || killed == 0 {
					t.Fatalf("CLIENT KILL: %d killed, %v", killed, err)
				}
			}
			rng := rand.New(rand.NewPCG(1, 2))
			for i := range 5 {
				killAll()
				loaded, err := s.Load(ctx, "1")
				if err != nil {
					t.Fatalf("round %d: load after Redis closed the store's connections: %v", i, err)
				}
				storetest.PlayRandom(loaded, rng, "u")
				killAll()
				if err := s.Save(ctx, loaded); err != nil {
					t.Fatalf("round %d: save after Redis closed the store's connections: %v", i, err)
				}
				again, err := s.Load(ctx, "1")
				if err != nil || again.Version != loaded.Version || len(again.Moves) != len(loaded.Moves) {
					t.Fatalf("round %d: reloaded version %d with %d moves (%v), want version %d with %d", i, again.Version, len(again.Moves), err, loaded.Version, len(loaded.Moves))
				}
			}
		})
	}
}
