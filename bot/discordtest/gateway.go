package discordtest

import (
	"bytes"
	"compress/zlib"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/websocket"
)

// Gateway opcodes.
const (
	opDispatch       = 0
	opHeartbeat      = 1
	opIdentify       = 2
	opPresenceUpdate = 3
	opVoiceState     = 4
	opResume         = 6
	opReconnect      = 7
	opRequestMembers = 8
	opInvalidSession = 9
	opHello          = 10
	opHeartbeatACK   = 11
)

// Gateway close codes the fake sends.
const (
	closeUnknownError         = 4000
	closeUnknownOpcode        = 4001
	closeDecodeError          = 4002
	closeNotAuthenticated     = 4003
	closeAuthenticationFailed = 4004
	closeAlreadyAuthenticated = 4005
	closeSessionTimedOut      = 4009
	closeInvalidShard         = 4010
	closeInvalidAPIVersion    = 4012
	closeInvalidIntents       = 4013
	closeDisallowedIntents    = 4014
)

// resumePath is where READY's resume_gateway_url points: a URL distinct
// from the one GET /gateway names, as Discord's is (events/gateway.mdx,
// "Ready Event", "Resuming").
const resumePath = "/resume-gateway"

type gwConn struct {
	id int
	// resumeURL: the connection was opened on resume_gateway_url.
	resumeURL bool
	// zombie: the server stopped answering on it (StopHeartbeatAcks): no
	// heartbeat ACK, no dispatch; events wait for a RESUME elsewhere.
	zombie     bool
	ws         *websocket.Conn
	out        chan outFrame
	closed     bool // out is closed
	session    *sessionRec
	compress   bool
	heartbeats int
}

type outFrame struct {
	data      []byte
	binary    bool // zlib-compress into a binary frame
	closeCode int
	closeText string
	drop      bool // close the TCP connection without a close frame
}

type storedEvent struct {
	seq   int64
	frame []byte
}

type sessionRec struct {
	id       string
	shard    [2]int
	intents  int
	compress bool
	seq      int64
	resumes  int
	// resumesOffURL counts RESUMEs sent on a connection not opened on
	// resume_gateway_url, which Discord says to use.
	resumesOffURL int
	invalid       bool
	events        []storedEvent
	conn          *gwConn
}

type gatewayFrame struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  *int64          `json:"s"`
	T  *string         `json:"t"`
}

func (s *Server) sessionsLocked() []Session {
	out := make([]Session, 0, len(s.sessOrder))
	for _, ss := range s.sessOrder {
		out = append(out, Session{
			ID: ss.id, Shard: ss.shard, Intents: ss.intents, Compress: ss.compress,
			Connected: ss.conn != nil, Invalid: ss.invalid, Seq: ss.seq, Resumes: ss.resumes,
			ResumesOffURL: ss.resumesOffURL,
		})
		if ss.conn != nil {
			out[len(out)-1].Heartbeats = ss.conn.heartbeats
		}
	}
	return out
}

// shardOf is Discord's sharding formula: (guild_id >> 22) % num_shards;
// DMs go to shard 0.
func shardOf(guildID string, count int) int {
	if guildID == "" || count <= 1 {
		return 0
	}
	id, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil {
		return 0
	}
	return int((id >> 22) % uint64(count))
}

// routeSessionsLocked lists the valid sessions that receive a guild's
// events, connected or waiting to resume.
func (s *Server) routeSessionsLocked(guildID string) []*sessionRec {
	var out []*sessionRec
	for _, ss := range s.sessOrder {
		if !ss.invalid && shardOf(guildID, ss.shard[1]) == ss.shard[0] {
			out = append(out, ss)
		}
	}
	return out
}

// dispatchGuildLocked dispatches an event for a guild to the sessions that
// asked for intent (0 means no intent needed).
func (s *Server) dispatchGuildLocked(guildID string, intent int, event string, data any) {
	raw, err := json.Marshal(data)
	if err != nil {
		s.log.Error("discordtest: encode event", "event", event, "err", err)
		return
	}
	for _, ss := range s.routeSessionsLocked(guildID) {
		if intent == 0 || ss.intents&intent != 0 {
			s.dispatchRawLocked(ss, event, raw)
		}
	}
}

