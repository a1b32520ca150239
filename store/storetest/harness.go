package storetest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/redistest"
)

// env is one backend under test: a real redis-server or the embedded
// backend on a data directory.
type env struct {
	t    *testing.T
	name string
	srv  *redistest.Server // nil for the embedded backend
	// cluster is the shared Redis Cluster (flushed for each test), nil
	// for the other backends.
	cluster *redistest.Cluster
	dir     string // the embedded backend's data directory
	reg     *rules.Registry
}

// forEachBackend runs test against a real redis-server (skipped only when
// it is not installed) and against the embedded backend.
func forEachBackend(t *testing.T, test func(t *testing.T, e *env)) {
	t.Helper()
	t.Run("redis", func(t *testing.T) {
		test(t, &env{t: t, name: "redis", srv: redistest.Start(t, redistest.Options{}), reg: games.Registry()})
	})
	t.Run("embedded", func(t *testing.T) {
		test(t, &env{t: t, name: "embedded", dir: t.TempDir(), reg: games.Registry()})
	})
}

// config returns the store configuration of the backend.
func (e *env) config() store.Config {
	cfg := store.Config{Registry: e.reg, Logger: quietLogger(), DataDir: e.dir}
	if e.srv != nil {
		cfg.RedisURL = e.srv.URL()
	}
	if e.cluster != nil {
		cfg.RedisURL, cfg.Cluster, cfg.Partitions = e.cluster.URL(), true, 1
	}
	return cfg
}

// open opens a store on the backend, closed when the test ends.
func (e *env) open(change ...func(*store.Config)) store.Store {
	e.t.Helper()
	cfg := e.config()
	for _, c := range change {
		c(&cfg)
	}
	s, err := store.Open(context.Background(), cfg)
	if err != nil {
		e.t.Fatalf("open store: %v", err)
	}
	e.t.Cleanup(func() { _ = s.Close(context.Background()) })
	return s
}

func quietLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// gameNames are the games the tests spread over.
var gameNames = [...]string{"hique", "upthrust", "hiya", "sixes"}

// newGame starts an active game of name in channel of guild, a person
// against the bot.
func newGame(t testing.TB, reg *rules.Registry, name, channel, guild string) *store.Game {
	t.Helper()
	state, err := reg.New(name, nil)
	if err != nil {
		t.Fatalf("new %s: %v", name, err)
	}
	return &store.Game{
		Channel: channel,
		Guild:   guild,
		Name:    name,
		Options: state.Options(),
		Players: [2]store.Player{
			{Kind: store.Human, UserID: "1001", Name: "Ada"},
			{Kind: store.Bot, Name: "Arbiter", Level: 3},
		},
		State:  state,
		Status: store.Active,
	}
}

// playRandom plays a random legal move in g as a person or the bot would
// before saving, finishing g if the move ends it. It reports false when
// g has no legal move.
func playRandom(g *store.Game, rng *rand.Rand, by string) bool {
	var list rules.MoveList
	g.State.Moves(&list)
	if list.N == 0 {
		return false
	}
	m := list.Moves[rng.IntN(list.N)]
	seat := g.State.ToMove()
	g.Moves = append(g.Moves, store.Move{Text: g.State.FormatMove(m), Seat: seat, By: by, At: time.Now().UTC()})
	g.State.Play(m)
	if g.State.Status() != rules.Ongoing {
		out := g.State.Outcome()
		g.Status = store.Finished
		g.Result = out.Result
		g.Reason = out.Reason
	}
	return true
}

// checkReplays checks that g's move list, replayed from the start, with
// each move by the seat to move, reaches g's stored state.
func checkReplays(t testing.TB, reg *rules.Registry, g *store.Game) {
	t.Helper()
	replayed, err := reg.New(g.Name, g.Options)
	if err != nil {
		t.Errorf("game %s in channel %s: %v", g.ID, g.Channel, err)
		return
	}
	for i, m := range g.Moves {
		if replayed.ToMove() != m.Seat {
			t.Errorf("game %s in channel %s: move %d (%s) is listed for seat %d but seat %d is to move",
				g.ID, g.Channel, i+1, m.Text, m.Seat, replayed.ToMove())
			return
		}
		mv, err := replayed.ParseMove(m.Text)
		if err != nil {
			t.Errorf("game %s in channel %s: move %d (%s) does not replay: %v", g.ID, g.Channel, i+1, m.Text, err)
			return
		}
		replayed.Play(mv)
	}
	if got, want := string(rules.Encode(replayed)), string(rules.Encode(g.State)); got != want {
		t.Errorf("game %s in channel %s: the move list replays to another state than the stored one", g.ID, g.Channel)
	}
}

