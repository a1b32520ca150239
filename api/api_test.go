package api_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"arbiter/api"
	"arbiter/commands"
	"arbiter/rules"
	"arbiter/store"

	"github.com/redis/go-redis/v9"
)

// TestTokenShownOnceStoredHashedNeverLogged: /token answers privately
// with a token that works on the API; Redis holds only its hash, the log
// never has it, and a second /token within TokenGap is refused.
func TestTokenShownOnceStoredHashedNeverLogged(t *testing.T) {
	e := newEnv(t)
	tok := e.token(alice)
	code, m := e.get("/api/v1/me", tok)
	if code != http.StatusOK || m.Type != "hello" || m.User != alice.ID || m.Program != "alice (program)" {
		t.Fatalf("/api/v1/me = %d %+v", code, m)
	}
	r := e.do(alice, "dm", "token", "new")
	if !r.Private || !strings.Contains(r.Text, "less than") || tokenPattern.MatchString(r.Text) {
		t.Errorf("a second /token at once answered %q; want a private refusal without a token", r.Text)
	}
	if code, _ := e.get("/api/v1/me", tok); code != http.StatusOK {
		t.Errorf("the refused second /token ended the first token (%d)", code)
	}
	opt, _ := redis.ParseURL(e.redis.URL())
	rdb := redis.NewClient(opt)
	defer rdb.Close()
	ctx := context.Background()
	keys, err := rdb.Keys(ctx, "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	secret := strings.TrimPrefix(tok, commands.TokenPrefix)
	for _, k := range keys {
		dump, _ := rdb.Dump(ctx, k).Result()
		if strings.Contains(k, secret) || strings.Contains(dump, secret) {
			t.Errorf("Redis key %q holds the token itself", k)
		}
	}
	if strings.Contains(e.logs.String(), secret) {
		t.Errorf("the log has the token")
	}
}

// TestRevokedTokenRefusedAtOnce: after /token revoke, the API refuses the
// token on its next request, and the stream open with it is told and
// closed.
func TestRevokedTokenRefusedAtOnce(t *testing.T) {
	e := newEnv(t)
	tok := e.token(alice)
	p := e.connect(tok)
	if !e.api.Online(guild, alice.ID) {
		t.Fatal("alice's program is connected but not online")
	}
	if r := e.do(alice, "dm", "token", "revoke"); !strings.Contains(r.Text, "revoked") {
		t.Fatalf("/token revoke answered %q", r.Text)
	}
	if code, m := e.get("/api/v1/me", tok); code != http.StatusUnauthorized || m.Code != "unauthorized" {
		t.Errorf("/api/v1/me after revoke = %d %+v; want 401 unauthorized", code, m)
	}
	if _, resp, err := e.dial(tok); err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the stream opened with a revoked token (err %v)", err)
	}
	m := p.next(func(m api.Message) bool { return m.Type == "error" })
	if m.Code != "revoked" {
		t.Errorf("the open stream got %+v; want a revoked error", m)
	}
	if r := e.do(alice, "dm", "token", "revoke"); !strings.Contains(r.Text, "no program token") {
		t.Errorf("a second revoke answered %q", r.Text)
	}
	for _, bad := range []string{"", "Bearer", "Bearer arb_nope", "Basic xyz"} {
		req, _ := http.NewRequest("GET", e.http.URL+"/api/v1/me", nil)
		req.Header.Set("Authorization", bad)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("Authorization %q: %d; want 401", bad, resp.StatusCode)
		}
	}
}

// startProgramGame has bob challenge alice's program to Sixes in channel
// and alice's program accept; it returns the game after acceptance.
func startProgramGame(t *testing.T, e *env, p *program, channel string) *api.GameState {
	t.Helper()
	r := e.do(bob, channel, "play", "", "game", "sixes", "opponent", alice.ID, "program", "true", "side", "first")
	if r.Private || !strings.Contains(r.Text, "alice (program)") {
		t.Fatalf("/play program:true answered %q", r.Text)
	}
	g := e.load(channel)
	st := p.gameMsg(g.ID, g.Version)
	if st.Status != "challenge" || st.Seat != 2 {
		t.Fatalf("the program was sent %+v; want a challenge with it in seat 2", st)
	}
	if a := p.send(`{"type":"accept","id":"a1","channel":"` + channel + `","gameId":"` + g.ID + `"}`); a.Type != "ok" || a.Ref != "a1" {
		t.Fatalf("accept answered %+v", a)
	}
	if r := e.do(bob, channel, "move", "", "move", "a2 a3"); r.Private {
		t.Fatalf("bob's move refused: %q", r.Text)
	}
	st = p.gameMsg(g.ID, e.load(channel).Version)
	if st.Status != "active" || st.ToMove != 2 || len(st.Moves) != 1 {
		t.Fatalf("after bob's move the program was sent %+v", st)
	}
	return st
}

