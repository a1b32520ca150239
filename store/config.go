package store

import (
	"log/slog"
	"time"

	"arbiter/rules"
)

// Config says where the store keeps its data and how a backend behaves;
// package open chooses the backend from RedisURL. Each field says which
// backend reads it.
type Config struct {
	// RedisURL is the Redis to use (redis://, rediss:// or unix://). Empty
	// runs the embedded backend.
	RedisURL string
	// DataDir is where the embedded backend keeps its database file;
	// default "./data". Unused with a RedisURL.
	DataDir string
	// StartEmpty lets the embedded backend start on a database file that
	// does not read by moving it aside (renamed, kept) and starting empty.
	StartEmpty bool
	// BackupEvery, when set, makes the embedded backend write a consistent
	// copy of its database into DataDir/backup that often while it runs,
	// one file a backup named by its time (see Bolt.Backup).
	BackupEvery time.Duration
	// BackupKeep is how many of those backups are kept, the newest;
	// 0 keeps them all.
	BackupKeep int
	// Logger receives the store's logs; default slog.Default().
	Logger *slog.Logger
	// Registry decodes the games' states. Required.
	Registry *rules.Registry
	// Timeout bounds each store operation; past it the operation fails
	// with ErrUnavailable. Default 2s.
	Timeout time.Duration
	// ClaimTimeout bounds a bot turn's lease: how long a claimed turn may
	// go without an ack (or ExtendBotTurn) before another worker, of any
	// name, may claim it. Each turn's own lease is a quarter of its game's
	// time per move, at least 1s, at most ClaimTimeout (Job.Lease).
	// Default 2m.
	ClaimTimeout time.Duration
	// Cluster says that RedisURL names a Redis Cluster, in the form of
	// go-redis's ParseClusterURL: redis://host:port?addr=host2:port2&...
	Cluster bool
	// Partitions is how many bot-turn streams and deadline index sorted
	// sets the store spreads its channels over (by hash tag), so that no
	// one cluster node serves them all. Default 1 on one Redis, 16 on a
	// cluster. Partition 0 keeps the single-Redis key names, so a store
	// may grow its partitions; it must never shrink them (the games of a
	// dropped partition would not be served).
	Partitions int
	// WaitReplicas, when above 0, makes every Save wait (Redis WAIT, on
	// the connection of the write) until that many replicas have the
	// write, so that an acknowledged move survives its master's death
	// and a replica's promotion. 0 (the default) acknowledges a move once
	// its master has it: Redis replicates asynchronously, and a master
	// that dies may take its last few milliseconds of writes with it.
	WaitReplicas int
	// Now returns the current time; default time.Now. Tests set it.
	Now func() time.Time
}

// Stats counts the store's traffic since Open.
type Stats struct {
	Commands   int64 // commands sent (Redis commands; transactions on the embedded store)
	RoundTrips int64 // round trips: a single command or a pipeline (a transaction)
}