// checkEverySaveAMove checks that g's version counts its saves when every
// save after Create played one move: no save was lost or applied twice.
func checkEverySaveAMove(t testing.TB, g *store.Game) {
	t.Helper()
	if g.Version != int64(len(g.Moves))+1 {
		t.Errorf("game %s in channel %s: version %d after %d moves, want %d: a save was lost or doubled",
			g.ID, g.Channel, g.Version, len(g.Moves), len(g.Moves)+1)
	}
}

// mustErr fails t unless err is (or wraps) want.
func mustErr(t testing.TB, err, want error, what string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("%s: got error %v, want %v", what, err, want)
	}
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func chName(i int) string { return fmt.Sprintf("%d", 900000+i) }

// The helpers below reach under the contract, to break records on purpose
// or look at an index: by Redis commands on Redis, by the database's
// buckets on the embedded store.

// putRecord writes data as the record of channel's game, with the hash
// fields of version and status on Redis.
func (e *env) putRecord(s store.Store, channel, version, status string, data []byte) {
	e.t.Helper()
	var err error
	switch s := s.(type) {
	case *store.Redis:
		err = s.Raw().HSet(context.Background(), store.GameKey(channel), "version", version, "status", status, "record", data).Err()
	case *store.Bolt:
		err = s.RawPut([]string{"games"}, channel, data)
	}
	if err != nil {
		e.t.Fatal(err)
	}
}

// record returns the record of channel's game as stored.
func (e *env) record(s store.Store, channel string) string {
	e.t.Helper()
	var (
		rec string
		err error
	)
	switch s := s.(type) {
	case *store.Redis:
		rec, err = s.Raw().HGet(context.Background(), store.GameKey(channel), "record").Result()
	case *store.Bolt:
		var b []byte
		b, err = s.RawGet([]string{"games"}, channel)
		rec = string(b)
	}
	if err != nil {
		e.t.Fatal(err)
	}
	return rec
}

// putNotAGame replaces channel's game with something that is not a game
// record at all: a string key on Redis, bytes that are not JSON on the
// embedded store.
func (e *env) putNotAGame(s store.Store, channel string) {
	e.t.Helper()
	var err error
	switch s := s.(type) {
	case *store.Redis:
		ctx := context.Background()
		if err = s.Raw().Del(ctx, store.GameKey(channel)).Err(); err == nil {
			err = s.Raw().Set(ctx, store.GameKey(channel), "oops", 0).Err()
		}
	case *store.Bolt:
		err = s.RawPut([]string{"games"}, channel, []byte{0xff, 0, 'o', 'o', 'p', 's'})
	}
	if err != nil {
		e.t.Fatal(err)
	}
}

// putMalformedJob queues an entry the store did not write.
func (e *env) putMalformedJob(s store.Store) {
	e.t.Helper()
	var err error
	switch s := s.(type) {
	case *store.Redis:
		err = s.Raw().XAdd(context.Background(), &redis.XAddArgs{Stream: store.QueueKey, Values: []any{"channel", "{x}", "version", "nope"}}).Err()
	case *store.Bolt:
		err = s.RawPut([]string{"queue"}, "\x00\x00\x00\x00\x00\x00\x00\x00", []byte(`{"channel":"{x}","version":"nope"}`))
	}
	if err != nil {
		e.t.Fatal(err)
	}
}

// queueLen counts the entries in the bot-turn queue.
func (e *env) queueLen(s store.Store) int {
	e.t.Helper()
	var (
		n   int64
		err error
	)
	switch s := s.(type) {
	case *store.Redis:
		n, err = s.Raw().XLen(context.Background(), store.QueueKey).Result()
	case *store.Bolt:
		var k int
		k, err = s.RawCount([]string{"queue"})
		n = int64(k)
	}
	if err != nil {
		e.t.Fatal(err)
	}
	return int(n)
}

// deadlineChannels lists the channels of the deadline index's entries, in
// the index's order.
func (e *env) deadlineChannels(s store.Store) []string {
	e.t.Helper()
	var (
		out []string
		err error
	)
	switch s := s.(type) {
	case *store.Redis:
		var members []string
		members, err = s.Raw().ZRange(context.Background(), store.DeadlinesKey, 0, -1).Result()
		for _, m := range members {
			ch, _, _ := strings.Cut(m, "/")
			out = append(out, ch)
		}
	case *store.Bolt:
		var keys []string
		keys, err = s.RawKeys([]string{"deadlines"})
		for _, k := range keys {
			out = append(out, k[8:])
		}
	}
	if err != nil {
		e.t.Fatal(err)
	}
	return out
}

// openRedis opens the Redis backend (a redis-server or the cluster) as
// itself, for tests that reach under the contract.
func (e *env) openRedis(change ...func(*store.Config)) *store.Redis {
	e.t.Helper()
	s, ok := e.open(change...).(*store.Redis)
	if !ok {
		e.t.Fatalf("backend %s is not Redis", e.name)
	}
	return s
}
