package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"arbiter/commands"
	"arbiter/store"

	"github.com/gorilla/websocket"
)

// The stream's timing: a ping every pingEvery; a peer silent for
// pongWait is gone.
const (
	pingEvery = 20 * time.Second
	pongWait  = 60 * time.Second
	writeWait = 10 * time.Second
)

// upgrader accepts a program's websocket. Programs are not browsers: no
// Origin check is needed, and cookies are not used.
var upgrader = websocket.Upgrader{ReadBufferSize: MaxMessage, WriteBufferSize: 16 << 10}

// stream is one connected program.
type stream struct {
	s     *Server
	owner store.TokenOwner
	hash  string // the token's hash, to check it is still valid
	conn  *websocket.Conn

	out  chan Message  // messages to send, from the reader and GameSaved
	wake chan struct{} // a resync is wanted (a message was dropped)
	done chan struct{} // closed by stop
	once sync.Once
	why  Message // the error sent before closing, set by stop
}

// stream upgrades a program's request to its websocket and serves it
// until it closes.
func (s *Server) stream(w http.ResponseWriter, r *http.Request) {
	owner, hash, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader answered the request
	}
	st := &stream{s: s, owner: owner, hash: hash, conn: conn,
		out: make(chan Message, 64), wake: make(chan struct{}, 1), done: make(chan struct{})}
	s.register(st)
	defer s.unregister(st)
	s.log.Info("program connected", "user", owner.User, "name", owner.Name, "remote", r.RemoteAddr)
	defer s.log.Info("program disconnected", "user", owner.User)
	go st.read()
	st.write(r.Context())
	_ = conn.Close()
}

// stop ends the stream, telling the program why.
func (st *stream) stop(code, text string) {
	st.once.Do(func() {
		st.why = Message{Type: "error", Code: code, Error: text}
		close(st.done)
	})
}

// push queues g's state for the program; when the queue is full a
// resync is asked for instead, so GameSaved never blocks.
func (st *stream) push(g *store.Game) {
	seat, ok := commands.ProgramSeat(g, st.owner.User)
	if !ok {
		return
	}
	select {
	case st.out <- Message{Type: "game", Game: gameState(g, seat, st.s.moveTime(g.Name))}:
	default:
		st.signal()
	}
}

// signal asks the writer for a resync.
func (st *stream) signal() {
	select {
	case st.wake <- struct{}{}:
	default:
	}
}

// write is the stream's writer: it sends hello, every game of the
// program, synced, the changes as they come, and a resync every poll,
// which also ends the stream at once when the token is revoked.
func (st *stream) write(ctx context.Context) {
	sent := map[string]int64{}      // version sent, by game id
	channels := map[string]string{} // channel of each game sent
	over := map[string]bool{}       // games sent finished, or gone
	send := func(m Message) bool {
		_ = st.conn.SetWriteDeadline(time.Now().Add(writeWait))
		return st.conn.WriteJSON(m) == nil
	}
	sendGame := func(m Message) bool {
		if m.Game == nil {
			return send(m)
		}
		if m.Game.Version <= sent[m.Game.ID] || over[m.Game.ID] {
			return true // already sent, older than what was, or over
		}
		sent[m.Game.ID] = m.Game.Version
		channels[m.Game.ID] = m.Game.Channel
		if m.Game.Status == "finished" {
			over[m.Game.ID] = true
			defer delete(sent, m.Game.ID)
			defer delete(channels, m.Game.ID)
		}
		return send(m)
	}
	resync := func() bool {
		switch err := st.checkToken(ctx); {
		case errors.Is(err, errRevoked):
			st.stop("revoked", "this token was revoked or replaced; /token in Discord gives a new one")
			return false
		case err != nil:
			st.s.log.Warn("program's token not checked; its games wait for the next poll", "user", st.owner.User, "err", err)
			return true
		}
		games, err := st.s.svc.ProgramGames(ctx, st.owner.Guild, st.owner.User)
		if err != nil {
			st.s.log.Warn("program's games not read", "user", st.owner.User, "err", err)
			return true
		}
		running := map[string]bool{}
		for _, g := range games {
			running[g.ID] = true
			seat, _ := commands.ProgramSeat(g, st.owner.User)
			if !sendGame(Message{Type: "game", Game: gameState(g, seat, st.s.moveTime(g.Name))}) {
				return false
			}
		}
		for id := range sent {
			if !running[id] { // over, and not pushed here
				delete(sent, id)
				ch := channels[id]
				delete(channels, id)
				over[id] = true
				if !send(st.ended(ctx, ch, id)) {
					return false
				}
			}
		}
		return true
	}
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	poll := time.NewTicker(st.s.poll)
	defer poll.Stop()
	if !send(hello(st.owner)) || !resync() || !send(Message{Type: "synced"}) {
		st.finish()
		return
	}
	for {
		ok := true
		select {
		case <-st.done:
			st.finish()
			return
		case <-ctx.Done():
			return
		case m := <-st.out:
			ok = sendGame(m)
		case <-st.wake:
			ok = resync()
		case <-poll.C:
			ok = resync()
		case <-ping.C:
			ok = st.conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeWait)) == nil
		}
		if !ok {
			st.stop("closed", "")
			st.finish()
			return
		}
	}
}

