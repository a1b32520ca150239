// Package redisstore is the store.Store backend on Redis, one server or a
// Redis Cluster, for many processes at once. A change must keep its
// invariants: no command or script names keys of two hash slots; a Save
// is one compare-and-set that applies at most once (a retried write
// reports the success it had); the deadline index and the running-games
// set are hints that Due and Running put right, never the truth; and the
// key layout below stays readable by the previous build (or the change is
// a migration, see store's MIGRATIONS.md).
//
// # Keys
//
// Every key of one channel carries the hash tag {ch:<channel>} and every
// key of one guild the tag {g:<guild>}, so on a Redis Cluster each lives on
// one slot; no command of the store names keys of two slots:
//
//	{ch:C}:game               hash: id, version, status, token, record (JSON, schema 2, without its moves)
//	{ch:C}:moves              list: the game's moves, one JSON move an element
//	{ch:C}:damaged:<ms>       a damaged record moved aside by Quarantine
//	{ch:C}:settings           hash: the channel's settings (ChannelSetting)
//	{g:G}:seq                 the guild's archive id counter
//	{g:G}:archive             hash: archive id -> record of a finished game
//	{g:G}:archived            sorted set: archive id by finish time (ms)
//	{g:G}:active              set: the guild's channels with a game (a hint Running tidies)
//	{g:G}:ratings:<game>      hash: player -> rating record (JSON)
//	{g:G}:board:<game>        sorted set: player by rating
//	{g:G}:rated:<game>        set: archive ids whose result is in the ratings
//	{g:G}:ratings-lock:<game> a rating update's lock token, with an expiry
//	{arbiter}:deadlines       sorted set: "<channel>/<id>/<version>" by wake time (ms), partition 0
//	{arbiter}:botq            stream of bot turns, consumer group "workers", partition 0
//	{arbiter-P}:deadlines     the same for partition P (1 <= P < Config.Partitions)
//	{arbiter-P}:botq          the same for partition P
//	{arbiter(-P)}:intents     on a cluster: saves in flight, "<channel>/<token>" by start time (ms)
//	{arbiter}:lock:<name>     a lock's holder token, with an expiry
//	{arbiter}:heartbeat       Unix ms (Redis's clock) of the last beat of a command-taking process
//	{arbiter}:outages         sorted set: "<from ms>-<to ms>" by its end
//	{arbiter}:outbox          hash: key -> outbox entry (JSON)
//	{arbiter}:outbox:due      sorted set: outbox key by when a sweep may take it (ms)
//	{arbiter}:attempts        hash: job key -> attempts started and not finished
//	{arbiter}:dead            list: dead letters (JSON), newest first
//	{tok:H}:owner             a program token's owner (JSON), by the token's SHA-256 hash
//	{tokuser:U}:hash          the hash of a person's current token
//	{tokuser:U}:issued        when a person was last given a token
//	{play:H}:link             a play page one-time link (store.PlayGrant, JSON), expiring, by its secret's hash
//	{play:H}:session          a play page session (store.PlayGrant, JSON), expiring, by its secret's hash
//	{analyses}:...            the analysis line and the analyses kept, in one slot (analyses.go)
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
// Lua rather than WATCH/MULTI: on one Redis a move costs at most 2 round
// trips (Load's script, which the game flow's cache of saved games
// skips; then Save's script, which also moves the game's deadline entry)
// where WATCH needs 3 (WATCH, read, MULTI/EXEC); it lets
// the load and the save be separate calls (a bot worker thinks for
// seconds in between without holding a connection); and it can refuse a
// late write and recognise a retried one. BenchmarkCAS measures both.
//
// # Moves
//
// A running game's moves are a list beside its record: a Save appends the
// moves the game gained since it was loaded (and trims what an undo took
// back) and rewrites the record, which holds no moves, in the same script
// as the compare-and-set. Load reads both with one script. A move's cost
// in the store hardly depends on the game's length.
//
// # Deadlines
//
// The deadline index is a hint. The entry of the version a save writes is
// added only when the save applies, and the entry of the version it
// replaces removed. On one Redis that happens inside the save's script,
// atomically. On a cluster the index partition is on another slot, so a
// save that changes a deadline takes up to 2 more round trips: first it
// notes its intent ("<channel>/<token>") in the partition's intents set,
// then runs the compare-and-set, then writes the entry and clears the
// intent in one pipeline. Should the process die (or lose the answer)
// before the last step, the intent stays, and Due, past the time a save
// could still apply, writes the entry from the game itself
// (repairIntents): a deadline is late by at most that, never lost. Due
// reads the records themselves and cleans what it finds stale.
//
// # Partitions and Redis Cluster
//
// The bot-turn queue and the deadline index are Config.Partitions streams
// and sorted sets, by hash tag, a channel's by a hash of its name; workers
// and the clock serve every partition, and a partition whose node does not
// answer delays only its own games. With Config.Cluster the client is
// go-redis's cluster client; no command or script names keys of two
// slots (TestClusterOneSlotPerCommand checks each against the cluster).
// Config.WaitReplicas makes each save wait for replicas (WAIT), so that a
// failover loses no acknowledged move; see docs/explanation/performance.md.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"log/slog"
	"net/url"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"arbiter/rules"
	"arbiter/store"
)

