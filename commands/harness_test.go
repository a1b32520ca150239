package commands_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/commands"
	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/open"
	"arbiter/store/redistest"
)

// clock is a settable time for the service and the store.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// posts records what the service posts through its Notifier.
type posts struct {
	mu     sync.Mutex
	msgs   []posted
	direct []commands.DirectNote
}

type posted struct {
	channel string
	msg     commands.Message
}

func (p *posts) Post(_ context.Context, channel string, msg commands.Message) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.msgs = append(p.msgs, posted{channel, msg})
	return nil
}

// Direct records a direct message, as a platform's DirectMessenger.
func (p *posts) Direct(_ context.Context, note commands.DirectNote) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.direct = append(p.direct, note)
	return nil
}

// directs returns the direct messages sent to userID.
func (p *posts) directs(userID string) []commands.DirectNote {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []commands.DirectNote
	for _, n := range p.direct {
		if n.UserID == userID {
			out = append(out, n)
		}
	}
	return out
}

// all returns the texts posted to channel.
func (p *posts) all(channel string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, m := range p.msgs {
		if m.channel == channel {
			out = append(out, m.msg.Text)
		}
	}
	return out
}

// env is a service over a real redis-server, with its clock and posts.
type env struct {
	t     testing.TB
	srv   *redistest.Server
	svc   *commands.Service
	st    store.Store
	clock *clock
	posts *posts
	reg   *rules.Registry
}

// newEnv starts a redis-server and a service over it. With workers, bot
// turns are played (at a short move time).
func newEnv(t testing.TB, workers bool, opts ...redistest.Options) *env {
	t.Helper()
	return newEnvWith(t, workers, nil, opts...)
}

// newEnvWith is newEnv with tweak changing the service's configuration.
func newEnvWith(t testing.TB, workers bool, tweak func(*commands.Config), opts ...redistest.Options) *env {
	t.Helper()
	o := redistest.Options{TCP: true}
	if len(opts) > 0 {
		o = opts[0]
	}
	srv := redistest.Start(t, o)
	ctx, cancel := context.WithCancel(context.Background())
	reg := games.Registry()
	clk := &clock{now: time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)}
	log := failureLog(t)
	st, err := open.Store(ctx, store.Config{RedisURL: srv.URL(), Registry: reg, Logger: log, Now: clk.Now, ClaimTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	p := &posts{}
	cfg := commands.Config{RefereeRole: "referee", BotMoveTime: 60 * time.Millisecond, Workers: 2, TableMB: 4}
	if tweak != nil {
		tweak(&cfg)
	}
	svc := commands.New(cfg, st, reg, p, log, clk.Now)
	var wg sync.WaitGroup
	if workers {
		wg.Go(func() { svc.RunWorkers(ctx) })
	}
	t.Cleanup(func() {
		cancel()
		wg.Wait()
		_ = st.Close(context.Background())
	})
	return &env{t: t, srv: srv, svc: svc, st: st, clock: clk, posts: p, reg: reg}
}

// The people of the tests.
var (
	ann = commands.User{ID: "100", Name: "ann"}
	bob = commands.User{ID: "200", Name: "bob"}
	cat = commands.User{ID: "300", Name: "cat"}
)

// do runs a command line as user in channel (of guild1) and returns the
// reply.
func (e *env) do(user commands.User, channel, line string) commands.Reply {
	e.t.Helper()
	return e.doIn("guild1", user, channel, line)
}

// doIn runs a command line as user in channel of guild and returns the
// reply.
func (e *env) doIn(guild string, user commands.User, channel, line string) commands.Reply {
	e.t.Helper()
	inv, err := commands.ParseLine(line, commands.CommandSet(e.reg.Names()))
	if err != nil {
		e.t.Fatalf("%s: %v", line, err)
	}
	inv.Guild, inv.Channel, inv.User = guild, channel, user
	inv.Users = map[string]commands.User{}
	for _, u := range []commands.User{ann, bob, cat} {
		for _, key := range []string{"opponent", "p1", "p2", "user"} {
			if inv.Options[key] == "@"+u.Name {
				inv.Options[key] = u.ID
				inv.Users[key] = u
			}
		}
	}
	if user == cat {
		inv.Roles = []string{"referee"}
	}
	return e.svc.Handle(context.Background(), inv)
}

// ok runs a command that must succeed publicly.
func (e *env) ok(user commands.User, channel, line string) commands.Reply {
	e.t.Helper()
	r := e.do(user, channel, line)
	if r.Private {
		e.t.Fatalf("%s %s: refused: %s", user.Name, line, r.Text)
	}
	return r
}

// refused runs a command that must be refused privately with a message
// containing want.
func (e *env) refused(user commands.User, channel, line, want string) {
	e.t.Helper()
	r := e.do(user, channel, line)
	if !r.Private || !strings.Contains(r.Text, want) {
		e.t.Errorf("%s %s: got (private=%v) %q, want a refusal containing %q", user.Name, line, r.Private, r.Text, want)
	}
}

// game loads the game in channel.
func (e *env) game(channel string) *store.Game {
	e.t.Helper()
	g, err := e.st.Load(context.Background(), channel)
	if err != nil {
		e.t.Fatalf("load %s: %v", channel, err)
	}
	return g
}

// randomMove returns a random legal move's text in the game in channel.
func (e *env) randomMove(channel string, rng *rand.Rand) string {
	g := e.game(channel)
	var list rules.MoveList
	g.State.Moves(&list)
	if list.N == 0 {
		e.t.Fatalf("no legal move in %s", channel)
	}
	return g.State.FormatMove(list.Moves[rng.IntN(list.N)])
}

// waitFor polls cond until it holds, failing after a generous bound.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(2 * time.Minute); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// humanToMove reports whether a person is to move in channel's game, or
// the game is over.

// going returns the game in channel while it goes on, or nil once it is
// over: archived, or saved finished and about to be archived.
func (e *env) going(channel string) *store.Game {
	g, err := e.st.Load(context.Background(), channel)
	if err != nil || g.Status != store.Active {
		return nil
	}
	return g
}
func (e *env) humanToMove(channel string) bool {
	g, err := e.st.Load(context.Background(), channel)
	if err != nil || g.Status != store.Active {
		return true // finished (and archived, or about to be)
	}
	return g.Players[g.State.ToMove()].Kind == store.Human
}

// archived returns the archived game last played in channel.
func (e *env) archived(channel string) *store.Game {
	e.t.Helper()
	list, _, err := e.st.Archived(context.Background(), "guild1", 0, store.MaxList)
	if err != nil {
		e.t.Fatal(err)
	}
	for _, sum := range list {
		if sum.Channel == channel {
			g, err := e.st.LoadArchived(context.Background(), "guild1", sum.ID)
			if err != nil {
				e.t.Fatal(err)
			}
			return g
		}
	}
	e.t.Fatalf("no archived game of channel %s", channel)
	return nil
}

// failureLog is a logger whose warnings and errors the test prints if it
// fails (the last hundred lines), and drops otherwise.
func failureLog(t testing.TB) *slog.Logger {
	var mu sync.Mutex
	var buf bytes.Buffer
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
		t.Logf("the service's warnings and errors:\n%s", strings.Join(lines[max(0, len(lines)-100):], "\n"))
	})
	return slog.New(slog.NewTextHandler(lockedWriter{&mu, &buf}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// lockedWriter writes to w under mu.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