// TestBadMessagesChangeNothing: every malformed or wrong action gets an
// error naming what is wrong, and the game stays as it was.
func TestBadMessagesChangeNothing(t *testing.T) {
	e := newEnv(t)
	p := e.connect(e.token(alice))
	st := startProgramGame(t, e, p, "c1")
	before := e.load("c1").Version
	at := `"channel":"c1","gameId":"` + st.ID + `"`
	tests := []struct{ msg, code, says string }{
		{`{"type":"move",`, "bad_json", "JSON"},
		{`[1,2]`, "bad_json", "JSON"},
		{`{"type":"move","id":"x"} {"type":"move"}`, "bad_json", "one JSON object"},
		{`{"type":"move","bogus":1}`, "bad_json", "bogus"},
		{`{"id":"x"}`, "bad_message", `"type"`},
		{`{"type":"castle",` + at + `}`, "unknown_type", "castle"},
		{`{"type":"move"}`, "bad_message", "channel"},
		{`{"type":"move",` + at + `}`, "bad_message", `"move"`},
		{`{"type":"move",` + at + `,"move":"z9 z8"}`, "illegal", "z9"},
		{`{"type":"move",` + at + `,"move":"f1 c1"}`, "illegal", "f1"},
		{`{"type":"move","channel":"c1","gameId":"999","move":"f1 f2"}`, "not_found", "999"},
		{`{"type":"move","channel":"nowhere","gameId":"` + st.ID + `","move":"f1 f2"}`, "not_found", "nowhere"},
		{`{"type":"move",` + at + `,"version":1,"move":"f1 f2"}`, "stale", "version"},
		{`{"type":"accept",` + at + `}`, "bad_request", "no challenge"},
	}
	for _, tc := range tests {
		m := p.send(tc.msg)
		if m.Type != "error" || m.Code != tc.code || !strings.Contains(m.Error, tc.says) {
			t.Errorf("%s\n  answered %+v; want %s saying %q", tc.msg, m, tc.code, tc.says)
		}
	}
	if err := p.conn.WriteMessage(2, []byte("binary")); err == nil {
		if m := p.next(func(m api.Message) bool { return m.Type == "error" }); m.Code != "bad_message" {
			t.Errorf("a binary frame answered %+v", m)
		}
	}
	if g := e.load("c1"); g.Version != before || len(g.Moves) != 1 {
		t.Fatalf("bad messages changed the game: version %d→%d, %d moves", before, g.Version, len(g.Moves))
	}
	if m := p.send(`{"type":"move","id":"m1",` + at + `,"move":"` + firstMove(t, e, "c1") + `"}`); m.Type != "ok" {
		t.Fatalf("a good move after the bad ones: %+v", m)
	}
	g := e.load("c1")
	if len(g.Moves) != 2 || g.Moves[1].Seat != 1 || g.Moves[1].By != "" {
		t.Errorf("the program's move is recorded as %+v", g.Moves)
	}
	if m := p.send(`{"type":"move",` + at + `,"move":"a3 a4"}`); m.Code != "not_your_turn" {
		t.Errorf("a move out of turn answered %+v", m)
	}
	// An oversized message closes the stream (the websocket's own error).
	big := `{"type":"move",` + at + `,"move":"` + strings.Repeat("x", api.MaxMessage) + `"}`
	_ = p.conn.WriteMessage(1, []byte(big))
	_ = p.conn.SetReadDeadline(time.Now().Add(streamHang))
	for {
		if _, _, err := p.conn.ReadMessage(); err != nil {
			if ne := net.Error(nil); errors.As(err, &ne) && ne.Timeout() {
				t.Fatalf("the oversized message left the stream open: %v", err)
			}
			break
		}
	}
	if g2 := e.load("c1"); g2.Version != g.Version {
		t.Errorf("the oversized message changed the game")
	}
}

