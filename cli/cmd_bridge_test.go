package cli

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/api"
	"arbiter/commands"
	"arbiter/internal/testkit"
	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/open"
	"arbiter/store/redistest"
)

type discardNotifier struct{}

func (discardNotifier) Post(context.Context, string, commands.Message) error { return nil }

// hangBound bounds the tests' waits for an event: far beyond what the
// slowest machine takes, it is reached only by a hang.
const hangBound = 2 * time.Minute

// waitFor polls cond every 10 ms until it holds, failing after limit.
func waitFor(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %s: %s", limit, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// bridgeEnv is a server (the game flow on redis-server, without Discord)
// with its programs' API behind a proxy whose network can be cut, and
// alice's token for her program.
type bridgeEnv struct {
	t          *testing.T
	st         store.Store
	svc        *commands.Service
	apiSrv     *api.Server
	alice, bob commands.User
	tok        string
	net        *cuttableProxy
	prog       string // the student's program
	out        testkit.Buffer
}

func newBridgeEnv(t *testing.T) *bridgeEnv {
	e := &bridgeEnv{t: t, prog: testkit.Build(t, "../api/testdata/firstmove"),
		alice: commands.User{ID: "100", Name: "alice"}, bob: commands.User{ID: "200", Name: "bob"}}
	srv := redistest.Start(t, redistest.Options{})
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := open.Store(ctx, store.Config{RedisURL: srv.URL(), Registry: games.Registry(), Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close(ctx) })
	e.st = st
	e.svc = commands.New(commands.Config{}, st, games.Registry(), discardNotifier{}, log, nil)
	e.apiSrv = api.New(e.svc, api.Options{Log: log, Poll: 100 * time.Millisecond})
	hs := httptest.NewServer(e.apiSrv.Handler())
	t.Cleanup(hs.Close)
	t.Cleanup(hs.CloseClientConnections)
	e.tok = regexp.MustCompile(`arb_[A-Za-z0-9_-]+`).FindString(e.do(e.alice, "token", "new", nil).Text)
	if e.tok == "" {
		t.Fatal("no token")
	}
	e.net = newCuttableProxy(t, strings.TrimPrefix(hs.URL, "http://"))
	return e
}

// do runs a command in channel c1 (opponent: alice).
func (e *bridgeEnv) do(u commands.User, command, sub string, opts map[string]string) commands.Reply {
	return e.svc.Handle(context.Background(), commands.Invocation{Guild: "g1", Channel: "c1", User: u, Command: command, Sub: sub,
		Options: opts, Users: map[string]commands.User{"opponent": e.alice}})
}

// startBridge starts `arbiter bridge` for alice's program, a real process
// killed at the test's end, and waits until it is connected.
func (e *bridgeEnv) startBridge() *exec.Cmd {
	bridge := exec.Command(os.Args[0], "bridge", "--server", "http://"+e.net.addr(), "--token", e.tok, "--", e.prog)
	bridge.Env = append(os.Environ(), "ARBITER_TEST_AS_MAIN=1")
	bridge.Stdout, bridge.Stderr = &e.out, &e.out
	if err := bridge.Start(); err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() {
		if bridge.ProcessState == nil {
			_ = bridge.Process.Kill()
			_ = bridge.Wait()
		}
	})
	waitFor(e.t, hangBound, "the bridge connects", func() bool { return e.apiSrv.Online("g1", e.alice.ID) })
	return bridge
}

