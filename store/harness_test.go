package store_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"testing"
	"time"

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
	cfg := store.Config{Registry: e.reg, Logger: quietLogger(), DataDir: e.dir, SaveEvery: 100 * time.Millisecond}
	if e.srv != nil {
		cfg.RedisURL = e.srv.URL()
	}
	if e.cluster != nil {
		cfg.RedisURL, cfg.Cluster, cfg.Partitions = e.cluster.URL(), true, 1
	}
	return cfg
}

// open opens a store on the backend, closed when the test ends.
func (e *env) open(change ...func(*store.Config)) *store.Redis {
	e.t.Helper()
	cfg := e.config()
	for _, c := range change {
		c(&cfg)
	}
	s, err := store.OpenRedis(context.Background(), cfg)
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
