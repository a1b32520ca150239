package redisstore

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
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
