package bot_test

import (
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/bot"
	"arbiter/bot/discordtest"
	"arbiter/commands"
	"arbiter/engine"
	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/open"
	"arbiter/store/redistest"
	"arbiter/term"
)

const token = "bot-test-token"

// world is a fake Discord and the storage that Arbiter processes share.
type world struct {
	t       testing.TB
	srv     *discordtest.Server
	reg     *rules.Registry
	redis   *redistest.Server // nil: the embedded store in dataDir
	dataDir string
	log     *slog.Logger
	general string // the start guild's general channel
}

// newWorld starts a fake Discord, and a redis-server when withRedis.
func newWorld(t testing.TB, withRedis bool) *world {
	t.Helper()
	return newWorldWith(t, withRedis, discordtest.Options{Token: token})
}

// newWorldWith is newWorld with a fake Discord configured by opts.
func newWorldWith(t testing.TB, withRedis bool, opts discordtest.Options) *world {
	t.Helper()
	opts.OpenAPI = true
	srv := discordtest.Start(t, opts)
	w := &world{t: t, srv: srv, reg: games.Registry(), log: testLogger(t), general: srv.Guild().DefaultChannelID}
	if withRedis {
		w.redis = redistest.Start(t, redistest.Options{})
	} else {
		w.dataDir = t.TempDir()
	}
	return w
}