// Redis is the store on Redis. It meets the Store contract and is safe for concurrent use.
type Redis struct {
	rdb          redis.UniversalClient
	reg          *rules.Registry
	log          *slog.Logger
	timeout      time.Duration
	claimTimeout time.Duration
	now          func() time.Time
	stats        *counter
	cluster      bool // rdb is a cluster client: no command may span two slots
	parts        int  // the partitions of the queue and the deadline index
	waitReplicas int  // replicas a save waits for
	next         atomic.Uint32
	// offset is Redis's clock less this host's (wall), in nanoseconds,
	// as last measured (at Open and at every Time): saves are timed by
	// Redis's clock, so a host whose clock is off is not refused.
	offset atomic.Int64
	wall   func() time.Time // this host's clock: time.Now (tests skew it)
}

// Open connects to the Redis of cfg.RedisURL and makes sure the
// bot-turn queue exists. A Redis that does not answer is an error wrapping
// ErrUnavailable.
func Open(ctx context.Context, cfg store.Config) (*Redis, error) {
	if cfg.Registry == nil {
		return nil, fmt.Errorf("open store: %w: no game registry given", store.ErrInvalid)
	}
	s := &Redis{
		reg:          cfg.Registry,
		log:          cfg.Logger,
		timeout:      cfg.Timeout,
		claimTimeout: cfg.ClaimTimeout,
		now:          cfg.Now,
		stats:        &counter{},
		wall:         time.Now,
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
	s.waitReplicas = cfg.WaitReplicas
	s.parts = cfg.Partitions
	if s.parts <= 0 {
		s.parts = 1
		if cfg.Cluster {
			s.parts = 16
		}
	}
	if cfg.Cluster {
		if err := s.openCluster(cfg); err != nil {
			return nil, err
		}
		if err := s.ensureQueue(ctx); err != nil {
			_ = s.Close(ctx)
			return nil, fmt.Errorf("open store: %w", err)
		}
		if err := s.checkLayout(ctx); err != nil {
			_ = s.Close(ctx)
			return nil, fmt.Errorf("open store: %w", err)
		}
		_, _ = s.Time(ctx)
		s.log.Info("store: using Redis Cluster", "addr", redactURL(cfg.RedisURL), "partitions", s.parts)
		return s, nil
	}

	opts, err := redis.ParseURL(cfg.RedisURL)
	if err != nil {
		return nil, fmt.Errorf("open store: %w: REDIS_URL does not read: %s", store.ErrInvalid, urlError(cfg.RedisURL, err))
	}
	tune(opts)
	client := redis.NewClient(opts)
	client.AddHook(s.stats)
	s.rdb = client

	if err := s.ensureQueue(ctx); err != nil {
		_ = s.Close(ctx)
		return nil, fmt.Errorf("open store: %w", err)
	}
	if err := s.checkLayout(ctx); err != nil {
		_ = s.Close(ctx)
		return nil, fmt.Errorf("open store: %w", err)
	}
	_, _ = s.Time(ctx)
	s.log.Info("store: using Redis", "addr", redactURL(cfg.RedisURL))
	return s, nil
}

// The budgets the store gives a client, one Redis's or a cluster's, where
// the URL does not set them: short enough that a Redis that is down is
// reported within an operation's timeout (one dial, not go-redis's five
// 100 ms apart).
const (
	dialTimeout   = time.Second
	dialerRetries = 1
	maxRetries    = 2
	readTimeout   = 3 * time.Second
)

// orDefault sets *field to value when it is the zero value.
func orDefault[T comparable](field *T, value T) {
	var zero T
	if *field == zero {
		*field = value
	}
}

// tune sets the client options the store relies on, keeping what the URL
// set: the budgets above, context deadlines honoured on the socket, RESP2,
// and connections that read and write directly (see directConn).
func tune(o *redis.Options) {
	o.Protocol = 2
	o.DisableIdentity = true
	o.ContextTimeoutEnabled = true
	orDefault(&o.DialTimeout, dialTimeout)
	orDefault(&o.DialerRetries, dialerRetries)
	orDefault(&o.MaxRetries, maxRetries)
	orDefault(&o.ReadTimeout, readTimeout)
	o.Dialer = directDialer(redis.NewDialer(o))
}

// openCluster makes the store's client a Redis Cluster client for the
// cluster cfg.RedisURL names, with the options tune sets.
func (s *Redis) openCluster(cfg store.Config) error {
	o, err := redis.ParseClusterURL(cfg.RedisURL)
	if err != nil {
		return fmt.Errorf("open store: %w: REDIS_URL does not read as a cluster's (redis://host:port?addr=host2:port2): %s", store.ErrInvalid, urlError(cfg.RedisURL, err))
	}
	o.Protocol = 2
	o.DisableIdentity = true
	o.ContextTimeoutEnabled = true
	orDefault(&o.DialTimeout, dialTimeout)
	orDefault(&o.DialerRetries, dialerRetries)
	orDefault(&o.MaxRetries, maxRetries)
	orDefault(&o.ReadTimeout, readTimeout)
	// The dialer each node's client would make, for the options it copies.
	o.Dialer = directDialer(redis.NewDialer(&redis.Options{DialTimeout: o.DialTimeout, TLSConfig: o.TLSConfig}))
	client := redis.NewClusterClient(o)
	client.AddHook(s.stats)
	client.AddHook(reloadOnFault{client})
	s.rdb = client
	s.cluster = true
	return nil
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
func (s *Redis) Stats() store.Stats {
	return store.Stats{Commands: s.stats.commands.Load(), RoundTrips: s.stats.roundTrips.Load()}
}

// GameMemory returns the bytes Redis uses for the game in channel: its
// hash and its move list (MEMORY USAGE, sampled as Redis does).
func (s *Redis) GameMemory(ctx context.Context, channel string) (int64, error) {
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	var total int64
	for _, key := range []string{gameKey(channel), movesKey(channel)} {
		n, err := s.rdb.MemoryUsage(ctx, key).Result()
		if err != nil && !errors.Is(err, redis.Nil) {
			return 0, fail(caller, "measure the game in channel "+channel, err)
		}
		total += n
	}
	return total, nil
}

// op returns the context for one store operation, bounded by the store's
// timeout plus extra.
func (s *Redis) op(ctx context.Context, extra time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.timeout+extra)
}

// Keys. See the package comment for the layout.

func gameKey(channel string) string  { return "{ch:" + channel + "}:game" }
func movesKey(channel string) string { return "{ch:" + channel + "}:moves" }
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
	return channel + "/" + id + "/" + strconv.FormatInt(v, 10)
}

