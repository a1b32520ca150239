package api_test

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"arbiter/api"
	"arbiter/commands"
	"arbiter/internal/testkit"
	"arbiter/store"
)

// TestBridgePlaysAtMostMaxGames: 40 classmates challenge one program at
// once; its bridge (--max-games 2) accepts two and declines the other 38,
// and each declined challenger is told why in the channel.
func TestBridgePlaysAtMostMaxGames(t *testing.T) {
	prog := testkit.Build(t, "./testdata/firstmove")
	e := newEnv(t)
	tok := e.token(alice)
	const n = 40
	for i := range n {
		u := commands.User{ID: fmt.Sprint(1000 + i), Name: fmt.Sprintf("student%d", i)}
		ch := fmt.Sprintf("c%d", i)
		r := e.in(guild, u, ch, "play", "", map[string]string{"game": "sixes", "opponent": alice.ID, "program": "true", "side": "first"},
			map[string]commands.User{"opponent": alice})
		if r.Private {
			t.Fatal(r.Text)
		}
	}
	var out testkit.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- api.RunBridge(ctx, api.BridgeConfig{Server: e.http.URL, Token: tok, Command: prog, Out: &out, MaxGames: 2})
	}()
	defer func() { cancel(); <-done }()
	// A declined challenge is archived before its channel is told why, so
	// both are waited for.
	var accepted, declined, told int
	for end := time.Now().Add(streamHang); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		accepted, declined = 0, 0
		for i := range n {
			g, err := e.st.Load(context.Background(), fmt.Sprintf("c%d", i))
			switch {
			case err != nil:
				declined++ // declined: archived, the channel free
			case g.Status == store.Finished:
				declined++
			case !commands.FlowOf(g).Challenge:
				accepted++
			}
		}
		told = e.postsContaining("declined the challenge", "Their bridge says: my program is playing its 2 games at once")
		if accepted+declined == n && told >= n-2 {
			break
		}
	}
	if accepted != 2 || declined != n-2 {
		t.Fatalf("%d accepted, %d declined of %d challenges; want 2 and %d\n%s", accepted, declined, n, n-2, out.String())
	}
	if told != n-2 {
		t.Errorf("%d of %d declined challengers were told why", told, n-2)
	}
}

// postsContaining counts the posts that contain every one of parts.
func (e *env) postsContaining(parts ...string) int {
	e.posts.mu.Lock()
	defer e.posts.mu.Unlock()
	n := 0
next:
	for _, m := range e.posts.msgs {
		for _, p := range parts {
			if !strings.Contains(m, p) {
				continue next
			}
		}
		n++
	}
	return n
}

// TestBridgeRefusesPlainHTTPElsewhere: a plain http:// server that is not
// this machine is refused before the token is sent; loopback is allowed.
func TestBridgeRefusesPlainHTTPElsewhere(t *testing.T) {
	for _, server := range []string{"http://arbiter.example.org", "http://10.0.0.8:8090", "ws://192.0.2.1/"} {
		err := api.RunBridge(context.Background(), api.BridgeConfig{Server: server, Token: "arb_x", Command: "true", Out: &testkit.Buffer{}})
		if err == nil || !strings.Contains(err.Error(), "clear text") || !strings.Contains(err.Error(), "https://") {
			t.Errorf("--server %s: %v; want a refusal saying why", server, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	for _, server := range []string{"http://127.0.0.1:1", "http://localhost:1", "http://[::1]:1"} {
		if err := api.RunBridge(ctx, api.BridgeConfig{Server: server, Token: "arb_x", Command: "true", Out: &testkit.Buffer{}}); err != nil {
			t.Errorf("--server %s: %v; want it tried (loopback)", server, err)
		}
	}
}

// TestInertGolden: what the bridge prints from a server's strings, with
// escape sequences and bidirectional overrides made visible
// (testdata/inert.golden).
func TestInertGolden(t *testing.T) {
	var b strings.Builder
	for _, s := range []string{
		"alice",
		"\x1b[2J\x1b[Halice$ rm -rf ~",
		"bob\r\nbridge: connected as evil",
		"\x07bell \x9b31m C1 CSI",
		"\u202eevil\u202c name",
		"naïve café 日本",
	} {
		got := api.Inert(s)
		fmt.Fprintf(&b, "%q\n\t%s\n", s, got)
		for _, r := range got {
			if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r >= 0x202a && r <= 0x202e {
				t.Errorf("Inert(%q) = %q keeps control %U", s, got, r)
			}
		}
	}
	testkit.Golden(t, "testdata/inert.golden", b.String(), *update)
}

var update = flag.Bool("update", false, "rewrite the golden files")