// testLogger logs warnings and errors into the test's output when
// BOT_TEST_LOG is set, else discards them.
func testLogger(t testing.TB) *slog.Logger {
	if os.Getenv("BOT_TEST_LOG") == "" {
		return slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// procOptions describe one Arbiter process.
type procOptions struct {
	gateway      bool             // answer interactions over the gateway
	workers      int              // bot-turn workers; 0 runs none
	moveTime     time.Duration    // the bot's time a move; default 50ms
	workerName   string           // default "test"
	claimTimeout time.Duration    // default 30s
	storeTimeout time.Duration    // default the store's 2s
	deferAfter   time.Duration    // default the bot's 1.5s
	global       bool             // register the commands globally, not in the guild
	shard        [2]int           // gateway shard id and count; zero count is one shard
	stuckAfter   time.Duration    // the bot's GatewayStuckAfter; default its own
	analysis     engine.Limits    // an /analyse position's search; default the service's
	now          func() time.Time // the game flow's clock; nil for the store's
}

// proc is one Arbiter process: its store, game flow, bot and loops.
type proc struct {
	w        *world
	st       store.Store
	svc      *commands.Service
	b        *bot.Bot
	notifier *bot.Notifier
	cancel   context.CancelFunc
	runErr   chan error
	loops    sync.WaitGroup
	once     sync.Once
	gateway  bool
}

// start starts a process and stops it when the test ends.
func (w *world) start(o procOptions) *proc {
	w.t.Helper()
	if o.moveTime == 0 {
		o.moveTime = 50 * time.Millisecond
	}
	if o.workerName == "" {
		o.workerName = "test"
	}
	if o.claimTimeout == 0 {
		o.claimTimeout = 30 * time.Second
	}
	ctx, cancel := context.WithCancel(context.Background())
	cfg := store.Config{DataDir: w.dataDir, Logger: w.log, Registry: w.reg, ClaimTimeout: o.claimTimeout, Timeout: o.storeTimeout}
	if w.redis != nil {
		cfg.RedisURL = w.redis.URL()
	}
	st, err := open.Store(ctx, cfg)
	if err != nil {
		cancel()
		w.t.Fatalf("open store: %v", err)
	}
	bcfg := bot.Config{
		Token:             token,
		AppID:             w.srv.AppID(),
		DevGuildID:        w.srv.Guild().ID,
		PublicKey:         w.srv.PublicKey(),
		DeferAfter:        o.deferAfter,
		HTTPClient:        w.srv.HTTPClient(),
		Dialer:            w.srv.Dialer(),
		LibraryLogLevel:   -1,
		Logger:            w.log,
		Now:               w.srv.Now,
		GatewayStuckAfter: o.stuckAfter,
		Version:           "arbiter v1.2.3 store layout 2",
	}
	if o.global {
		bcfg.DevGuildID = ""
	}
	bcfg.ShardID, bcfg.ShardCount = o.shard[0], o.shard[1]
	session, err := bot.NewSession(bcfg)
	if err != nil {
		cancel()
		w.t.Fatal(err)
	}
	n := bot.NewNotifier(session, w.log)
	svc := commands.New(commands.Config{
		RefereeRole:    "referee",
		BotMoveTime:    o.moveTime,
		Workers:        max(o.workers, 1),
		WorkerName:     o.workerName,
		TableMB:        4,
		ClockTick:      200 * time.Millisecond,
		AnalysisLimits: o.analysis,
		Deadlines:      bot.Timestamp,
		Terms:          &term.Closer{Store: st, Dir: filepath.Join(w.dataDir, term.Dir), Log: w.log},
	}, st, w.reg, n, w.log, o.now)
	p := &proc{w: w, st: st, svc: svc, b: bot.New(bcfg, session, svc), notifier: n, cancel: cancel, runErr: make(chan error, 1), gateway: o.gateway}
	w.t.Cleanup(p.stop)
	if err := p.b.Register(ctx); err != nil {
		w.t.Fatal(err)
	}
	if o.workers > 0 {
		p.loops.Go(func() { svc.RunWorkers(ctx) })
	}
	p.loops.Go(func() { svc.RunClock(ctx) })
	if o.gateway {
		known := map[string]bool{}
		for _, s := range w.srv.Sessions() {
			known[s.ID] = true
		}
		go func() { p.runErr <- p.b.Run(ctx) }()
		wctx, wcancel := context.WithTimeout(context.Background(), hang)
		defer wcancel()
		if _, err := w.srv.WaitForSession(wctx, func(s discordtest.Session) bool {
			return !known[s.ID] && s.Connected && !s.Invalid && s.Heartbeats > 0
		}); err != nil {
			w.t.Fatalf("the bot did not connect: %v", err)
		}
	}
	return p
}

// stop stops the process as SIGTERM would: the bot stops taking
// interactions and closes its gateway, the workers put back what they
// hold, the store is closed.
func (p *proc) stop() {
	p.once.Do(func() {
		p.cancel()
		if p.gateway {
			if err := <-p.runErr; err != nil {
				p.w.t.Errorf("bot.Run: %v", err)
			}
		}
		p.loops.Wait()
		p.b.Wait()
		if err := p.st.Close(context.Background()); err != nil {
			p.w.t.Errorf("close store: %v", err)
		}
	})
}

// serveHTTP serves the process's bot as an HTTP interactions endpoint.
func (p *proc) serveHTTP() string {
	hs := httptest.NewServer(p.b)
	p.w.t.Cleanup(hs.Close)
	return hs.URL
}

// ctx is a context bounding one wait of a test by hang.
func (w *world) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), hang)
	w.t.Cleanup(cancel)
	return ctx
}

// opt is a command option.
func opt(name string, value any) discordtest.Option {
	return discordtest.Option{Name: name, Value: value}
}

// do sends a slash command and returns the message that answers it.
func (w *world) do(userID, channel, name string, opts ...discordtest.Option) discordtest.Message {
	w.t.Helper()
	in, err := w.srv.SendCommand(userID, channel, name, opts...)
	if err != nil {
		w.t.Fatalf("/%s: %v", name, err)
	}
	return w.answerTo(in)
}

// press presses a button and returns the message that answers it.
func (w *world) press(userID, messageID, customID string) discordtest.Message {
	w.t.Helper()
	in, err := w.srv.PressButton(userID, messageID, customID)
	if err != nil {
		w.t.Fatalf("press %s: %v", customID, err)
	}
	return w.answerTo(in)
}