// dispatchRawLocked numbers an event, keeps it for RESUME and sends it if
// the session is connected.
func (s *Server) dispatchRawLocked(ss *sessionRec, event string, data []byte) {
	ss.seq++
	seq := ss.seq
	frame, _ := json.Marshal(gatewayFrame{Op: opDispatch, D: data, S: &seq, T: &event})
	ss.events = append(ss.events, storedEvent{seq: seq, frame: frame})
	if len(ss.events) > sessionBufferSize {
		ss.events = slices.Delete(ss.events, 0, len(ss.events)-sessionBufferSize)
	}
	connID := 0
	if ss.conn != nil && !ss.conn.zombie {
		connID = ss.conn.id
		s.sendLocked(ss.conn, outFrame{data: frame, binary: ss.conn.compress})
	}
	s.gwLog = append(s.gwLog, GatewayEvent{At: s.nowLocked(), ConnID: connID, SessionID: ss.id, Op: opDispatch, Type: event, Seq: seq, Data: data})
}

// sendOpLocked sends a non-dispatch payload.
func (s *Server) sendOpLocked(c *gwConn, op int, d any) {
	raw, _ := json.Marshal(d)
	frame, _ := json.Marshal(gatewayFrame{Op: op, D: raw})
	sessionID := ""
	if c.session != nil {
		sessionID = c.session.id
	}
	s.gwLog = append(s.gwLog, GatewayEvent{At: s.nowLocked(), ConnID: c.id, SessionID: sessionID, Op: op, Data: raw})
	s.sendLocked(c, outFrame{data: frame, binary: c.compress})
}

func (s *Server) sendLocked(c *gwConn, f outFrame) {
	if c.closed {
		return
	}
	select {
	case c.out <- f:
	default:
		s.log.Warn("discordtest: gateway client too slow, dropping connection", "conn", c.id)
		s.closeOutLocked(c)
	}
}

// closeConnLocked sends a close frame with a code and ends the connection.
func (s *Server) closeConnLocked(c *gwConn, code int, text string) {
	sessionID := ""
	if c.session != nil {
		sessionID = c.session.id
	}
	s.gwLog = append(s.gwLog, GatewayEvent{At: s.nowLocked(), ConnID: c.id, SessionID: sessionID, Op: -1, CloseCode: code, Data: json.RawMessage(strconv.Quote(text))})
	s.detachLocked(c)
	s.sendLocked(c, outFrame{closeCode: code, closeText: text})
	s.closeOutLocked(c)
}

func (s *Server) closeOutLocked(c *gwConn) {
	if !c.closed {
		c.closed = true
		close(c.out)
	}
}

func (s *Server) detachLocked(c *gwConn) {
	if c.session != nil && c.session.conn == c {
		c.session.conn = nil
	}
	c.session = nil
}

func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request, resumeURL bool) {
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	ws, err := up.Upgrade(w, r, nil)
	if err != nil {
		s.log.Warn("discordtest: websocket upgrade", "err", err)
		return
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ws.Close()
		return
	}
	s.connSeq++
	c := &gwConn{id: s.connSeq, ws: ws, out: make(chan outFrame, 4096), resumeURL: resumeURL}
	s.conns[c] = struct{}{}
	s.wg.Add(2)
	go s.writeLoop(c)
	query := r.URL.Query()
	switch {
	case query.Get("encoding") != "" && query.Get("encoding") != "json":
		s.violateLocked("unsupported", "gateway: encoding %q is not modelled (use json)", query.Get("encoding"))
		s.closeConnLocked(c, closeDecodeError, "Error while decoding payload.")
	case query.Get("v") != "" && query.Get("v") != "9" && query.Get("v") != "10":
		s.violateLocked("gateway", "gateway version %q is not served (use 9 or 10)", query.Get("v"))
		s.closeConnLocked(c, closeInvalidAPIVersion, "Invalid API version.")
	case query.Get("compress") != "":
		s.violateLocked("unsupported", "gateway: transport compression %q is not modelled", query.Get("compress"))
		s.closeConnLocked(c, closeDecodeError, "Error while decoding payload.")
	default:
		s.sendOpLocked(c, opHello, map[string]any{
			"heartbeat_interval": s.opts.HeartbeatInterval.Milliseconds(),
			"_trace":             []string{"[\"discordtest\"]"},
		})
	}
	s.notifyLocked()
	s.mu.Unlock()
	s.readLoop(c)
}

