package discordtest_test

import (
	"bytes"
	"compress/zlib"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"time"

	"arbiter/bot/discordtest"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

type frame struct {
	Op int             `json:"op"`
	S  *int64          `json:"s"`
	T  *string         `json:"t"`
	D  json.RawMessage `json:"d"`
}

func (f frame) typ() string {
	if f.T == nil {
		return ""
	}
	return *f.T
}

// dial opens a raw gateway connection and reads HELLO.
func dial(t *testing.T, srv *discordtest.Server) *websocket.Conn {
	t.Helper()
	ws, _, err := srv.Dialer().Dial(srv.GatewayURL()+"/?v=9&encoding=json", nil)
	if err != nil {
		t.Fatalf("dial gateway: %v", err)
	}
	t.Cleanup(func() { ws.Close() })
	hello := read(t, ws)
	var d struct {
		HeartbeatInterval int `json:"heartbeat_interval"`
	}
	if hello.Op != 10 || json.Unmarshal(hello.D, &d) != nil || d.HeartbeatInterval <= 0 {
		t.Fatalf("first frame = op %d %s, want HELLO with heartbeat_interval", hello.Op, hello.D)
	}
	return ws
}

func read(t *testing.T, ws *websocket.Conn) frame {
	t.Helper()
	f, err := readFrame(ws)
	if err != nil {
		t.Fatalf("read gateway frame: %v", err)
	}
	return f
}

func readFrame(ws *websocket.Conn) (frame, error) {
	_ = ws.SetReadDeadline(time.Now().Add(hang))
	mt, data, err := ws.ReadMessage()
	if err != nil {
		return frame{}, err
	}
	if mt == websocket.BinaryMessage {
		zr, err := zlib.NewReader(bytes.NewReader(data))
		if err != nil {
			return frame{}, err
		}
		if data, err = io.ReadAll(zr); err != nil {
			return frame{}, err
		}
	}
	var f frame
	return f, json.Unmarshal(data, &f)
}

// closeCode reads until the server closes and returns its code.
func closeCode(t *testing.T, ws *websocket.Conn) int {
	t.Helper()
	for {
		_, err := readFrame(ws)
		var ce *websocket.CloseError
		if errors.As(err, &ce) {
			return ce.Code
		}
		if err != nil {
			t.Fatalf("want a close frame, got %v", err)
		}
	}
}

func send(t *testing.T, ws *websocket.Conn, op int, d any) {
	t.Helper()
	if err := ws.WriteJSON(map[string]any{"op": op, "d": d}); err != nil {
		t.Fatalf("send op %d: %v", op, err)
	}
}

func identify(t *testing.T, ws *websocket.Conn, intents int) (sessionID string, seq int64) {
	t.Helper()
	send(t, ws, 2, map[string]any{"token": "Bot " + token, "intents": intents, "compress": false, "properties": map[string]string{"os": "linux"}})
	ready := read(t, ws)
	var d struct {
		SessionID        string `json:"session_id"`
		ResumeGatewayURL string `json:"resume_gateway_url"`
		User             struct {
			ID  string `json:"id"`
			Bot bool   `json:"bot"`
		} `json:"user"`
		Application struct {
			ID string `json:"id"`
		} `json:"application"`
		Guilds []struct {
			ID          string `json:"id"`
			Unavailable bool   `json:"unavailable"`
		} `json:"guilds"`
	}
	if ready.Op != 0 || ready.typ() != "READY" || ready.S == nil || *ready.S != 1 || json.Unmarshal(ready.D, &d) != nil {
		t.Fatalf("after IDENTIFY got op %d %s seq %v, want READY seq 1", ready.Op, ready.typ(), ready.S)
	}
	if d.SessionID == "" || d.ResumeGatewayURL == "" || !d.User.Bot || d.Application.ID != d.User.ID || len(d.Guilds) == 0 || !d.Guilds[0].Unavailable {
		t.Fatalf("READY = %s", ready.D)
	}
	return d.SessionID, *ready.S
}

func TestGatewayProtocol(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	rest := newSession(t, srv, 0)
	register(t, srv, rest)
	alice := srv.AddUser("Alice")

	// HELLO, heartbeat and ACK, IDENTIFY and READY, then GUILD_CREATE.
	a := dial(t, srv)
	send(t, a, 1, nil)
	if ack := read(t, a); ack.Op != 11 {
		t.Fatalf("heartbeat answered with op %d, want 11", ack.Op)
	}
	session, _ := identify(t, a, int(discordgo.IntentsGuilds))
	gc := read(t, a)
	if gc.typ() != "GUILD_CREATE" || *gc.S != 2 {
		t.Fatalf("after READY got %s seq %v, want GUILD_CREATE seq 2", gc.typ(), gc.S)
	}
	var guild discordgo.Guild
	if err := json.Unmarshal(gc.D, &guild); err != nil || guild.ID != srv.Guild().ID || len(guild.Channels) == 0 || len(guild.Members) != 1 {
		t.Fatalf("GUILD_CREATE = %+v, %v", guild, err)
	}

	// A client close other than 1000/1001 keeps the session resumable;
	// what is dispatched meanwhile is replayed, then RESUMED.
	if err := a.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(4000, "bye")); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.WaitForSession(testContext(t), func(s discordtest.Session) bool { return s.ID == session && !s.Connected }); err != nil {
		t.Fatal(err)
	}
	in, err := srv.SendCommand(alice.ID, "", "ping", discordtest.Option{Name: "word", Value: "x"})
	if err != nil {
		t.Fatal(err)
	}
	b := dial(t, srv)
	send(t, b, 6, map[string]any{"token": "Bot " + token, "session_id": session, "seq": 2})
	replayed := read(t, b)
	if replayed.typ() != "INTERACTION_CREATE" || *replayed.S != 3 || !bytes.Contains(replayed.D, []byte(in.ID)) {
		t.Fatalf("after RESUME got %s seq %v, want the missed INTERACTION_CREATE seq 3", replayed.typ(), replayed.S)
	}
	if resumed := read(t, b); resumed.typ() != "RESUMED" || *resumed.S != 4 {
		t.Fatalf("got %s seq %v, want RESUMED seq 4", resumed.typ(), resumed.S)
	}
	send(t, b, 2, map[string]any{"token": "Bot " + token, "intents": 1})
	if code := closeCode(t, b); code != 4005 {
		t.Fatalf("second IDENTIFY: close %d, want 4005", code)
	}

	// The session was closed by the server with an error, so it can still
	// be resumed; a client close with 1000 ends it.
	c := dial(t, srv)
	send(t, c, 6, map[string]any{"token": "Bot " + token, "session_id": session, "seq": 4})
	if resumed := read(t, c); resumed.typ() != "RESUMED" {
		t.Fatalf("got %s, want RESUMED", resumed.typ())
	}
	if err := c.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, "")); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.WaitForSession(testContext(t), func(s discordtest.Session) bool { return s.ID == session && s.Invalid }); err != nil {
		t.Fatal(err)
	}
	d := dial(t, srv)
	send(t, d, 6, map[string]any{"token": "Bot " + token, "session_id": session, "seq": 5})
	invalid := read(t, d)
	if invalid.Op != 9 || string(invalid.D) != "false" {
		t.Fatalf("RESUME of an ended session got op %d %s, want op 9 false", invalid.Op, invalid.D)
	}
	// The same connection may identify afresh.
	if fresh, _ := identify(t, d, 0); fresh == session {
		t.Fatal("re-identify reused the ended session")
	}
	send(t, d, 42, nil)
	if code := closeCode(t, d); code != 4001 {
		t.Fatalf("unknown opcode: close %d, want 4001", code)
	}
}