// answerTo waits for an interaction's first answer and returns its final
// message: the answer itself, the completed deferral, or the followup that
// replaced it.
func (w *world) answerTo(in discordtest.Interaction) discordtest.Message {
	w.t.Helper()
	ctx := w.ctx()
	resp, err := w.srv.WaitForResponse(ctx, in.ID)
	if err != nil {
		w.t.Fatal(err)
	}
	if resp.Type == discordtest.CallbackUpdateMessage {
		// The answer replaced the message of the component used.
		m, ok := w.srv.Message(resp.MessageID)
		if !ok {
			w.t.Fatalf("updated message %s not found", resp.MessageID)
		}
		return m
	}
	m, err := w.srv.WaitForMessage(ctx, func(m discordtest.Message) bool {
		// A deferral whose reply changed privacy or pings is edited into a
		// placeholder, then deleted once the followup is out: skip it.
		placeholder := m.Content == "Answered privately." || m.Content == "Answered below."
		return m.InteractionID == in.ID && !m.Loading() && !placeholder
	})
	if err != nil {
		w.t.Fatalf("no answer to interaction %s: %v", in.ID, err)
	}
	return m
}

// public checks that m is seen by the channel, and returns it.
func (w *world) public(m discordtest.Message) discordtest.Message {
	w.t.Helper()
	if m.Ephemeral() {
		w.t.Fatalf("answer is private, want public: %q", m.Content)
	}
	return m
}

// private checks that m is ephemeral and says want.
func (w *world) private(m discordtest.Message, want string) {
	w.t.Helper()
	if !m.Ephemeral() || !strings.Contains(m.Content, want) {
		w.t.Fatalf("answer (ephemeral=%v) %q, want a private one saying %q", m.Ephemeral(), m.Content, want)
	}
}

// noViolations checks that the bot broke none of Discord's rules: every
// interaction answered within 3 seconds, once, within limits.
func (w *world) noViolations() {
	w.t.Helper()
	if v := w.srv.Violations(); len(v) > 0 {
		w.t.Fatalf("Discord's rules broken:\n%s", strings.Join(v, "\n"))
	}
}

// game loads the game going on in channel; nil once it is over: archived,
// or saved finished and about to be archived (Load returns it in between).
func (p *proc) game(channel string) *store.Game {
	g, err := p.st.Load(context.Background(), channel)
	if err != nil || g.Status != store.Active {
		return nil
	}
	return g
}

// randomMove is a random legal move's text in g.
func randomMove(t testing.TB, g *store.Game, rng *rand.Rand) string {
	t.Helper()
	var list rules.MoveList
	g.State.Moves(&list)
	if list.N == 0 {
		t.Fatalf("no legal move in %s", g.Channel)
	}
	return g.State.FormatMove(list.Moves[rng.IntN(list.N)])
}

// button returns the custom id of m's button labelled label.
func button(t testing.TB, m discordtest.Message, label string) string {
	t.Helper()
	for _, b := range m.Buttons() {
		if b.Label == label {
			return b.CustomID
		}
	}
	t.Fatalf("no %q button on %q (buttons %+v)", label, m.Content, m.Buttons())
	return ""
}

// botMoves returns the bot's moves posted in channel: ordinary channel
// messages, not interaction answers.
func (w *world) botMoves(channel string) []discordtest.Message {
	var out []discordtest.Message
	for _, m := range w.srv.Messages(channel) {
		if m.AuthorID == w.srv.AppID() && m.InteractionID == "" && !m.Deleted && strings.Contains(m.Content, "(Arbiter, level") && strings.Contains(m.Content, " plays **") {
			out = append(out, m)
		}
	}
	return out
}

// hang bounds every wait of these tests for something to happen: far
// beyond what the slowest machine takes, it is reached only by a hang.
const hang = 2 * time.Minute

// waitFor polls cond until it holds, failing only after hang.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(hang); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// pinged reports whether m pinged exactly the users ids.
func pinged(m discordtest.Message, ids ...string) bool {
	got := slices.Clone(m.Pings.Users)
	want := slices.Clone(ids)
	slices.Sort(got)
	slices.Sort(want)
	return slices.Equal(got, want) && len(m.Pings.Roles) == 0 && !m.Pings.Everyone
}
