package api_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/api"
	"arbiter/commands"
	"arbiter/internal/httplimit"
	"arbiter/internal/testkit"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/open"
	"arbiter/store/redistest"

	"github.com/gorilla/websocket"
)

// posts records what the flow posts to channels (the Notifier).
type posts struct {
	mu   sync.Mutex
	msgs []string
}

func (p *posts) Post(_ context.Context, channel string, msg commands.Message) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.msgs = append(p.msgs, channel+": "+msg.Text)
	return nil
}

// env is the game flow over a real redis-server with the API served on
// a loopback port.
type env struct {
	t     testing.TB
	redis *redistest.Server
	st    store.Store
	svc   *commands.Service
	api   *api.Server
	http  *httptest.Server
	posts *posts
	logs  *testkit.Buffer
	clock *clock
	aud   *audience
}

// clock is the service's and the store's time, moved on by tests.
type clock struct {
	mu  sync.Mutex
	off time.Duration
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.off)
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.off += d
}

const guild = "g1"

var (
	alice = commands.User{ID: "100", Name: "alice"}
	bob   = commands.User{ID: "200", Name: "bob"}
	carol = commands.User{ID: "300", Name: "carol"}
)

func newEnv(t testing.TB) *env {
	t.Helper()
	return newEnvWith(t, nil)
}

// newEnvWith is newEnv with the flow's store wrapped by wrap (nil: as is)
// and the API's options changed by opts.
func newEnvWith(t testing.TB, wrap func(store.Store) store.Store, opts ...func(*api.Options)) *env {
	t.Helper()
	srv := redistest.Start(t, redistest.Options{})
	logs := &testkit.Buffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ctx := context.Background()
	clk := &clock{}
	st, err := open.Store(ctx, store.Config{RedisURL: srv.URL(), Registry: games.Registry(), Logger: log, Now: clk.Now})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	p := &posts{}
	flowStore := st
	if wrap != nil {
		flowStore = wrap(st)
	}
	svc := commands.New(commands.Config{}, flowStore, games.Registry(), p, log, clk.Now)
	aud := &audience{private: map[string]bool{}}
	svc.SetAudience(aud)
	opt := api.Options{Log: log, Poll: 50 * time.Millisecond, Now: clk.Now}
	for _, o := range opts {
		o(&opt)
	}
	a := api.New(svc, opt)
	svc.SetPlayPage(commands.PlayPage{Links: a})
	// Served as API_ADDR is, with short timeouts: streams must outlive them.
	hs := httptest.NewUnstartedServer(nil)
	hs.Config = httplimit.Server(a.Handler(), httplimit.Limits{ReadHeader: time.Second, Read: time.Second, Write: time.Second, MaxBody: api.MaxMessage}, log)
	hs.Start()
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		_ = st.Close(context.Background())
	})
	return &env{t: t, redis: srv, st: st, svc: svc, api: a, http: hs, posts: p, logs: logs, clock: clk, aud: aud}
}

// audience is the platform's answer to who can view a channel: every
// channel is of the guild whose id starts it ("g2-..." is of g2, any other
// of g1), and public unless made private.
type audience struct {
	mu      sync.Mutex
	private map[string]bool
}

func (a *audience) Channel(_ context.Context, channel string) (string, bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	g := guild
	if strings.HasPrefix(channel, "g2-") {
		g = "g2"
	}
	return g, !a.private[channel], nil
}

// hide makes channel private.
func (a *audience) hide(channel string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.private[channel] = true
}

var wallKeyPattern = regexp.MustCompile(`/wall/([A-Za-z0-9_-]{43})/`)

// wall turns the guild's wall on (or replaces its key) as a referee, with
// names as given ("" for the default), and returns its key.
func (e *env) wall(sub, names string) string {
	e.t.Helper()
	return e.wallIn(guild, sub, names)
}

// wallIn is wall in guild g.
func (e *env) wallIn(g, sub, names string) string {
	e.t.Helper()
	inv := commands.Invocation{Guild: g, Channel: "staff", User: carol, ManageServer: true, Command: "wall", Sub: sub,
		Options: map[string]string{}}
	if names != "" {
		inv.Options["names"] = names
	}
	r := e.svc.Handle(context.Background(), inv)
	m := wallKeyPattern.FindStringSubmatch(r.Text)
	if m == nil || !r.Private {
		e.t.Fatalf("/wall %s answered %q (private %v); want a private link", sub, r.Text, r.Private)
	}
	return m[1]
}

