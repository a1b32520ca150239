package api_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"arbiter/api"
	"arbiter/commands"
	"arbiter/store"
)

// TestSpectatorStreamEndsWithItsKey: a spectator's stream already open
// on a game ends when its key stops opening the wall as it did (/wall
// off, /wall new, /wall names), and the address then answers 404.
func TestSpectatorStreamEndsWithItsKey(t *testing.T) {
	for _, change := range []struct{ sub, names string }{{"off", ""}, {"new", ""}, {"names", "display"}} {
		t.Run(change.sub, func(t *testing.T) {
			e := newEnv(t)
			game := e.challenge("c1", "sixes")
			key := e.wall("on", "")
			base := "/wall/" + key + "/game/" + game + "/"
			es := e.events(t, base+"events")
			if !es.until(func(l string) bool { return strings.HasPrefix(l, "event: game") }) {
				t.Fatal("the spectator's stream shows no game")
			}
			inv := commands.Invocation{Guild: guild, Channel: "staff", User: carol, ManageServer: true, Command: "wall", Sub: change.sub,
				Options: map[string]string{}}
			if change.names != "" {
				inv.Options["names"] = change.names
			}
			if r := e.svc.Handle(context.Background(), inv); !r.Private {
				t.Fatalf("/wall %s: %q", change.sub, r.Text)
			}
			if !es.ended() {
				t.Fatalf("after /wall %s the spectator's stream goes on", change.sub)
			}
			if change.sub != "names" {
				if code, _ := e.body(base + "events"); code != http.StatusNotFound {
					t.Errorf("after /wall %s the spectator's stream reopens: %d, want 404", change.sub, code)
				}
			}
		})
	}
}

// counting counts the store's reads of every running game.
type counting struct {
	store.Store
	running atomic.Int64
}

func (c *counting) Running(ctx context.Context, guild string) ([]*store.Game, error) {
	c.running.Add(1)
	return c.Store.Running(ctx, guild)
}

// TestSpectatorStreamsCountAsWallPages: spectators' streams are pages of
// the wall: with a limit of two pages the third is refused saying why,
// and a move reaches every open spectator without each of them reading
// every running game again.
func TestSpectatorStreamsCountAsWallPages(t *testing.T) {
	var c *counting
	e := newEnvWith(t, func(st store.Store) store.Store { c = &counting{Store: st}; return c },
		func(o *api.Options) { o.MaxViewers, o.Poll = 2, time.Hour })
	game := e.challenge("c1", "sixes")
	key := e.wall("on", "")
	base := "/wall/" + key + "/game/" + game + "/"
	var open []*eventStream
	for range 2 {
		es := e.events(t, base+"events")
		if !es.until(func(l string) bool { return strings.HasPrefix(l, "event: game") }) {
			t.Fatal("a spectator's stream shows no game")
		}
		open = append(open, es)
	}
	if code, body := e.head(base + "events"); code != http.StatusServiceUnavailable || !strings.Contains(body, "too many screens") {
		t.Errorf("a third spectator on a two-page wall: %d %q", code, body)
	}
	if code, body := e.head("/wall/" + key + "/events"); code != http.StatusServiceUnavailable || !strings.Contains(body, "too many screens") {
		t.Errorf("the wall's page beside two spectators on a two-page wall: %d %q", code, body)
	}
	before := c.running.Load()
	if r := e.do(alice, "c1", "move", "", "move", firstMove(t, e, "c1")); r.Private {
		t.Fatalf("/move: %s", r.Text)
	}
	for _, es := range open {
		if !es.until(func(l string) bool { return strings.Contains(l, `"ply":1`) }) {
			t.Fatal("a spectator's stream did not show the move")
		}
	}
	if n := c.running.Load() - before; n > 0 {
		t.Errorf("one move read every running game %d times for two spectators; want none", n)
	}
}

// head GETs path and returns the status and the first 512 bytes of the
// body, without waiting for a stream to end.
func (e *env) head(path string) (int, string) {
	e.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.http.URL+path, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	buf := make([]byte, 512)
	n, _ := io.ReadAtLeast(resp.Body, buf, 1)
	return resp.StatusCode, string(buf[:n])
}
