package store

import "github.com/redis/go-redis/v9"

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
func EncodeRecord(g *Game) ([]byte, error) { return encodeGame(g) }

// MovesKey returns the key of the move list of the game in channel, for
// tests.
func MovesKey(channel string) string { return movesKey(channel) }
