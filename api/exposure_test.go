package api_test

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"arbiter/commands"
	"arbiter/store"
)

// TestPlayAssetsNotListed: the play page's files are served, their
// folders are not listed.
func TestPlayAssetsNotListed(t *testing.T) {
	e := newEnv(t)
	for _, dir := range []string{"/play/assets/", "/play/assets/vendor/"} {
		if code, body := e.body(dir); code != http.StatusNotFound || strings.Contains(body, ".js") {
			t.Errorf("GET %s: %d %.200q; want 404 and no list of files", dir, code, body)
		}
	}
	if code, _ := e.body("/play/assets/play.js"); code != http.StatusOK {
		t.Errorf("GET /play/assets/play.js: %d", code)
	}
}

// TestAnalysisNotFoundIsTheWallsNotFound: the analysis of a game of a
// tournament round still being played answers exactly as a made-up wall
// address does.
func TestAnalysisNotFoundIsTheWallsNotFound(t *testing.T) {
	e := newEnv(t)
	dave, erin := commands.User{ID: "400", Name: "dave"}, commands.User{ID: "500", Name: "erin"}
	for _, u := range []commands.User{carol, alice, bob, dave, erin} {
		sub := map[bool]string{true: "create", false: "join"}[u == carol]
		inv := commands.Invocation{Guild: guild, Channel: "ta", User: u, Command: "tournament", Sub: sub,
			Options: map[string]string{}, Users: map[string]commands.User{}, ManageServer: u == carol}
		if sub == "create" {
			inv.Options["game"] = "sixes"
		}
		if r := e.svc.Handle(context.Background(), inv); r.Private && sub == "create" {
			t.Fatalf("/tournament %s: %s", sub, r.Text)
		}
	}
	if r := e.svc.Handle(context.Background(), commands.Invocation{Guild: guild, Channel: "ta", User: carol, Command: "tournament", Sub: "start",
		Options: map[string]string{}, ManageServer: true}); r.Private {
		t.Fatalf("/tournament start: %s", r.Text)
	}
	v, err := e.svc.TournamentView(context.Background(), "ta")
	if err != nil || len(v.Channels) < 2 {
		t.Fatalf("tournament view %+v, %v; want two games in round 1", v, err)
	}
	g := e.load(v.Channels[0])
	mover := commands.User{ID: g.Players[g.State.ToMove()].UserID, Name: g.Players[g.State.ToMove()].Name}
	if r := e.do(mover, v.Channels[0], "resign", ""); r.Private {
		t.Fatalf("resign: %s", r.Text)
	}
	key := e.wall("on", "display")
	wantCode, want := e.body("/wall/" + randomKey() + "/")
	for _, path := range []string{"/wall/" + key + "/analysis/" + g.ID, "/wall/" + key + "/analysis/" + g.ID + "/page"} {
		if code, body := e.body(path); code != wantCode || body != want {
			t.Errorf("GET %s: %d %q; want the wall's own %d %q", path, code, body, wantCode, want)
		}
	}
}

// panickyWall is a store whose settings panic when armed: every wall
// address then panics in the API.
type panickyWall struct {
	store.Store
	armed atomic.Bool
}

func (p *panickyWall) ChannelSetting(ctx context.Context, channel, key string) (string, error) {
	if p.armed.Load() {
		panic("injected: the store's ChannelSetting panics")
	}
	return p.Store.ChannelSetting(ctx, channel, key)
}

// TestPanicLogKeepsNoWallKey: a request on a wall address that panics is
// logged with its path, the wall key left out.
func TestPanicLogKeepsNoWallKey(t *testing.T) {
	var p *panickyWall
	e := newEnvWith(t, func(st store.Store) store.Store { p = &panickyWall{Store: st}; return p })
	key := e.wall("on", "")
	p.armed.Store(true)
	code, _ := e.body("/wall/" + key + "/")
	p.armed.Store(false)
	if code != http.StatusInternalServerError {
		t.Fatalf("the panicking request: %d", code)
	}
	logs := e.logs.String()
	if !strings.Contains(logs, "API request panicked") || !strings.Contains(logs, "/wall/") {
		t.Fatalf("the panic is not logged with its path:\n%s", logs)
	}
	if strings.Contains(logs, key) {
		t.Errorf("the log holds the wall key %s", key)
	}
}