const (
	deadlinesKey = "{arbiter}:deadlines" // partition 0
	queueKey     = "{arbiter}:botq"      // partition 0
	queueGroup   = "workers"
)

// part returns the partition of channel's deadline entries and bot turns.
func (s *Redis) part(channel string) int {
	if s.parts == 1 {
		return 0
	}
	return int(crc32.ChecksumIEEE([]byte(channel)) % uint32(s.parts))
}

// partTag returns the hash tag of partition p's keys: "{arbiter}" for 0,
// "{arbiter-p}" for the others, each its own slot.
func partTag(p int) string {
	if p == 0 {
		return "{arbiter}"
	}
	return "{arbiter-" + strconv.Itoa(p) + "}"
}

// deadlinesPart and queuePart are partition p's deadline index and
// bot-turn stream.
func deadlinesPart(p int) string { return partTag(p) + ":deadlines" }
func queuePart(p int) string     { return partTag(p) + ":botq" }

// intentsPart is partition p's saves in flight on a cluster (see
// Redis.run): each a member "<channel>/<token>" scored by when it began.
func intentsPart(p int) string { return partTag(p) + ":intents" }

// deadlineKey is the deadline index partition of channel.
func (s *Redis) deadlineKey(channel string) string { return deadlinesPart(s.part(channel)) }

// intentKey is the partition of channel's saves in flight.
func (s *Redis) intentKey(channel string) string { return intentsPart(s.part(channel)) }

// redisNow is the time by Redis's clock: this host's corrected by the
// offset last measured.
func (s *Redis) redisNow() time.Time { return s.wall().Add(time.Duration(s.offset.Load())) }

// rotation returns the partitions in the order one call should serve
// them: starting at a different one each call, so that no partition waits
// behind the others.
func (s *Redis) rotation() []int {
	first := int(s.next.Add(1)) % s.parts
	order := make([]int, s.parts)
	for i := range order {
		order[i] = (first + i) % s.parts
	}
	return order
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

// reloadOnFault is a go-redis hook that has a cluster client read the
// cluster's layout again when a node does not answer: after a failover
// the dead master's slots are served by its promoted replica, and the
// client learns it here instead of dialling the dead node until a MOVED
// reply happens to teach it.
type reloadOnFault struct{ c *redis.ClusterClient }

func (h reloadOnFault) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h reloadOnFault) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		if unavailable(err) {
			h.c.ReloadState(ctx)
		}
		return err
	}
}

func (h reloadOnFault) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		err := next(ctx, cmds)
		if unavailable(err) || slices.ContainsFunc(cmds, func(c redis.Cmder) bool { return unavailable(c.Err()) }) {
			h.c.ReloadState(ctx)
		}
		return err
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