// writeLoop writes a connection's frames in order. With compression, each
// payload is one complete zlib stream, as Discord's payload compression
// (IDENTIFY "compress": true) sends it.
func (s *Server) writeLoop(c *gwConn) {
	defer s.wg.Done()
	defer c.ws.Close()
	dead := false
	var (
		buf bytes.Buffer
		zw  = zlib.NewWriter(&buf)
	)
	for f := range c.out {
		if dead {
			continue
		}
		switch {
		case f.drop:
			c.ws.Close()
			dead = true
		case f.closeCode != 0:
			_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(f.closeCode, f.closeText), time.Now().Add(time.Second))
			c.ws.Close()
			dead = true
		default:
			_ = c.ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
			mt, data := websocket.TextMessage, f.data
			if f.binary {
				buf.Reset()
				zw.Reset(&buf)
				_, _ = zw.Write(f.data)
				_ = zw.Close()
				mt, data = websocket.BinaryMessage, buf.Bytes()
			}
			if err := c.ws.WriteMessage(mt, data); err != nil {
				c.ws.Close()
				dead = true
			}
		}
	}
}

func (s *Server) readLoop(c *gwConn) {
	defer s.wg.Done()
	closeCode := 0
	defer func() {
		s.mu.Lock()
		if ss := c.session; ss != nil && ss.conn == c && (closeCode == websocket.CloseNormalClosure || closeCode == websocket.CloseGoingAway) {
			// Discord ends a session the client closes with 1000 or 1001.
			ss.invalid = true
		}
		s.detachLocked(c)
		s.closeOutLocked(c)
		delete(s.conns, c)
		s.notifyLocked()
		s.mu.Unlock()
		// The writer closes the socket once it has sent what is queued,
		// such as a close frame.
	}()
	silence := 2*s.opts.HeartbeatInterval + time.Second
	for {
		_ = c.ws.SetReadDeadline(time.Now().Add(silence))
		mt, data, err := c.ws.ReadMessage()
		if err != nil {
			var ce *websocket.CloseError
			s.mu.Lock()
			switch {
			case errors.As(err, &ce):
				closeCode = ce.Code
				sessionID := ""
				if c.session != nil {
					sessionID = c.session.id
				}
				s.gwLog = append(s.gwLog, GatewayEvent{At: s.nowLocked(), ConnID: c.id, SessionID: sessionID, FromClient: true, Op: -1, CloseCode: ce.Code, Data: json.RawMessage(strconv.Quote(ce.Text))})
			case isTimeout(err) && !c.closed:
				s.closeConnLocked(c, closeSessionTimedOut, "Session timed out.")
			}
			s.mu.Unlock()
			return
		}
		s.mu.Lock()
		if mt != websocket.TextMessage {
			s.violateLocked("gateway", "conn %d: client sent a binary frame; the gateway takes JSON text", c.id)
			s.closeConnLocked(c, closeDecodeError, "Error while decoding payload.")
		} else {
			s.handleFrameLocked(c, data)
		}
		s.notifyLocked()
		s.mu.Unlock()
	}
}

func isTimeout(err error) bool {
	var ne interface{ Timeout() bool }
	return errors.As(err, &ne) && ne.Timeout()
}

func (s *Server) handleFrameLocked(c *gwConn, data []byte) {
	if c.closed {
		return
	}
	var f gatewayFrame
	if err := json.Unmarshal(data, &f); err != nil {
		s.violateLocked("gateway", "conn %d: undecodable payload: %v", c.id, err)
		s.closeConnLocked(c, closeDecodeError, "Error while decoding payload.")
		return
	}
	sessionID := ""
	if c.session != nil {
		sessionID = c.session.id
	}
	logged := f.D
	if f.Op == opIdentify || f.Op == opResume {
		logged = redactToken(f.D)
	}
	s.gwLog = append(s.gwLog, GatewayEvent{At: s.nowLocked(), ConnID: c.id, SessionID: sessionID, FromClient: true, Op: f.Op, Data: logged})
	switch f.Op {
	case opHeartbeat:
		c.heartbeats++
		if !c.zombie {
			s.sendOpLocked(c, opHeartbeatACK, nil)
		}
	case opIdentify:
		s.identifyLocked(c, f.D)
	case opResume:
		s.resumeLocked(c, f.D)
	case opPresenceUpdate, opVoiceState, opRequestMembers:
		if c.session == nil {
			s.violateLocked("gateway", "conn %d: op %d before IDENTIFY", c.id, f.Op)
			s.closeConnLocked(c, closeNotAuthenticated, "Not authenticated.")
		}
	default:
		s.violateLocked("gateway", "conn %d: unknown opcode %d", c.id, f.Op)
		s.closeConnLocked(c, closeUnknownOpcode, "Unknown opcode.")
	}
}

func redactToken(d json.RawMessage) json.RawMessage {
	var m map[string]any
	if json.Unmarshal(d, &m) != nil {
		return d
	}
	if _, ok := m["token"]; ok {
		m["token"] = "[redacted]"
	}
	out, err := json.Marshal(m)
	if err != nil {
		return d
	}
	return out
}

