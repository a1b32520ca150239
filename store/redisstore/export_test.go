package redisstore

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/redis/go-redis/v9"
	bolt "go.etcd.io/bbolt"
)

// Raw returns the store's Redis client, for tests that break records on
// purpose or look at keys.
func (s *Redis) Raw() redis.UniversalClient { return s.rdb }

// GameKey returns the key of the game in channel, for tests.
func GameKey(channel string) string { return gameKey(channel) }

// Key names, for tests.
const (
	DeadlinesKey = deadlinesKey
	QueueKey     = queueKey
)

// EncodeRecord returns the stored form of g, for tests that write records
// by hand.
func EncodeRecord(g *Game) ([]byte, error) { return store.EncodeRecord(g) }

// bucketAt walks path from the top of the database.
func bucketAt(tx *bolt.Tx, path []string) (*bolt.Bucket, error) {
	b := tx.Bucket([]byte(path[0]))
	for _, p := range path[1:] {
		if b == nil {
			break
		}
		b = b.Bucket([]byte(p))
	}
	if b == nil {
		return nil, fmt.Errorf("no bucket %v", path)
	}
	return b, nil
}

// RawPut writes value under key in the bucket at path, for tests that
// break records on purpose.
func (s *Bolt) RawPut(path []string, key string, value []byte) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		b, err := bucketAt(tx, path)
		if err != nil {
			return err
		}
		return b.Put([]byte(key), value)
	})
}

// RawGet returns the value under key in the bucket at path.
func (s *Bolt) RawGet(path []string, key string) ([]byte, error) {
	var v []byte
	err := s.db.View(func(tx *bolt.Tx) error {
		b, err := bucketAt(tx, path)
		if err != nil {
			return err
		}
		v = slices.Clone(b.Get([]byte(key)))
		return nil
	})
	return v, err
}

// RawKeys lists the keys of the bucket at path.
func (s *Bolt) RawKeys(path []string) ([]string, error) {
	var keys []string
	err := s.db.View(func(tx *bolt.Tx) error {
		b, err := bucketAt(tx, path)
		if err != nil {
			return err
		}
		return b.ForEach(func(k, _ []byte) error { keys = append(keys, string(k)); return nil })
	})
	return keys, err
}

// RawCount counts the keys of the bucket at path.
func (s *Bolt) RawCount(path []string) (int, error) {
	keys, err := s.RawKeys(path)
	return len(keys), err
}

// MovesKey returns the key of the move list of the game in channel, for
// tests.
func MovesKey(channel string) string { return movesKey(channel) }

// SkewHostClock makes the store see this host's clock off by d, as a host
// whose clock is wrong does, and measures the offset to Redis's again.
func (s *Redis) SkewHostClock(ctx context.Context, d time.Duration) error {
	s.wall = func() time.Time { return time.Now().Add(d) }
	_, err := s.Time(ctx)
	return err
}