// firstMove is the first legal move in channel's game.
func firstMove(t *testing.T, e *env, channel string) string {
	t.Helper()
	r := e.do(carol, channel, "moves", "")
	_, rest, _ := strings.Cut(r.Text, "\n")
	first, _, _ := strings.Cut(rest, ",")
	return strings.TrimSpace(first)
}

// TestTokenActsOnlyForItsOwner: alice's token cannot act in a game of
// bob's program, and alice cannot move for her program through Discord.
func TestTokenActsOnlyForItsOwner(t *testing.T) {
	e := newEnv(t)
	pa := e.connect(e.token(alice))
	st := startProgramGame(t, e, pa, "c1")
	pc := e.connect(e.token(carol))
	before := e.load("c1").Version
	m := pc.send(`{"type":"move","channel":"c1","gameId":"` + st.ID + `","move":"f1 f2"}`)
	if m.Code != "not_yours" {
		t.Errorf("carol's token moving in alice's program's game answered %+v", m)
	}
	m = pc.send(`{"type":"resign","channel":"c1","gameId":"` + st.ID + `"}`)
	if m.Code != "not_yours" {
		t.Errorf("carol's token resigning answered %+v", m)
	}
	if r := e.do(alice, "c1", "move", "", "move", firstMove(t, e, "c1")); !r.Private {
		t.Errorf("alice moved for her program through a command: %q", r.Text)
	}
	if g := e.load("c1"); g.Version != before {
		t.Errorf("the game changed: version %d→%d", before, g.Version)
	}
}

