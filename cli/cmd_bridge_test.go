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

// TestBridgePlaysAWholeGame: a student's program (a small Go program
// built here, speaking the engine protocol) behind `arbiter bridge` (a
// real process) accepts a classmate's challenge and plays a whole game
// through the game flow (commands, without Discord); the bridge is killed
// mid-game and restarted, and the game goes on to its end.
func TestBridgePlaysAWholeGame(t *testing.T) {
	prog := testkit.Build(t, "../api/testdata/firstmove")
	srv := redistest.Start(t, redistest.Options{})
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := open.Store(ctx, store.Config{RedisURL: srv.URL(), Registry: games.Registry(), Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(ctx)
	svc := commands.New(commands.Config{}, st, games.Registry(), discardNotifier{}, log, nil)
	apiSrv := api.New(svc, api.Options{Log: log, Poll: 100 * time.Millisecond})
	hs := httptest.NewServer(apiSrv.Handler())
	defer hs.Close()
	defer hs.CloseClientConnections()

	alice := commands.User{ID: "100", Name: "alice"}
	bob := commands.User{ID: "200", Name: "bob"}
	do := func(u commands.User, command, sub string, opts map[string]string) commands.Reply {
		return svc.Handle(ctx, commands.Invocation{Guild: "g1", Channel: "c1", User: u, Command: command, Sub: sub,
			Options: opts, Users: map[string]commands.User{"opponent": alice}})
	}
	tok := regexp.MustCompile(`arb_[A-Za-z0-9_-]+`).FindString(do(alice, "token", "new", nil).Text)
	if tok == "" {
		t.Fatal("no token")
	}

	net := newCuttableProxy(t, strings.TrimPrefix(hs.URL, "http://"))
	var out testkit.Buffer
	var bridge *exec.Cmd
	startBridge := func() {
		bridge = exec.Command(os.Args[0], "bridge", "--server", "http://"+net.addr(), "--token", tok, "--", prog)
		bridge.Env = append(os.Environ(), "ARBITER_TEST_AS_MAIN=1")
		bridge.Stdout, bridge.Stderr = &out, &out
		if err := bridge.Start(); err != nil {
			t.Fatal(err)
		}
		waitFor(t, hangBound, "the bridge connects", func() bool { return apiSrv.Online("g1", alice.ID) })
	}
	defer func() {
		if bridge != nil && bridge.ProcessState == nil {
			_ = bridge.Process.Kill() // its Wait is in the test's path
		}
	}()
	startBridge()

	r := do(bob, "play", "", map[string]string{"game": "sixes", "opponent": alice.ID, "program": "true", "options": "turns=16"})
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
			waitFor(t, hangBound, "the program shows offline", func() bool { return !apiSrv.Online("g1", alice.ID) })
		}
		if programMoves == 5 && !net.wasCut() {
			// A network loss: the bridge reconnects by itself. The game goes
			// on once it has, so that the bridge is there to see it end.
			connects := strings.Count(out.String(), "connected to")
			net.cut()
			waitFor(t, hangBound, "the bridge reconnects", func() bool { return strings.Count(out.String(), "connected to") > connects })
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
			if r := do(bob, "move", "", map[string]string{"move": g.State.FormatMove(list.Moves[list.N-1])}); r.Private {
				t.Fatalf("bob's move refused: %q", r.Text)
			}
			continue
		}
		if killed && !restarted {
			if g2, _ := load(); g2 == nil || g2.Version != g.Version {
				t.Fatal("the program's game changed while its bridge was away")
			}
			startBridge()
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
	waitFor(t, hangBound, "the bridge shows the end", func() bool { return strings.Contains(out.String(), "over, ") })
	for _, want := range []string{"connected to", "challenges my program to sixes; accepting", "playing", "reconnecting in"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the bridge's terminal lacks %q:\n%s", want, out.String())
		}
	}
	// /token revoke: the connected bridge is refused at once and exits 1.
	exited := make(chan error, 1)
	go func() { exited <- bridge.Wait() }()
	if r := do(alice, "token", "revoke", nil); !strings.Contains(r.Text, "revoked") {
		t.Fatalf("/token revoke answered %q", r.Text)
	}
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(out.String(), "refused the token") {
			t.Errorf("after revoke the bridge exited %v; want status 1 saying the token was refused:\n%s", err, out.String())
		}
	case <-time.After(hangBound):
		t.Fatalf("the bridge still runs %v after its token was revoked", hangBound)
	}
	if strings.Contains(out.String(), tok) {
		t.Error("the bridge printed its token")
	}
	t.Logf("%d program moves; %s %s; bridge said:\n%s", programMoves, fin.Result, fin.Reason, out.String())
}

// cuttableProxy forwards TCP connections to a server until cut, which
// drops every connection at once, as a network loss does; it keeps
// accepting new ones.
type cuttableProxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
	cuts  int
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

func (p *cuttableProxy) wasCut() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cuts > 0
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
