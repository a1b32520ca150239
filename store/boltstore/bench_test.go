package boltstore_test

import (
	"context"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"

	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/boltstore"
	"arbiter/store/storetest"
)

// BenchmarkSave saves one move of a running game a time, the caller
// keeping the game it saved (as the move command does), each save synced:
// a transaction each alone, shared among those that arrive together with 8
// saving at once. A game that ends is archived by its last save and a new
// one created in its channel.
func BenchmarkSave(b *testing.B) {
	for _, clients := range []int{1, 8} {
		b.Run("clients="+strconv.Itoa(clients), func(b *testing.B) {
			ctx := context.Background()
			reg := games.Registry()
			s, err := boltstore.Open(ctx, store.Config{DataDir: b.TempDir(), Registry: reg, Logger: storetest.QuietLogger()})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close(ctx)
			newGame := func(c int) *store.Game {
				g := storetest.NewGame(b, reg, "hique", "c"+strconv.Itoa(c), "g")
				if err := s.Create(ctx, g); err != nil {
					b.Fatal(err)
				}
				return g
			}
			held := make([]*store.Game, clients)
			for c := range held {
				held[c] = newGame(c)
			}
			b.ReportAllocs()
			b.ResetTimer()
			var wg sync.WaitGroup
			for c := range clients {
				wg.Go(func() {
					rng := rand.New(rand.NewPCG(uint64(c), 1))
					for i := c; i < b.N; i += clients {
						g := held[c]
						if !storetest.PlayRandom(g, rng, "1001") {
							g.Status = store.Finished
						}
						if err := s.Save(ctx, g); err != nil {
							b.Error(err)
							return
						}
						if g.Status == store.Finished {
							held[c] = newGame(c)
						}
					}
				})
			}
			wg.Wait()
		})
	}
}