// TestBridgePlaysAWholeGame: a student's program (a small Go program
// built here, speaking the engine protocol) behind `arbiter bridge` (a
// real process) accepts a classmate's challenge and plays a whole game
// through the game flow (commands, without Discord); the bridge is killed
// mid-game and restarted, and the game goes on to its end.
func TestBridgePlaysAWholeGame(t *testing.T) {
	e := newBridgeEnv(t)
	ctx, st := context.Background(), e.st
	bridge := e.startBridge()

	r := e.do(e.bob, "play", "", map[string]string{"game": "sixes", "opponent": e.alice.ID, "program": "true", "options": "turns=16"})
	if r.Private || strings.Contains(r.Text, "offline") {
		t.Fatalf("/play answered %q", r.Text)
	}
	load := func() (*store.Game, bool) {
		g, err := st.Load(ctx, "c1")
		if errors.Is(err, store.ErrNotFound) {
			return nil, false
		}
		if err != nil {
			t.Fatal(err)
		}
		return g, true
	}
	waitFor(t, hangBound, "the program accepts", func() bool { g, ok := load(); return ok && !commands.FlowOf(g).Challenge })

	programMoves, killed, restarted := 0, false, false
	for {
		if programMoves == 3 && !killed {
			// Mid-game: the bridge dies at once (its program with it).
			_ = bridge.Process.Kill()
			_ = bridge.Wait()
			killed = true
			waitFor(t, hangBound, "the program shows offline", func() bool { return !e.apiSrv.Online("g1", e.alice.ID) })
		}
		if programMoves == 5 && !e.net.wasCut() {
			// A network loss: the bridge reconnects by itself. The game goes
			// on once it has, so that the bridge is there to see it end.
			connects := strings.Count(e.out.String(), "connected to")
			e.net.cut()
			waitFor(t, hangBound, "the bridge reconnects", func() bool { return strings.Count(e.out.String(), "connected to") > connects })
		}
		g, ok := load()
		if !ok || g.Status != store.Active {
			break // over (a finished game stays in its channel until it is archived)
		}
		seat := g.State.ToMove()
		if g.Players[seat].Kind == store.Human {
			// bob moves, while the bridge is away too.
			var list rules.MoveList
			g.State.Moves(&list)
			if r := e.do(e.bob, "move", "", map[string]string{"move": g.State.FormatMove(list.Moves[list.N-1])}); r.Private {
				t.Fatalf("e.bob's move refused: %q", r.Text)
			}
			continue
		}
		if killed && !restarted {
			if g2, _ := load(); g2 == nil || g2.Version != g.Version {
				t.Fatal("the program's game changed while its bridge was away")
			}
			bridge = e.startBridge()
			restarted = true
		}
		waitFor(t, hangBound, "the program moves", func() bool { g2, ok := load(); return !ok || g2.Version != g.Version })
		programMoves++
	}
	var sums []store.Summary
	waitFor(t, hangBound, "the game is archived", func() bool {
		var err error
		sums, _, err = st.Archived(ctx, "g1", 0, 1)
		return err == nil && len(sums) == 1
	})
	fin, err := st.LoadArchived(ctx, "g1", sums[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if fin.Status != store.Finished || fin.Result == rules.Ongoing || !strings.Contains(fin.Reason, "turn") && fin.State.Status() == rules.Ongoing {
		t.Errorf("the game ended %v: %s", fin.Result, fin.Reason)
	}
	if !restarted || programMoves < 6 {
		t.Errorf("the program made %d moves (killed %v); want a game that went on after the restart", programMoves, killed)
	}
	waitFor(t, hangBound, "the bridge shows the end", func() bool { return strings.Contains(e.out.String(), "over, ") })
	for _, want := range []string{"connected to", "challenges my program to sixes; accepting", "playing", "reconnecting in"} {
		if !strings.Contains(e.out.String(), want) {
			t.Errorf("the bridge's terminal lacks %q:\n%s", want, e.out.String())
		}
	}
	// /token revoke: the connected bridge is refused at once and exits 1.
	exited := make(chan error, 1)
	go func() { exited <- bridge.Wait() }()
	if r := e.do(e.alice, "token", "revoke", nil); !strings.Contains(r.Text, "revoked") {
		t.Fatalf("/token revoke answered %q", r.Text)
	}
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(e.out.String(), "refused the token") {
			t.Errorf("after revoke the bridge exited %v; want status 1 saying the token was refused:\n%s", err, e.out.String())
		}
	case <-time.After(hangBound):
		t.Fatalf("the bridge still runs %v after its token was revoked", hangBound)
	}
	if strings.Contains(e.out.String(), e.tok) {
		t.Error("the bridge printed its token")
	}
	t.Logf("%d program moves; %s %s; bridge said:\n%s", programMoves, fin.Result, fin.Reason, e.out.String())
}

// cuttableProxy forwards TCP connections to a server until cut, which
// drops every connection at once, as a network loss does; it keeps
// accepting new ones.
type cuttableProxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
	cuts  int
	down  bool // new connections are closed at once, as with no network
}

func newCuttableProxy(t *testing.T, backend string) *cuttableProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cuttableProxy{ln: ln}
	t.Cleanup(func() { ln.Close(); p.cut() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			down := p.down
			p.mu.Unlock()
			if down {
				c.Close()
				continue
			}
			b, err := net.Dial("tcp", backend)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, b)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(b, c); b.Close() }()
			go func() { _, _ = io.Copy(c, b); c.Close() }()
		}
	}()
	return p
}

func (p *cuttableProxy) addr() string { return p.ln.Addr().String() }

func (p *cuttableProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
	p.cuts++
}

// setDown cuts the network and keeps it down (true), or brings it back.
func (p *cuttableProxy) setDown(down bool) {
	p.mu.Lock()
	p.down = down
	p.mu.Unlock()
	if down {
		p.cut()
	}
}

func (p *cuttableProxy) wasCut() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cuts > 0
}

// TestBridgeSeesAGameEndWhileAway: a game that ends while the bridge has
// no network (the classmate resigns) is told as over when it reconnects,
// and its program is stopped.
func TestBridgeSeesAGameEndWhileAway(t *testing.T) {
	e := newBridgeEnv(t)
	e.startBridge()
	if r := e.do(e.bob, "play", "", map[string]string{"game": "sixes", "opponent": e.alice.ID, "program": "true"}); r.Private {
		t.Fatalf("/play answered %q", r.Text)
	}
	waitFor(t, hangBound, "the program accepts", func() bool {
		g, err := e.st.Load(context.Background(), "c1")
		return err == nil && !commands.FlowOf(g).Challenge
	})
	e.net.setDown(true)
	waitFor(t, hangBound, "the bridge loses the network", func() bool { return strings.Contains(e.out.String(), "reconnecting in") })
	if r := e.do(e.bob, "resign", "", nil); r.Private {
		t.Fatalf("/resign answered %q", r.Text)
	}
	e.net.setDown(false)
	waitFor(t, hangBound, "the bridge tells the end", func() bool {
		return strings.Contains(e.out.String(), "over while the bridge was away")
	})
}

// TestBridgeUsage: the bridge says what is missing and exits 2 before
// connecting anywhere.
func TestBridgeUsage(t *testing.T) {
	t.Setenv("ARBITER_TOKEN", "")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bridge", "--token", "arb_x", "--", "prog"}, "--server is required"},
		{[]string{"bridge", "--server", "http://127.0.0.1:1", "--", "prog"}, "--token (or ARBITER_TOKEN) is required: /token new gives one, in Discord or in the console"},
		{[]string{"bridge", "--server", "http://127.0.0.1:1", "--token", "arb_secret"}, "give your program after --"},
		{[]string{"bridge", "--server", "ftp://x", "--token", "arb_secret", "--", "prog"}, "http:// or https://"},
	} {
		code, _, errOut := runArgs(t, tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) || strings.Contains(errOut, "arb_secret") {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}
