package api_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"arbiter/commands"
	"arbiter/store"
)

// in runs a command as user in guild and channel.
func (e *env) in(g string, user commands.User, channel, command, sub string, opts map[string]string, users map[string]commands.User) commands.Reply {
	e.t.Helper()
	if opts == nil {
		opts = map[string]string{}
	}
	return e.svc.Handle(context.Background(), commands.Invocation{Guild: g, Channel: channel, User: user, Command: command, Sub: sub,
		Options: opts, Users: users})
}

// TestTokenBoundToItsGuild: a token made in one server sees and acts on
// that server's games only; a token made in another server is a second
// token, which neither replaces nor disconnects the first.
func TestTokenBoundToItsGuild(t *testing.T) {
	e := newEnv(t)
	tok1 := e.token(alice) // in g1
	p1 := e.connect(tok1)
	r := e.in("g2", bob, "g2-c1", "play", "", map[string]string{"game": "sixes", "opponent": alice.ID, "program": "true"},
		map[string]commands.User{"opponent": alice})
	if r.Private {
		t.Fatal(r.Text)
	}
	g2game := e.load("g2-c1")
	if !strings.Contains(r.Text, "offline") {
		t.Errorf("the challenge in g2 does not say that alice's program is offline there (only her g1 bridge is on): %q", r.Text)
	}
	answer := p1.send(`{"type":"accept","channel":"g2-c1","gameId":"` + g2game.ID + `","id":"x"}`)
	if answer.Type != "error" || answer.Code != "not_found" {
		t.Errorf("a g1 token accepting a g2 challenge: %+v", answer)
	}
	if commands.FlowOf(e.load("g2-c1")).Challenge != true {
		t.Error("the g2 challenge was accepted with a g1 token")
	}
	r = e.in("g2", alice, "dm", "token", "new", nil, nil)
	tok2 := tokenPattern.FindString(r.Text)
	if tok2 == "" {
		t.Fatalf("/token new in g2: %q", r.Text)
	}
	p2 := e.connect(tok2)
	if m := p2.gameMsg(g2game.ID, 1); m.Status != "challenge" {
		t.Errorf("the g2 bridge sees %+v", m)
	}
	if !e.api.Online(guild, alice.ID) || !e.api.Online("g2", alice.ID) {
		t.Error("alice's bridges are not both online after her g2 token")
	}
	if m := p1.send(`{"type":"decline","channel":"c9","gameId":"1","id":"y"}`); m.Code == "revoked" {
		t.Errorf("the g1 token was revoked by a g2 token: %+v", m)
	}
}

// panicky is a store whose Load panics while armed.
type panicky struct {
	store.Store
	armed atomic.Bool
}

func (p *panicky) Load(ctx context.Context, channel string) (*store.Game, error) {
	if p.armed.Load() {
		panic("injected: the store's Load panics")
	}
	return p.Store.Load(ctx, channel)
}

// TestPanicInTheAPIIsAnswered: a panic reached through a program's
// action is answered with a generic failure and an error id, logged with
// the details, and the server and the stream go on.
func TestPanicInTheAPIIsAnswered(t *testing.T) {
	var p *panicky
	e := newEnvWith(t, func(st store.Store) store.Store { p = &panicky{Store: st}; return p })
	tok := e.token(alice)
	prog := e.connect(tok)
	if r := e.do(bob, "c1", "play", "", "game", "sixes", "opponent", alice.ID, "program", "true"); r.Private {
		t.Fatal(r.Text)
	}
	g := e.load("c1")
	prog.gameMsg(g.ID, 1)
	p.armed.Store(true)
	m := prog.send(`{"type":"accept","channel":"c1","gameId":"` + g.ID + `","id":"a1"}`)
	p.armed.Store(false)
	if m.Type != "error" || m.Code != "failed" || !strings.Contains(m.Error, "error id") || strings.Contains(m.Error, "injected") {
		t.Fatalf("the panicking action was answered %+v", m)
	}
	id := m.Error[strings.Index(m.Error, "error id ")+len("error id ") : strings.Index(m.Error, ")")]
	if logs := e.logs.String(); !strings.Contains(logs, id) || !strings.Contains(logs, "injected") {
		t.Errorf("the log does not tie error id %s to the panic:\n%s", id, logs)
	}
	if m := prog.send(`{"type":"accept","channel":"c1","gameId":"` + g.ID + `","id":"a2"}`); m.Type != "ok" {
		t.Errorf("after the panic the same stream's accept: %+v", m)
	}
	if code, _ := e.get("/api/v1/me", tok); code != 200 {
		t.Errorf("after the panic /api/v1/me: %d", code)
	}
}

// TestTokenCheckFailsClosed: while the store cannot be reached, a
// program's action is refused (its token cannot be checked), saying so
// with an error id, and nothing is done.
func TestTokenCheckFailsClosed(t *testing.T) {
	e := newEnv(t)
	tok := e.token(alice)
	prog := e.connect(tok)
	e.redis.Kill()
	m := prog.send(`{"type":"move","channel":"c1","gameId":"1","move":"a2 a3","id":"m1"}`)
	if m.Type != "error" || m.Code != "unavailable" || !strings.Contains(m.Error, "error id") {
		t.Errorf("an action with the store down: %+v; want unavailable, refused", m)
	}
}
