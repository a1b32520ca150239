package discordtest_test

import (
	"encoding/json"
	"testing"
	"time"

	"arbiter/bot/discordtest"

	"github.com/gorilla/websocket"
)

// frame is a gateway payload as a raw client sees it.
type rawFrame struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  int64           `json:"s"`
	T  string          `json:"t"`
}

// dial opens a raw gateway connection to url and reads HELLO.
func dialRaw(t *testing.T, srv *discordtest.Server, url string) *websocket.Conn {
	t.Helper()
	ws, _, err := srv.Dialer().Dial(url+"?v=10&encoding=json", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	if f := readRaw(t, ws); f.Op != 10 {
		t.Fatalf("first frame op %d, want HELLO", f.Op)
	}
	return ws
}

func readRaw(t *testing.T, ws *websocket.Conn) rawFrame {
	t.Helper()
	_ = ws.SetReadDeadline(time.Now().Add(hang))
	var f rawFrame
	if err := ws.ReadJSON(&f); err != nil {
		t.Fatalf("read gateway frame: %v", err)
	}
	return f
}

func sendRaw(t *testing.T, ws *websocket.Conn, op int, d any) {
	t.Helper()
	if err := ws.WriteJSON(map[string]any{"op": op, "d": d}); err != nil {
		t.Fatal(err)
	}
}

// TestZombieConnectionAndResumeURL: events/gateway.mdx. READY names a
// resume_gateway_url distinct from the connecting URL; a connection whose
// heartbeats stop being ACKed (StopHeartbeatAcks) also stops carrying
// dispatches; a RESUME on the resume URL gets the missed events, then
// RESUMED, and counts as resumed there.
func TestZombieConnectionAndResumeURL(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	ws := dialRaw(t, srv, srv.GatewayURL())
	sendRaw(t, ws, 2, map[string]any{"token": "Bot " + token, "intents": discordtest.IntentGuilds, "properties": map[string]string{"os": "linux"}})
	ready := readRaw(t, ws)
	var r struct {
		SessionID string `json:"session_id"`
		ResumeURL string `json:"resume_gateway_url"`
	}
	if err := json.Unmarshal(ready.D, &r); err != nil || ready.T != "READY" {
		t.Fatalf("READY = %+v, %v", ready, err)
	}
	if r.ResumeURL == srv.GatewayURL() || r.ResumeURL != srv.ResumeGatewayURL() {
		t.Fatalf("resume_gateway_url %q, want one distinct from %q", r.ResumeURL, srv.GatewayURL())
	}
	seq := ready.S
	for f := readRaw(t, ws); f.T == "GUILD_CREATE"; f = readRaw(t, ws) {
		seq = f.S
		sendRaw(t, ws, 1, seq)
	}
	// (The loop ends on the ACK of its heartbeat.)

	srv.StopHeartbeatAcks()
	sendRaw(t, ws, 1, seq)
	th, err := srv.StartThread(srv.Guild().OwnerID, srv.Guild().DefaultChannelID, "while dead", false)
	if err != nil {
		t.Fatal(err)
	}
	_ = ws.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	var f rawFrame
	if err := ws.ReadJSON(&f); err == nil {
		t.Fatalf("a zombie connection carried %+v", f)
	}

	again := dialRaw(t, srv, r.ResumeURL)
	sendRaw(t, again, 6, map[string]any{"token": "Bot " + token, "session_id": r.SessionID, "seq": seq})
	replayed := readRaw(t, again)
	if replayed.T != "THREAD_CREATE" || !json.Valid(replayed.D) || string(replayed.D) == "" {
		t.Fatalf("first frame after RESUME = %+v, want the missed THREAD_CREATE", replayed)
	}
	var created struct{ ID string }
	_ = json.Unmarshal(replayed.D, &created)
	if created.ID != th.ID {
		t.Errorf("replayed thread %s, want %s", created.ID, th.ID)
	}
	if f := readRaw(t, again); f.T != "RESUMED" {
		t.Fatalf("then %+v, want RESUMED", f)
	}
	ss := srv.Sessions()
	if len(ss) != 1 || ss[0].Resumes != 1 || ss[0].ResumesOffURL != 0 || !ss[0].Connected {
		t.Fatalf("sessions = %+v, want one resumed on the resume URL", ss)
	}
	sendRaw(t, again, 1, seq+1)
	if f := readRaw(t, again); f.Op != 11 {
		t.Fatalf("heartbeat on the new connection answered %+v, want an ACK", f)
	}
}

// TestResumeRules: events/gateway.mdx, "Preparing to Resume". A RESUME on
// the connecting URL instead of resume_gateway_url is served but recorded
// as a breach; a session that expired while disconnected (ExpireSessions)
// answers RESUME with INVALID_SESSION, d = false.
func TestResumeRules(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	identify := func() (sessionID string, seq int64) {
		ws := dialRaw(t, srv, srv.GatewayURL())
		sendRaw(t, ws, 2, map[string]any{"token": "Bot " + token, "intents": discordtest.IntentGuilds, "properties": map[string]string{"os": "linux"}})
		ready := readRaw(t, ws)
		var r struct {
			SessionID string `json:"session_id"`
		}
		if err := json.Unmarshal(ready.D, &r); err != nil || ready.T != "READY" {
			t.Fatalf("READY = %+v, %v", ready, err)
		}
		ws.Close()
		return r.SessionID, ready.S
	}
	id, seq := identify()
	if _, err := srv.WaitForSession(testContext(t), func(s discordtest.Session) bool { return s.ID == id && !s.Connected }); err != nil {
		t.Fatal(err)
	}
	before := len(srv.Violations())
	off := dialRaw(t, srv, srv.GatewayURL())
	sendRaw(t, off, 6, map[string]any{"token": "Bot " + token, "session_id": id, "seq": seq})
	for f := readRaw(t, off); f.T != "RESUMED"; f = readRaw(t, off) {
	}
	if ss := srv.Sessions(); ss[0].ResumesOffURL != 1 {
		t.Fatalf("sessions = %+v, want one resume off the resume URL", ss)
	}
	expectViolation(t, srv, before, "gateway")
	off.Close()

	id, seq = identify()
	if _, err := srv.WaitForSession(testContext(t), func(s discordtest.Session) bool { return s.ID == id && !s.Connected }); err != nil {
		t.Fatal(err)
	}
	srv.ExpireSessions()
	ws := dialRaw(t, srv, srv.ResumeGatewayURL())
	sendRaw(t, ws, 6, map[string]any{"token": "Bot " + token, "session_id": id, "seq": seq})
	if f := readRaw(t, ws); f.Op != 9 || string(f.D) != "false" {
		t.Fatalf("RESUME of an expired session answered %+v, want op 9 false", f)
	}
}