func (s *Server) tokenOK(token string) bool {
	token = strings.TrimPrefix(token, "Bot ")
	return token != "" && (s.opts.Token == "" || token == s.opts.Token)
}

func (s *Server) identifyLocked(c *gwConn, d json.RawMessage) {
	var id struct {
		Token          string            `json:"token"`
		Intents        *int              `json:"intents"`
		Shard          *[2]int           `json:"shard"`
		Compress       bool              `json:"compress"`
		LargeThreshold int               `json:"large_threshold"`
		Properties     map[string]string `json:"properties"`
	}
	if err := json.Unmarshal(d, &id); err != nil {
		s.violateLocked("gateway", "conn %d: IDENTIFY undecodable: %v", c.id, err)
		s.closeConnLocked(c, closeDecodeError, "Error while decoding payload.")
		return
	}
	rec := Identify{At: s.nowLocked(), ConnID: c.id, Token: "[redacted]", Compress: id.Compress, LargeThreshold: id.LargeThreshold, Properties: id.Properties, Shard: [2]int{0, 1}}
	if id.Intents != nil {
		rec.Intents = *id.Intents
	}
	if id.Shard != nil {
		rec.Shard = *id.Shard
	}
	s.identifies = append(s.identifies, rec)
	refuse := func(code int, text, why string) {
		s.violateLocked("gateway", "conn %d: IDENTIFY refused (%d %s): %s", c.id, code, text, why)
		s.closeConnLocked(c, code, text)
	}
	switch {
	case c.session != nil:
		refuse(closeAlreadyAuthenticated, "Already authenticated.", "this connection already has a session")
		return
	case !s.tokenOK(id.Token):
		refuse(closeAuthenticationFailed, "Authentication failed.", "wrong token")
		return
	case id.Intents == nil || *id.Intents < 0 || *id.Intents >= 1<<26:
		refuse(closeInvalidIntents, "Invalid intent(s).", "intents missing or out of range")
		return
	case *id.Intents&privilegedIntents&^s.opts.PrivilegedIntents != 0:
		refuse(closeDisallowedIntents, "Disallowed intent(s).",
			"privileged intents "+strconv.Itoa(*id.Intents&privilegedIntents&^s.opts.PrivilegedIntents)+" are not enabled for the application")
		return
	case rec.Shard[1] < 1 || rec.Shard[0] < 0 || rec.Shard[0] >= rec.Shard[1]:
		refuse(closeInvalidShard, "Invalid shard.", "shard "+strconv.Itoa(rec.Shard[0])+"/"+strconv.Itoa(rec.Shard[1]))
		return
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	ss := &sessionRec{id: hex.EncodeToString(b), shard: rec.Shard, intents: *id.Intents, compress: id.Compress, conn: c}
	s.sessions[ss.id] = ss
	s.sessOrder = append(s.sessOrder, ss)
	c.session, c.compress = ss, id.Compress
	s.identifies[len(s.identifies)-1].SessionID = ss.id

	var unavailable []map[string]any
	var mine []*guildRec
	for _, gid := range s.guildOrder {
		if shardOf(gid, ss.shard[1]) == ss.shard[0] {
			unavailable = append(unavailable, map[string]any{"id": gid, "unavailable": true})
			mine = append(mine, s.guilds[gid])
		}
	}
	if unavailable == nil {
		unavailable = []map[string]any{}
	}
	ready := map[string]any{
		"v":                       9,
		"user":                    wireSelf{wireUser: userJSON(&s.bot), Verified: true},
		"guilds":                  unavailable,
		"session_id":              ss.id,
		"resume_gateway_url":      s.ResumeGatewayURL(),
		"shard":                   ss.shard,
		"application":             map[string]any{"id": s.opts.AppID, "flags": 0},
		"private_channels":        []any{},
		"relationships":           []any{},
		"presences":               []any{},
		"guild_join_requests":     []any{},
		"geo_ordered_rtc_regions": []any{},
		"user_settings":           map[string]any{},
		"session_type":            "normal",
		"_trace":                  []string{"[\"discordtest\"]"},
	}
	raw, _ := json.Marshal(ready)
	s.dispatchRawLocked(ss, "READY", raw)
	if ss.intents&IntentGuilds != 0 {
		for _, g := range mine {
			gc, _ := json.Marshal(s.guildCreateJSONLocked(g, ss.intents))
			s.dispatchRawLocked(ss, "GUILD_CREATE", gc)
		}
	}
}

func (s *Server) resumeLocked(c *gwConn, d json.RawMessage) {
	var r struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	if err := json.Unmarshal(d, &r); err != nil {
		s.violateLocked("gateway", "conn %d: RESUME undecodable: %v", c.id, err)
		s.closeConnLocked(c, closeDecodeError, "Error while decoding payload.")
		return
	}
	if c.session != nil {
		s.violateLocked("gateway", "conn %d: RESUME on a connection that has a session", c.id)
		s.closeConnLocked(c, closeAlreadyAuthenticated, "Already authenticated.")
		return
	}
	if !s.tokenOK(r.Token) {
		s.violateLocked("gateway", "conn %d: RESUME with a wrong token", c.id)
		s.closeConnLocked(c, closeAuthenticationFailed, "Authentication failed.")
		return
	}
	ss, ok := s.sessions[r.SessionID]
	if !ok || ss.invalid || r.Seq > ss.seq || (len(ss.events) > 0 && ss.events[0].seq > r.Seq+1) {
		// Not resumable: the client must identify anew on this connection.
		s.sendOpLocked(c, opInvalidSession, false)
		return
	}
	if old := ss.conn; old != nil && old != c {
		s.detachLocked(old)
		s.sendLocked(old, outFrame{drop: true})
		s.closeOutLocked(old)
	}
	ss.conn, c.session, c.compress = c, ss, ss.compress
	ss.resumes++
	if !c.resumeURL {
		// events/gateway.mdx, "Preparing to Resume": "your app should
		// open a new connection using resume_gateway_url rather than the
		// URL used to initially connect"; Discord serves such a resume but
		// disconnects it sooner, so the fake records it as a breach.
		ss.resumesOffURL++
		s.violateLocked("gateway", "conn %d: RESUME of session %s not on READY's resume_gateway_url", c.id, ss.id)
	}
	for _, ev := range ss.events {
		if ev.seq > r.Seq {
			s.sendLocked(c, outFrame{data: ev.frame, binary: c.compress})
		}
	}
	s.dispatchRawLocked(ss, "RESUMED", json.RawMessage(`{"_trace":["[\"discordtest\"]"]}`))
}

// RequestReconnect sends RECONNECT (op 7) on every connected session and
// detaches it: events dispatched until the client resumes are kept and
// replayed on RESUME.
func (s *Server) RequestReconnect() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ss := range s.sessOrder {
		if c := ss.conn; c != nil {
			s.sendOpLocked(c, opReconnect, nil)
			s.detachLocked(c)
		}
	}
	s.notifyLocked()
}

