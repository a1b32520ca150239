// Package store keeps Arbiter's games in Redis: the game of every channel,
// the archive of finished games per guild, the deadline index the clock
// reads, the queue of bot turns, the ratings behind the leaderboards and
// the lock that keeps one clock loop running at a time.
//
// # Keys
//
// Every key of one channel carries the hash tag {ch:<channel>} and every
// key of one guild the tag {g:<guild>}, so on a Redis Cluster each lives on
// one slot; no command of the store names keys of two slots:
//
//	{ch:C}:game               hash: id, version, status, token, record (JSON, schema 1)
//	{ch:C}:damaged:<ms>       a damaged record moved aside by Quarantine
//	{ch:C}:settings           hash: the channel's settings (ChannelSetting)
//	{g:G}:seq                 the guild's archive id counter
//	{g:G}:archive             hash: archive id -> record of a finished game
//	{g:G}:archived            sorted set: archive id by finish time (ms)
//	{g:G}:active              set: the guild's channels with a game (a hint Running tidies)
//	{g:G}:ratings:<game>      hash: player -> rating record (JSON)
//	{g:G}:board:<game>        sorted set: player by rating
//	{g:G}:rated:<game>        set: archive ids whose result is in the ratings
//	{arbiter}:deadlines       sorted set: "<channel>/<id>/<version>" by wake time (ms)
//	{arbiter}:botq            stream of bot turns, consumer group "workers"
//	{arbiter}:lock:<name>     a lock's holder token, with an expiry
//
// # Versions
//
// A game's version starts at 1 and grows by one at every Save. Save is a
// compare-and-set, done by a Lua script on the game's hash: it applies only
// if the stored game is still the one loaded (same archive id, same
// version, not finished). Of two saves racing from one version exactly one
// is applied; the other gets ErrConflict. A write token makes a retried
// save (after a lost reply) report the success it had, never a conflict.
//
// Lua rather than WATCH/MULTI: the script needs 2 round trips a move
// (load; then index update and compare-and-set in one pipeline) where
// WATCH needs 3 (WATCH, read, MULTI/EXEC), it lets the load and the save be
// separate calls (a bot worker thinks for seconds in between without
// holding a connection), and it can refuse a late write and recognise a
// retried one. BenchmarkCAS measures both.
//
// # Deadlines
//
// The deadline index is a hint, kept so that it is never late: a save adds
// the entry of the version it writes (ZADD LT) in the same round trip as
// the compare-and-set, before it; entries of older versions are removed
// lazily. Due reads the records themselves and cleans what it finds stale.
//
// # Backends
//
// With a Redis URL the store is Redis, for many processes. Without one it
// is Bolt, the embedded store: one database file under the data directory,
// for one process (see bolt.go and docs/storage.md).
package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/url"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"arbiter/rules"
)

// Config says where the store keeps its data.
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
	// copy of its database to DataDir/backup/arbiter.db that often while
	// it runs (see Bolt.Backup).
	BackupEvery time.Duration
	// Logger receives the store's logs; default slog.Default().
	Logger *slog.Logger
	// Registry decodes the games' states. Required.
	Registry *rules.Registry
	// Timeout bounds each store operation; past it the operation fails
	// with ErrUnavailable. Default 2s.
	Timeout time.Duration
	// ClaimTimeout is how long a claimed bot turn may go without an ack
	// (or ExtendBotTurn) before another worker may claim it. Default 2m.
	ClaimTimeout time.Duration
	// Now returns the current time; default time.Now. Tests set it.
	Now func() time.Time
}

// Redis is the store on Redis. It meets the Store contract and is safe for concurrent use.
type Redis struct {
	rdb          redis.UniversalClient
	reg          *rules.Registry
	log          *slog.Logger
	timeout      time.Duration
	claimTimeout time.Duration
	now          func() time.Time
	stats        *counter
}

// Stats counts the store's traffic since Open.
type Stats struct {
	Commands   int64 // Redis commands sent
	RoundTrips int64 // round trips: a single command or a pipeline
}