func TestGatewayRefusals(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	tests := []struct {
		name string
		d    map[string]any
		code int
	}{
		{"wrong token", map[string]any{"token": "Bot nope", "intents": 1}, 4004},
		{"no intents", map[string]any{"token": "Bot " + token}, 4013},
		{"privileged GUILD_MEMBERS", map[string]any{"token": "Bot " + token, "intents": 1 << 1}, 4014},
		{"bad shard", map[string]any{"token": "Bot " + token, "intents": 1, "shard": []int{2, 2}}, 4010},
	}
	for _, tc := range tests {
		ws := dial(t, srv)
		send(t, ws, 2, tc.d)
		if code := closeCode(t, ws); code != tc.code {
			t.Errorf("%s: close %d, want %d", tc.name, code, tc.code)
		}
	}
	if n := len(srv.Violations()); n != len(tests) {
		t.Errorf("%d violations, want %d:\n%v", n, len(tests), srv.Violations())
	}
}

func TestGatewayClosesSilentClient(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token, HeartbeatInterval: 100 * time.Millisecond})
	ws := dial(t, srv)
	identify(t, ws, 0)
	if code := closeCode(t, ws); code != 4009 {
		t.Fatalf("silent client: close %d, want 4009 session timed out", code)
	}
}

func TestDiscordgoHeartbeats(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token, HeartbeatInterval: 100 * time.Millisecond})
	s := newSession(t, srv, 0)
	open(t, srv, s)
	ctx := testContext(t)
	heartbeats := 0
	_, err := srv.WaitForGateway(ctx, func(e discordtest.GatewayEvent) bool {
		if e.FromClient && e.Op == 1 {
			heartbeats++
		}
		return heartbeats >= 3
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.WaitForGateway(ctx, func(e discordtest.GatewayEvent) bool { return e.Op == 11 }); err != nil {
		t.Fatal(err)
	}
	if ss := srv.Sessions(); len(ss) != 1 || !ss[0].Connected || ss[0].Resumes != 0 {
		t.Fatalf("sessions = %+v, want one steady session", ss)
	}
}

func TestSessionCloseThenReopen(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, discordgo.IntentsGuilds)
	open(t, srv, s)
	first := srv.Sessions()[0].ID
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Close sends 1000, which ends the session. discordgo would still
	// RESUME on the same session's next Open, be told op 9 inside Open,
	// and deadlock there (see the package doc), so a new one identifies.
	s = newSession(t, srv, discordgo.IntentsGuilds)
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	ss, err := srv.WaitConnected(testContext(t))
	if err != nil || ss.ID == first {
		t.Fatalf("after reopen: session %+v, %v; want a new one", ss, err)
	}
	if all := srv.Sessions(); len(all) != 2 || !all[0].Invalid || all[1].ID != ss.ID {
		t.Fatalf("sessions = %+v", all)
	}
	noViolations(t, srv)
}