// InvalidateSession sends INVALID_SESSION (op 9) with d = resumable on
// every connected session and detaches it. When resumable is false the
// sessions end: their undelivered events are lost and RESUME fails. The
// connection stays open for a new IDENTIFY (discordgo identifies at once,
// whatever d says).
func (s *Server) InvalidateSession(resumable bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ss := range s.sessOrder {
		if c := ss.conn; c != nil {
			s.sendOpLocked(c, opInvalidSession, resumable)
			s.detachLocked(c)
			if !resumable {
				ss.invalid = true
			}
		}
	}
	s.notifyLocked()
}

// ExpireSessions ends every session without a live connection (none, or
// a zombie one from StopHeartbeatAcks), as Discord
// does a few minutes after a disconnect that kept it (events/gateway.mdx,
// "Initiating a Disconnect"): a later RESUME gets INVALID_SESSION (op 9)
// with d = false ("Resuming").
func (s *Server) ExpireSessions() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ss := range s.sessOrder {
		if ss.conn == nil || ss.conn.zombie {
			ss.invalid = true
		}
	}
	s.notifyLocked()
}

// DropConnections closes every gateway connection without a close frame,
// as a network failure would. Sessions stay resumable.
func (s *Server) DropConnections() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		s.detachLocked(c)
		s.sendLocked(c, outFrame{drop: true})
		s.closeOutLocked(c)
	}
	s.notifyLocked()
}

// ResumeGatewayURL is the URL that READY names as resume_gateway_url:
// the same server, another path than GatewayURL.
func (s *Server) ResumeGatewayURL() string { return "ws://" + s.addr + resumePath }

// StopHeartbeatAcks makes every open gateway connection a zombie, as a
// failed network path or a stuck Discord node does: heartbeats get no ACK
// and dispatches stop, though the socket stays open. The events are kept
// for the session and replayed when the client RESUMEs on a new
// connection (events/gateway.mdx, "Heartbeat Interval": a client that
// gets no ACK between two heartbeats must reconnect and resume). New
// connections are served normally.
func (s *Server) StopHeartbeatAcks() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		c.zombie = true
	}
	s.notifyLocked()
}