// ended is the message for game id of channel, sent to the program and no
// longer going on: the game with its result when it can be found finished,
// "gone" when it cannot (deleted, or the store does not answer).
func (st *stream) ended(ctx context.Context, channel, id string) Message {
	if g, err := st.s.svc.PlayGame(ctx, st.owner.Guild, channel, id); err == nil && g.Status == store.Finished {
		if seat, ok := commands.ProgramSeat(g, st.owner.User); ok {
			return Message{Type: "game", Game: gameState(g, seat, st.s.moveTime(g.Name))}
		}
	}
	return Message{Type: "gone", Channel: channel, GameID: id}
}

// finish sends the reason the stream stops, if any, and closes it.
func (st *stream) finish() {
	st.stop("closed", "")
	if st.why.Error != "" {
		_ = st.conn.SetWriteDeadline(time.Now().Add(writeWait))
		_ = st.conn.WriteJSON(st.why)
	}
	_ = st.conn.WriteControl(websocket.CloseMessage,
		websocket.FormatCloseMessage(websocket.ClosePolicyViolation, st.why.Code), time.Now().Add(writeWait))
}

// errRevoked: the stream's token was revoked or replaced.
var errRevoked = errors.New("the token was revoked or replaced")

// checkToken returns nil when the stream's token is still its owner's,
// errRevoked when it is not, and the store's error when it cannot tell:
// the caller then does nothing (fail closed).
func (st *stream) checkToken(ctx context.Context) error {
	o, err := st.s.svc.ProgramOwnerByHash(ctx, st.hash)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return errRevoked
	case err != nil:
		return err
	case o.User != st.owner.User || o.Guild != st.owner.Guild:
		return errRevoked
	}
	return nil
}

// read is the stream's reader: each action is checked, done, and
// answered with "ok" or "error".
func (st *stream) read() {
	defer st.stop("closed", "")
	st.conn.SetReadLimit(MaxMessage)
	_ = st.conn.SetReadDeadline(time.Now().Add(pongWait))
	st.conn.SetPongHandler(func(string) error { return st.conn.SetReadDeadline(time.Now().Add(pongWait)) })
	for {
		kind, data, err := st.conn.ReadMessage()
		if err != nil {
			return
		}
		_ = st.conn.SetReadDeadline(time.Now().Add(pongWait))
		reply := st.act(kind, data)
		select {
		case st.out <- reply:
		case <-st.done:
			return
		}
	}
}

// act does one action a program sent and returns the answer. A panic in
// doing it is answered as a failure with an error id, as the Discord side
// answers one, and the stream goes on.
func (st *stream) act(kind int, data []byte) (reply Message) {
	var m Message
	no := func(code, text string) Message { return Message{Type: "error", Ref: m.ID, Code: code, Error: text} }
	defer func() {
		if p := recover(); p != nil {
			id := commands.ErrorID()
			st.s.log.Error("program's action panicked", "error_id", id, "user", st.owner.User, "panic", p, "stack", string(debug.Stack()))
			reply = no("failed", "something went wrong on the server (error id "+id+"); nothing was done")
		}
	}()
	if kind != websocket.TextMessage {
		return no("bad_message", "send each message as one websocket text frame of JSON")
	}
	m, refusal := parseAction(data)
	if refusal != nil {
		return *refusal
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	switch err := st.checkToken(ctx); {
	case errors.Is(err, errRevoked):
		st.stop("revoked", "this token was revoked or replaced; /token in Discord gives a new one")
		return no("revoked", "this token was revoked or replaced; nothing was done")
	case err != nil:
		id := commands.ErrorID()
		st.s.log.Warn("program's token not checked; action refused", "error_id", id, "user", st.owner.User, "err", err)
		return no("unavailable", "the token cannot be checked right now (error id "+id+"); nothing was done, try again")
	}
	err := st.s.svc.ProgramAct(ctx, commands.ProgramAction{Owner: st.owner.User, Guild: st.owner.Guild, Channel: m.Channel, Game: m.GameID,
		Version: m.Version, Kind: m.Type, Move: m.Move, Reason: m.Reason})
	var pe *commands.ProgramError
	switch {
	case errors.As(err, &pe):
		return no(pe.Code, pe.Text)
	case err != nil:
		id := commands.ErrorID()
		st.s.log.Error("program's action failed", "error_id", id, "user", st.owner.User, "err", err)
		return no("failed", "something went wrong on the server (error id "+id+"); nothing was done")
	}
	return Message{Type: "ok", Ref: m.ID}
}

// parseAction reads one action a program sent: a JSON object of
// docs/reference/api.md's fields, of a known type, naming its game. It returns the
// action, or the refusal to answer (nil when the action is well formed).
func parseAction(data []byte) (Message, *Message) {
	var m Message
	no := func(code, text string) (Message, *Message) {
		return m, &Message{Type: "error", Ref: m.ID, Code: code, Error: text}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		m = Message{}
		return no("bad_json", "not a JSON message as docs/reference/api.md describes: "+err.Error())
	}
	if dec.More() {
		return no("bad_json", "one JSON object per message")
	}
	if len(m.ID) > 64 {
		m.ID = ""
		return no("bad_message", `an "id" is at most 64 characters`)
	}
	switch m.Type {
	case "accept", "decline", "move", "resign":
	case "":
		return no("bad_message", `a message needs a "type": accept, decline, move or resign`)
	default:
		return no("unknown_type", fmt.Sprintf("unknown message type %.40q: send accept, decline, move or resign", m.Type))
	}
	switch {
	case m.Channel == "" || m.GameID == "":
		return no("bad_message", `say which game: "channel" and "gameId" as in the game message`)
	case m.Type == "move" && strings.TrimSpace(m.Move) == "":
		return no("bad_message", `a move message needs "move", the move's text`)
	}
	return m, nil
}
