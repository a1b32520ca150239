// Package storetest holds the contract suite every store backend runs,
// as testing/fstest.TestFS does for file systems: a backend's tests call
// Run with a Backend that opens it and reaches under the contract, and
// the suite holds it to package store's promises (the Store interface's
// doc comments). The helpers it exports (games, random moves, replay
// checks) serve the backends' own tests. A change to the contract changes
// the suite with it; a test here asserts only what every backend promises.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
)

// Backend is a store backend under the contract suite.
type Backend struct {
	// Name names the backend in failures.
	Name string
	// Config returns the configuration of a fresh, empty data set for t
	// (a redis-server of its own, a temporary directory); the suite sets
	// Registry and Logger. Every store a test opens uses the same data.
	Config func(t *testing.T) store.Config
	// Open opens a store of the backend.
	Open func(ctx context.Context, cfg store.Config) (store.Store, error)
	// Other opens an empty store of another backend for t, closed when t
	// ends, for the export and import tests; nil leaves them out.
	Other func(t *testing.T, reg *rules.Registry) store.Store
	// Raw reaches under the contract of the stores Open returns.
	Raw Raw
	// Cluster runs only the tests that hold on a Redis Cluster with its
	// index keys read by name (one partition).
	Cluster bool
	// Slow says that each write costs a file sync: the heaviest test
	// does less under -short.
	Slow bool
}

// Raw reaches under the contract of one backend, to break records on
// purpose or look at an index. Each method fails with what went wrong.
type Raw interface {
	// PutRecord writes data as the record of channel's game (with version
	// and status beside it where the backend keeps them apart).
	PutRecord(s store.Store, channel, version, status string, data []byte) error
	// Record returns the record of channel's game as stored.
	Record(s store.Store, channel string) (string, error)
	// PutNotAGame replaces channel's game with something that is not a
	// game record at all.
	PutNotAGame(s store.Store, channel string) error
	// PutMalformedJob queues an entry the store did not write, for
	// channel "{x}" at version "nope".
	PutMalformedJob(s store.Store) error
	// QueueLen counts the entries in the bot-turn queue.
	QueueLen(s store.Store) (int, error)
	// DeadlineChannels lists the channels of the deadline index's
	// entries, in the index's order.
	DeadlineChannels(s store.Store) ([]string, error)
	// BeforeRunningDrop arranges for do to run once inside the next drop
	// of a channel from the index of running games, between reading the
	// game and dropping the entry, and returns a no-op. A backend that
	// does both in one transaction has no such moment: it returns do, for
	// the caller to run after the operation.
	BeforeRunningDrop(s store.Store, do func()) (after func())
	// PutLegacyToken keeps a token as it was kept before tokens were per
	// guild: the owner by hash, and hash as owner.User's one token.
	PutLegacyToken(s store.Store, hash string, owner store.TokenOwner) error
	// AtRest returns every byte the backend keeps of s's data: its files
	// as they are now (after a save, where the backend saves), a backup
	// made now, and every key and value.
	AtRest(s store.Store) ([]byte, error)
}

