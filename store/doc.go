// Package store is the contract between Arbiter's game flow and where its
// games are kept: the Store interface, the types it speaks in (Game, Job,
// Rating, ...), its errors, and the game record's codec that every backend
// writes. A change here must keep three invariants: every backend meets
// every promise of Store's doc comments (package storetest's suite runs
// them all against each); a record a released build wrote still reads
// (SchemaVersion, MIGRATIONS.md, TestGoldenRecordV1); and this package
// imports nothing of Arbiter's but package rules, so that backends depend
// on it and never the other way.
//
// What a Store keeps: the game of every channel, the archive of finished
// games per guild, the deadline index the clock reads, the queue of bot
// turns, the ratings behind the leaderboards, channel settings, program
// tokens, locks, and the reliability records (heartbeat, outages, outbox,
// attempts, dead letters).
//
// # Versions
//
// A game's version starts at 1 at Create and grows by one at every Save.
// Save is a compare-and-set: it applies only if the stored game is still
// the one loaded (same archive id, same version, not finished). Of two
// saves racing from one version exactly one is applied; the other gets
// ErrConflict.
//
// # Backends
//
//   - package redisstore: Redis, one server or a Redis Cluster, for many
//     processes; its doc has the key layout.
//   - package boltstore: the embedded store, one bbolt database file under
//     the data directory, for one process; its doc has the file layout.
//   - package open chooses between them by configuration (a Redis URL or
//     none) and is the one package that knows both.
//
// Forget removes one person from everything a backend keeps, by the
// rules of Scrubber that both backends share (forget.go), and
// ForgetFinished deletes finished games past a retention.
//
// Export and Import move everything a backend keeps to another (any
// Porter), through a file of JSON lines; see docs/explanation/storage.md.
package store