// do runs a command as user in channel.
func (e *env) do(user commands.User, channel, command, sub string, opts ...string) commands.Reply {
	e.t.Helper()
	inv := commands.Invocation{Guild: guild, Channel: channel, User: user, Command: command, Sub: sub,
		Options: map[string]string{}, Users: map[string]commands.User{}}
	for i := 0; i+1 < len(opts); i += 2 {
		inv.Options[opts[i]] = opts[i+1]
		for _, u := range []commands.User{alice, bob, carol} {
			if opts[i] == "opponent" && opts[i+1] == u.ID {
				inv.Users["opponent"] = u
			}
		}
	}
	return e.svc.Handle(context.Background(), inv)
}

var tokenPattern = regexp.MustCompile(`arb_[A-Za-z0-9_-]{43}`)

// token gives user a program token through /token.
func (e *env) token(user commands.User) string {
	e.t.Helper()
	r := e.do(user, "dm-"+user.ID, "token", "new")
	tok := tokenPattern.FindString(r.Text)
	if tok == "" || !r.Private {
		e.t.Fatalf("/token answered %q (private %v); want a private token", r.Text, r.Private)
	}
	return tok
}

// body GETs path and returns the status and the whole body.
func (e *env) body(path string) (int, string) {
	e.t.Helper()
	resp, err := http.Get(e.http.URL + path)
	if err != nil {
		e.t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

// get calls the API with a token.
func (e *env) get(path, token string) (int, api.Message) {
	e.t.Helper()
	req, _ := http.NewRequest("GET", e.http.URL+path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	var m api.Message
	_ = json.NewDecoder(resp.Body).Decode(&m)
	return resp.StatusCode, m
}

// program is a test's side of a program's stream.
type program struct {
	t       testing.TB
	conn    *websocket.Conn
	skipped []api.Message // read, not yet matched
}

// connect opens the stream with token; it fails the test when refused.
func (e *env) connect(token string) *program {
	e.t.Helper()
	conn, resp, err := e.dial(token)
	if err != nil {
		e.t.Fatalf("connect: %v (%v)", err, resp)
	}
	p := &program{t: e.t, conn: conn}
	e.t.Cleanup(func() { _ = conn.Close() })
	if m := p.next(func(m api.Message) bool { return true }); m.Type != "hello" {
		e.t.Fatalf("first message %+v; want hello", m)
	}
	return p
}

func (e *env) dial(token string) (*websocket.Conn, *http.Response, error) {
	h := http.Header{}
	h.Set("Authorization", "Bearer "+token)
	return websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(e.http.URL, "http")+"/api/v1/stream", h)
}

// next returns the next message that matches, within 5 s; the messages
// before it are kept for later calls.
func (p *program) next(match func(api.Message) bool) api.Message {
	p.t.Helper()
	for i, m := range p.skipped {
		if match(m) {
			p.skipped = append(p.skipped[:i:i], p.skipped[i+1:]...)
			return m
		}
	}
	deadline := time.Now().Add(streamHang)
	for {
		_ = p.conn.SetReadDeadline(deadline)
		var m api.Message
		if err := p.conn.ReadJSON(&m); err != nil {
			p.t.Fatalf("reading the stream: %v", err)
		}
		if match(m) {
			return m
		}
		p.skipped = append(p.skipped, m)
	}
}

// send sends raw text as one message and returns the answer to it.
func (p *program) send(text string) api.Message {
	p.t.Helper()
	if err := p.conn.WriteMessage(websocket.TextMessage, []byte(text)); err != nil {
		p.t.Fatalf("send: %v", err)
	}
	return p.next(func(m api.Message) bool { return m.Type == "ok" || m.Type == "error" })
}

// gameMsg waits for the state of game id at least at version.
func (p *program) gameMsg(id string, version int64) *api.GameState {
	p.t.Helper()
	return p.next(func(m api.Message) bool { return m.Type == "game" && m.Game.ID == id && m.Game.Version >= version }).Game
}

// load returns the game in channel.
func (e *env) load(channel string) *store.Game {
	e.t.Helper()
	g, err := e.st.Load(context.Background(), channel)
	if err != nil {
		e.t.Fatalf("load %s: %v", channel, err)
	}
	return g
}