// tests is the contract suite; cluster marks the tests a Redis Cluster
// runs too.
var tests = []struct {
	name    string
	run     func(t *testing.T, e *env)
	cluster bool
}{
	{"ArchiveKeepsLiveGame", testArchiveKeepsLiveGame, false},
	{"LeaseFromGameLimit", testLeaseFromGameLimit, false},
	{"ExportImport", testExportImport, false},
	{"ImportRefuses", testImportRefuses, false},
	{"QueueReclaim", testQueueReclaim, false},
	{"QueueStaleJob", testQueueStaleJob, false},
	{"QueueMalformedEntry", testQueueMalformedEntry, false},
	{"QueueBlockingClaim", testQueueBlockingClaim, false},
	{"QueueReclaimBehindBusyJobs", testQueueReclaimBehindBusyJobs, false},
	{"QueuedBotTurns", testQueuedBotTurns, true},
	{"OneMoveWinsTheTurn", testOneMoveWinsTheTurn, true},
	{"ManyChannelsReplay", testManyChannelsReplay, true},
	{"HeartbeatOutageSeenOnce", testHeartbeatOutageSeenOnce, false},
	{"StoreTime", testStoreTime, false},
	{"OutboxAndDeadLetters", testOutboxAndDeadLetters, false},
	{"RatingsManyAtOnce", testRatingsManyAtOnce, false},
	{"CreateLoadSave", testCreateLoadSave, true},
	{"InvalidArguments", testInvalidArguments, false},
	{"Conflict", testConflict, true},
	{"Archive", testArchive, true},
	{"InterruptedArchive", testInterruptedArchive, false},
	{"Deadlines", testDeadlines, true},
	{"DamagedRecords", testDamagedRecords, true},
	{"Lock", testLock, false},
	{"Ratings", testRatings, true},
	{"Closed", testClosed, false},
	{"Running", testRunning, true},
	{"ChannelSettings", testChannelSettings, true},
	{"DueSkipsDamaged", testDueSkipsDamaged, false},
	{"FlowIsTheCallersBytes", testFlowIsTheCallersBytes, false},
	{"ProgramTokens", testProgramTokens, false},
	{"LegacyToken", testLegacyToken, false},
	{"RunningAfterFailedCreate", testRunningAfterFailedCreate, false},
	{"RunningRacesCreate", testRunningRacesCreate, false},
	{"Forget", testForget, false},
	{"ForgetFinished", testForgetFinished, false},
	{"ClearRatings", testClearRatings, true},
}

// Run runs the contract suite against b, each test in a subtest of t.
func Run(t *testing.T, b Backend) {
	for _, tc := range slices.Concat(tests, playTests, analysisTests) {
		if b.Cluster && !tc.cluster {
			continue
		}
		if b.Other == nil && (tc.name == "ExportImport" || tc.name == "ImportRefuses") {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			tc.run(t, &env{t: t, name: b.Name, b: &b, cfg: b.Config(t), reg: games.Registry()})
		})
	}
}

// env is one backend under test on one data set.
type env struct {
	t    *testing.T
	name string
	b    *Backend
	cfg  store.Config // the data set's configuration
	reg  *rules.Registry
}

// config returns the store configuration of the data set.
func (e *env) config() store.Config {
	cfg := e.cfg
	cfg.Registry, cfg.Logger = e.reg, QuietLogger()
	return cfg
}

// open opens a store on the data set, closed when the test ends.
func (e *env) open(change ...func(*store.Config)) store.Store {
	e.t.Helper()
	cfg := e.config()
	for _, c := range change {
		c(&cfg)
	}
	s, err := e.b.Open(context.Background(), cfg)
	if err != nil {
		e.t.Fatalf("open store: %v", err)
	}
	e.t.Cleanup(func() { _ = s.Close(context.Background()) })
	return s
}