// TestChallengeToAProgram: a challenge to a program whose bridge is not
// connected says so; the program game is rated apart from the person.
func TestChallengeToAProgram(t *testing.T) {
	e := newEnv(t)
	r := e.do(bob, "c1", "play", "", "game", "sixes", "opponent", alice.ID, "program", "true")
	if !strings.Contains(r.Text, "alice (program) is offline") {
		t.Errorf("a challenge to an offline program says %q", r.Text)
	}
	e.do(bob, "c1", "decline", "")
	p := e.connect(e.token(alice))
	st := startProgramGame(t, e, p, "c2")
	if strings.Contains(strings.Join(e.posts.msgs, "\n"), "offline") {
		t.Errorf("a challenge to a connected program said offline")
	}
	if m := p.send(`{"type":"resign","channel":"c2","gameId":"` + st.ID + `"}`); m.Type != "ok" {
		t.Fatalf("resign: %+v", m)
	}
	fin := p.next(func(m api.Message) bool { return m.Type == "game" && m.Game.Status == "finished" }).Game
	if fin.Status != "finished" || fin.Result != "loss" {
		t.Errorf("after resigning the program was sent %+v", fin)
	}
	rs, err := e.st.Ratings(context.Background(), guild, "sixes", "program:"+alice.ID, alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rs[0].Games != 1 || rs[1].Games != 0 {
		t.Errorf("ratings: program %+v, alice %+v; want the game on the program only", rs[0], rs[1])
	}
	_ = store.Program
}

// TestProgramPlaysTheBotAndAProgram: program:true without an opponent has
// the invoker's program play the bot; myprogram:true with program:true
// has it challenge another student's program.
func TestProgramPlaysTheBotAndAProgram(t *testing.T) {
	e := newEnv(t)
	pa := e.connect(e.token(alice))
	pb := e.connect(e.token(bob))
	if r := e.do(alice, "c3", "play", "", "game", "sixes", "program", "true", "side", "first"); r.Private || !strings.Contains(r.Text, "alice (program)") {
		t.Fatalf("/play program:true answered %q", r.Text)
	}
	g := e.load("c3")
	st := pa.gameMsg(g.ID, g.Version)
	if st.Status != "active" || st.Seat != 1 || st.ToMove != 1 || st.Players[1] != "Arbiter (level 3)" {
		t.Fatalf("the program was sent %+v", st)
	}
	if m := pa.send(`{"type":"move","channel":"c3","gameId":"` + g.ID + `","version":` + fmt.Sprint(st.Version) + `,"move":"a2 a3"}`); m.Type != "ok" {
		t.Fatalf("the program's move against the bot: %+v", m)
	}
	job, err := e.st.ClaimBotTurn(context.Background(), "test", time.Second)
	if err != nil || job.Channel != "c3" {
		t.Fatalf("the bot's turn after the program's move: %+v, %v", job, err)
	}

	r := e.do(alice, "c4", "play", "", "game", "sixes", "opponent", bob.ID, "program", "true", "myprogram", "true")
	if r.Private || !strings.Contains(r.Text, "alice (program) challenges bob (program)") {
		t.Fatalf("/play program:true myprogram:true answered %q", r.Text)
	}
	g = e.load("c4")
	if st := pb.gameMsg(g.ID, g.Version); st.Status != "challenge" || st.Seat != 2 {
		t.Fatalf("bob's program was sent %+v", st)
	}
	if m := pb.send(`{"type":"accept","channel":"c4","gameId":"` + g.ID + `"}`); m.Type != "ok" {
		t.Fatalf("accept: %+v", m)
	}
	st = pa.gameMsg(g.ID, g.Version+1)
	if st.Status != "active" || st.Seat != 1 || st.ToMove != 1 || st.Players != [2]string{"alice (program)", "bob (program)"} {
		t.Errorf("alice's program was sent %+v", st)
	}
}

// TestProgramTimesOut: a program that does not move by its deadline
// loses on time, as a person does (its turn is not taken for a lost bot
// turn), and its stream is told.
func TestProgramTimesOut(t *testing.T) {
	e := newEnv(t)
	p := e.connect(e.token(alice))
	st := startProgramGame(t, e, p, "c1")
	g := e.load("c1")
	if g.Deadline.Sub(e.clock.Now()) < 24*time.Hour {
		t.Fatalf("the program's deadline is %v; want a person's turn time", g.Deadline)
	}
	e.clock.Advance(3 * 24 * time.Hour)
	if err := e.svc.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	fin := p.next(func(m api.Message) bool { return m.Type == "game" && m.Game.Status == "finished" }).Game
	if fin.ID != st.ID || fin.Result != "loss" || !strings.Contains(fin.Reason, "ran out of time") {
		t.Errorf("after the deadline the program was sent %+v", fin)
	}
}

// TestStreamSaysSyncedAfterItsGames: a stream opened while its program
// has a game going on sends hello, the game, then synced, once.
func TestStreamSaysSyncedAfterItsGames(t *testing.T) {
	e := newEnv(t)
	tok := e.token(alice)
	first := e.connect(tok)
	st := startProgramGame(t, e, first, "c1")
	_ = first.conn.Close()
	conn, _, err := e.dial(tok)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var types []string
	for len(types) < 3 {
		_ = conn.SetReadDeadline(time.Now().Add(streamHang))
		var m api.Message
		if err := conn.ReadJSON(&m); err != nil {
			t.Fatalf("after %v: %v", types, err)
		}
		if m.Type == "game" && m.Game.ID != st.ID {
			t.Fatalf("sent game %s; only %s goes on", m.Game.ID, st.ID)
		}
		types = append(types, m.Type)
	}
	if want := []string{"hello", "game", "synced"}; !slices.Equal(types, want) {
		t.Errorf("the stream began %v; want %v", types, want)
	}
}

// TestStreamSendsTheResultOfAGameThatEndedUnseen: a game that ends
// without its stream being told at once (its push dropped on a full queue,
// or the poll's resync first) is sent with its result at the next resync,
// not as "gone", which is for a game that cannot be found.
func TestStreamSendsTheResultOfAGameThatEndedUnseen(t *testing.T) {
	e := newEnv(t)
	p := e.connect(e.token(alice))
	st := startProgramGame(t, e, p, "c1")
	g := e.load("c1")
	g.Status, g.Result, g.Reason = store.Finished, rules.P1Wins, "bob wins on the board"
	// Saved past the game flow, as another process would: this process's
	// streams are not pushed the game, and learn of it at their next poll.
	if err := e.st.Save(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	m := p.next(func(m api.Message) bool {
		return m.Type == "gone" && m.GameID == st.ID || m.Type == "game" && m.Game.ID == st.ID && m.Game.Status == "finished"
	})
	if m.Type != "game" || m.Game.Result != "loss" || m.Game.Reason != "bob wins on the board" {
		t.Errorf("the game that ended unseen was sent as %+v (game %+v)", m, m.Game)
	}
}