// Open opens the store cfg names: Redis when cfg.RedisURL is set, else the
// embedded backend under cfg.DataDir.
func Open(ctx context.Context, cfg Config) (Store, error) {
	if cfg.RedisURL == "" {
		return OpenBolt(ctx, cfg)
	}
	r, err := OpenRedis(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// OpenRedis connects to the Redis of cfg.RedisURL and makes sure the
// bot-turn queue exists. A Redis that does not answer is an error wrapping
// ErrUnavailable.
func OpenRedis(ctx context.Context, cfg Config) (*Redis, error) {
	if cfg.Registry == nil {
		return nil, fmt.Errorf("open store: %w: no game registry given", ErrInvalid)
	}
	s := &Redis{
		reg:          cfg.Registry,
		log:          cfg.Logger,
		timeout:      cfg.Timeout,
		claimTimeout: cfg.ClaimTimeout,
		now:          cfg.Now,
		stats:        &counter{},
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.timeout <= 0 {
		s.timeout = 2 * time.Second
	}
	if s.claimTimeout <= 0 {
		s.claimTimeout = 2 * time.Minute
	}
	if s.now == nil {
		s.now = time.Now
	}

	opts, err := redis.ParseURL(cfg.RedisURL)
	if err != nil {
		return nil, fmt.Errorf("open store: %w: REDIS_URL does not read: %v", ErrInvalid, err)
	}
	tune(opts)
	client := redis.NewClient(opts)
	client.AddHook(s.stats)
	s.rdb = client

	if err := s.ensureQueue(ctx); err != nil {
		_ = s.Close(ctx)
		return nil, fmt.Errorf("open store: %w", err)
	}
	s.log.Info("store: using Redis", "addr", redactURL(cfg.RedisURL))
	return s, nil
}

// tune sets the client options the store relies on, keeping what the URL
// set: short dial and retry budgets so that a Redis that is down is
// reported quickly, context deadlines honoured on the socket, and RESP2.
func tune(o *redis.Options) {
	o.Protocol = 2
	o.DisableIdentity = true
	o.ContextTimeoutEnabled = true
	if o.DialTimeout == 0 {
		o.DialTimeout = time.Second
	}
	if o.DialerRetries == 0 {
		o.DialerRetries = 1
	}
	if o.MaxRetries == 0 {
		o.MaxRetries = 2
	}
	if o.ReadTimeout == 0 {
		o.ReadTimeout = 3 * time.Second
	}
}

// redactURL hides a password in a Redis URL for the log.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unreadable URL)"
	}
	return u.Redacted()
}

// Close closes the connection.
func (s *Redis) Close(ctx context.Context) error {
	if err := s.rdb.Close(); err != nil {
		return fmt.Errorf("close store: %w", err)
	}
	return nil
}

// Stats returns the traffic counts since Open.
func (s *Redis) Stats() Stats {
	return Stats{Commands: s.stats.commands.Load(), RoundTrips: s.stats.roundTrips.Load()}
}

// op returns the context for one store operation, bounded by the store's
// timeout plus extra.
func (s *Redis) op(ctx context.Context, extra time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.timeout+extra)
}

// Keys. See the package comment for the layout.

func gameKey(channel string) string { return "{ch:" + channel + "}:game" }
func damagedKey(channel string, at time.Time) string {
	return fmt.Sprintf("{ch:%s}:damaged:%d", channel, at.UnixMilli())
}
func seqKey(guild string) string           { return "{g:" + guild + "}:seq" }
func archiveKey(guild string) string       { return "{g:" + guild + "}:archive" }
func archiveIndexKey(guild string) string  { return "{g:" + guild + "}:archived" }
func activeKey(guild string) string        { return "{g:" + guild + "}:active" }
func ratingsKey(guild, game string) string { return "{g:" + guild + "}:ratings:" + game }
func boardKey(guild, game string) string   { return "{g:" + guild + "}:board:" + game }
func ratedKey(guild, game string) string   { return "{g:" + guild + "}:rated:" + game }
func lockKey(name string) string           { return "{arbiter}:lock:" + name }
func deadlineMember(channel, id string, v int64) string {
	return fmt.Sprintf("%s/%s/%d", channel, id, v)
}

const (
	deadlinesKey = "{arbiter}:deadlines"
	queueKey     = "{arbiter}:botq"
	queueGroup   = "workers"
)

// newToken returns a random token for write idempotency and locks.
func newToken() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b[:])
}

// counter is a go-redis hook that counts commands and round trips.
type counter struct {
	commands   atomic.Int64
	roundTrips atomic.Int64
}

func (c *counter) DialHook(next redis.DialHook) redis.DialHook { return next }

func (c *counter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		c.commands.Add(1)
		c.roundTrips.Add(1)
		return next(ctx, cmd)
	}
}

func (c *counter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		c.commands.Add(int64(len(cmds)))
		c.roundTrips.Add(1)
		return next(ctx, cmds)
	}
}

// RouteClientLogs sends the Redis client library's own log lines (failed
// dials while Redis is away, and the like) to logger at Warn level instead
// of standard error. The library keeps one logger per process, so main
// calls this once.
func RouteClientLogs(logger *slog.Logger) {
	if logger != nil {
		redis.SetLogger(clientLog{logger})
	}
}

// clientLog adapts slog to go-redis's logger.
type clientLog struct{ log *slog.Logger }

// Printf logs one line of the Redis client.
func (c clientLog) Printf(ctx context.Context, format string, v ...any) {
	c.log.WarnContext(ctx, "redis client: "+fmt.Sprintf(format, v...))
}