// QuietLogger returns a logger that drops everything.
func QuietLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// SeedGame returns a game of name with a few moves played, the same every
// time: created and played at a fixed time, each move the middle one of
// the legal moves.
func SeedGame(t testing.TB, reg *rules.Registry, name string) *store.Game {
	t.Helper()
	state, err := reg.New(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := &store.Game{Channel: "1", Guild: "2", ID: "1", Name: name, Options: state.Options(), State: state,
		Status: store.Active, Version: 1, Created: time.Unix(1700000000, 0).UTC(), Updated: time.Unix(1700000000, 0).UTC(),
		Players: [2]store.Player{{Kind: store.Human, UserID: "7", Name: "Ada"}, {Kind: store.Bot, Name: "Arbiter", Level: 2}}}
	var list rules.MoveList
	for range 6 {
		state.Moves(&list)
		if list.N == 0 || state.Status() != rules.Ongoing {
			break
		}
		m := list.Moves[list.N/2]
		g.Moves = append(g.Moves, store.Move{Text: state.FormatMove(m), Seat: state.ToMove(), At: g.Created})
		state.Play(m)
	}
	return g
}

// GameNames are the games the tests spread over.
var GameNames = [...]string{"hique", "upthrust", "hiya", "sixes"}

// NewGame starts an active game of name in channel of guild, a person
// against the bot.
func NewGame(t testing.TB, reg *rules.Registry, name, channel, guild string) *store.Game {
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

// GameOfLength returns a running game of name in channel of guild, as
// NewGame starts it, with plies random moves played by "1001": the first
// of the seeds 1 to 499 whose game lasts that long. ok is false when none
// does.
func GameOfLength(t testing.TB, reg *rules.Registry, name, channel, guild string, plies int) (g *store.Game, ok bool) {
	t.Helper()
	for seed := uint64(1); seed < 500; seed++ {
		g = NewGame(t, reg, name, channel, guild)
		rng := rand.New(rand.NewPCG(seed, 1))
		for len(g.Moves) < plies && g.Status == store.Active && PlayRandom(g, rng, "1001") {
		}
		if len(g.Moves) == plies && g.Status == store.Active {
			return g, true
		}
	}
	return nil, false
}

// PlayRandom plays a random legal move in g as a person or the bot would
// before saving, finishing g if the move ends it. It reports false when
// g has no legal move.
func PlayRandom(g *store.Game, rng *rand.Rand, by string) bool {
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

// LegalLine plays n legal moves from a copy of g's position, each the
// first of its player's list (the first move shifted by skip, to make a
// line that differs from another), and returns their texts; g is not
// changed. It fails the test when a position has no legal move.
func LegalLine(t testing.TB, g *store.Game, n, skip int) []string {
	t.Helper()
	st := g.State.Clone()
	var out []string
	for i := range n {
		var list rules.MoveList
		st.Moves(&list)
		if list.N == 0 {
			t.Fatal("no legal move")
		}
		m := list.Moves[0]
		if i == 0 {
			m = list.Moves[skip%list.N]
		}
		out = append(out, st.FormatMove(m))
		st.Play(m)
	}
	return out
}

// CheckReplays checks that g's move list, replayed from the start, with
// each move by the seat to move, reaches g's stored state.
func CheckReplays(t testing.TB, reg *rules.Registry, g *store.Game) {
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

// CheckEverySaveAMove checks that g's version counts its saves when every
// save after Create played one move: no save was lost or applied twice.
func CheckEverySaveAMove(t testing.TB, g *store.Game) {
	t.Helper()
	if g.Version != int64(len(g.Moves))+1 {
		t.Errorf("game %s in channel %s: version %d after %d moves, want %d: a save was lost or doubled",
			g.ID, g.Channel, g.Version, len(g.Moves), len(g.Moves)+1)
	}
}

// MustErr fails t unless err is (or wraps) want.
func MustErr(t testing.TB, err, want error, what string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("%s: got error %v, want %v", what, err, want)
	}
}

// Context returns a context that ends when t ends or after HangBound.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), HangBound)
	t.Cleanup(cancel)
	return ctx
}

// HangBound bounds a test's waits: far beyond what the slowest machine
// takes, it is reached only by a hang.
const HangBound = 5 * time.Minute

// waitStoreTime waits until s's clock (Store.Time) has passed at; only a
// hang makes it wait HangBound, and fail.
func waitStoreTime(t testing.TB, s store.Store, at time.Time) {
	t.Helper()
	ctx := Context(t)
	for {
		now, err := s.Time(ctx)
		if err != nil {
			t.Fatalf("the store's time: %v", err)
		}
		if now.After(at) {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the store's clock did not pass %v: it says %v", at, now)
		case <-time.After(min(at.Sub(now)+time.Millisecond, 100*time.Millisecond)):
		}
	}
}

// ChName returns the i-th test channel's id.
func ChName(i int) string { return fmt.Sprintf("%d", 900000+i) }

// Fill puts some of everything in a store and returns what it should hold.
func Fill(t *testing.T, s store.Store, reg *rules.Registry) map[string]*store.Game {
	t.Helper()
	ctx := Context(t)
	rng := rand.New(rand.NewPCG(11, 12))
	want := map[string]*store.Game{}
	for i, name := range GameNames {
		g := NewGame(t, reg, name, ChName(i), "3")
		g.Deadline = time.Now().Add(time.Hour).UTC().Truncate(time.Millisecond)
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		for range 4 + i {
			if !PlayRandom(g, rng, "u") || g.Status == store.Finished {
				break
			}
			if err := s.Save(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		want[g.Channel] = g
	}
	// One finished game in the archive.
	g := want[ChName(0)]
	g.Status, g.Result, g.Reason = store.Finished, rules.P1Wins, "White resigned"
	if err := s.Save(ctx, g); err != nil {
		t.Fatal(err)
	}
	delete(want, g.Channel)
	want["archive:"+g.ID] = g
	if _, err := s.UpdateRatings(ctx, "3", "hique", g.ID, []string{"a", "b"}, func(r []store.Rating) ([]store.Rating, error) {
		r[0].Rating, r[0].Wins, r[0].Games = 1600, 1, 1
		r[1].Rating, r[1].Losses, r[1].Games = 1400, 1, 1
		return r, nil
	}); err != nil {
		t.Fatal(err)
	}
	return want
}

// CheckFilled checks that s holds what Fill put in it.
func CheckFilled(t *testing.T, s store.Store, reg *rules.Registry, want map[string]*store.Game) {
	t.Helper()
	ctx := Context(t)
	for key, w := range want {
		var g *store.Game
		var err error
		if id, ok := strings.CutPrefix(key, "archive:"); ok {
			g, err = s.LoadArchived(ctx, "3", id)
		} else {
			g, err = s.Load(ctx, key)
		}
		if err != nil {
			t.Fatalf("%s after the restart: %v", key, err)
		}
		if g.Version != w.Version || g.ID != w.ID || len(g.Moves) != len(w.Moves) || !g.Deadline.Equal(w.Deadline) ||
			g.Status != w.Status || string(rules.Encode(g.State)) != string(rules.Encode(w.State)) {
			t.Fatalf("%s after the restart: %+v, want %+v", key, g, w)
		}
		CheckReplays(t, reg, g)
	}
	r, err := s.Ratings(ctx, "3", "hique", "a", "b")
	if err != nil || r[0].Rating != 1600 || r[1].Losses != 1 {
		t.Fatalf("ratings after the restart: %+v %v", r, err)
	}
	board, err := s.Leaderboard(ctx, "3", "hique", 0, 5)
	if err != nil || len(board) != 2 || board[0].Player != "a" {
		t.Fatalf("leaderboard after the restart: %+v %v", board, err)
	}
}

// The helpers below reach under the contract through the backend's Raw.

func (e *env) putRecord(s store.Store, channel, version, status string, data []byte) {
	e.t.Helper()
	if err := e.b.Raw.PutRecord(s, channel, version, status, data); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) record(s store.Store, channel string) string {
	e.t.Helper()
	rec, err := e.b.Raw.Record(s, channel)
	if err != nil {
		e.t.Fatal(err)
	}
	return rec
}

func (e *env) putNotAGame(s store.Store, channel string) {
	e.t.Helper()
	if err := e.b.Raw.PutNotAGame(s, channel); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) putMalformedJob(s store.Store) {
	e.t.Helper()
	if err := e.b.Raw.PutMalformedJob(s); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) queueLen(s store.Store) int {
	e.t.Helper()
	n, err := e.b.Raw.QueueLen(s)
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}

func (e *env) deadlineChannels(s store.Store) []string {
	e.t.Helper()
	out, err := e.b.Raw.DeadlineChannels(s)
	if err != nil {
		e.t.Fatal(err)
	}
	return out
}
