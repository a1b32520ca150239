package boltstore

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/storetest"
)

// BenchmarkGroupCommitAgainstBatch compares the store's group commit with
// bbolt's own DB.Batch, at its default delay (10ms) and at 1ms, with 1 and
// 8 writers that each write again as soon as their last write is
// acknowledged (as the move command does). Each write puts 300 bytes under
// a key of its own, in a transaction synced to disk; writes/tx is how many
// writes shared a transaction on average.
func BenchmarkGroupCommitAgainstBatch(b *testing.B) {
	bucket := []byte("bench")
	value := make([]byte, 300)
	type commit struct {
		name  string
		delay time.Duration // bbolt's MaxBatchDelay; 0 for the group commit
	}
	for _, c := range []commit{{"group", 0}, {"batch-10ms", 10 * time.Millisecond}, {"batch-1ms", time.Millisecond}} {
		for _, clients := range []int{1, 8} {
			b.Run(c.name+"/clients="+strconv.Itoa(clients), func(b *testing.B) {
				s := openBench(b)
				if err := s.db.Update(func(tx *bolt.Tx) error {
					_, err := tx.CreateBucketIfNotExists(bucket)
					return err
				}); err != nil {
					b.Fatal(err)
				}
				s.db.MaxBatchDelay = c.delay
				write := func(ctx context.Context, fn func(*bolt.Tx) error) error {
					if c.delay == 0 {
						return s.updateGrouped(ctx, "bench write", fn)
					}
					return s.db.Batch(fn)
				}
				ctx := context.Background()
				lastTx := func() (id int) {
					_ = s.db.View(func(tx *bolt.Tx) error { id = tx.ID(); return nil })
					return id
				}
				first := lastTx()
				b.ResetTimer()
				var wg sync.WaitGroup
				for w := range clients {
					wg.Go(func() {
						for i := w; i < b.N; i += clients {
							key := []byte(strconv.Itoa(w) + "/" + strconv.Itoa(i))
							if err := write(ctx, func(tx *bolt.Tx) error {
								return tx.Bucket(bucket).Put(key, value)
							}); err != nil {
								b.Error(err)
								return
							}
						}
					})
				}
				wg.Wait()
				b.ReportMetric(float64(b.N)/float64(lastTx()-first), "writes/tx")
			})
		}
	}
}

// openBench opens an embedded store in a new directory, closed at the
// end of the benchmark.
func openBench(b *testing.B) *Bolt {
	b.Helper()
	ctx := context.Background()
	s, err := Open(ctx, store.Config{DataDir: b.TempDir(), Registry: games.Registry(), Logger: storetest.QuietLogger()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close(ctx) })
	return s
}
