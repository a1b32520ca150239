package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"

	"arbiter/engine"
	"arbiter/rules"
	"arbiter/rules/games"

	"github.com/gorilla/websocket"
)

// BridgeConfig is what a bridge needs: where the server is, the
// program's token and the program to run.
type BridgeConfig struct {
	// Server is the API's address, e.g. https://arbiter.example.org.
	Server string
	// Token is the person's program token (/token); it is never printed.
	Token string
	// Command is the program, run under the system's shell (/bin/sh -c,
	// or cmd.exe /c on Windows) for each game, speaking the engine protocol
	// (docs/reference/engine-protocol.md). Argv, when set, is used instead.
	Command string
	// Argv is the program and its arguments, run directly without a shell
	// on every system.
	Argv []string
	// Out shows what the bridge does, one line per event.
	Out io.Writer
	// ProgramErr receives the program's standard error; nil discards it.
	ProgramErr io.Writer
	// Retry is the longest wait between reconnection attempts; default 10s.
	Retry time.Duration
	// MaxGames is how many games the program plays at once; a challenge
	// beyond them is declined, saying why. Default DefaultMaxGames.
	MaxGames int
	// Registry is the games the bridge knows; nil for games.Registry().
	// Give the server's described games (GAMES_DIR) to play them.
	Registry *rules.Registry
}

// DefaultMaxGames is how many games a bridge plays at once by default.
const DefaultMaxGames = 2

// ErrRefused is returned by RunBridge when the server refuses the token:
// retrying cannot help.
var ErrRefused = errors.New("the server refused the token")

// RunBridge connects to the server and plays every game its program is
// in, until ctx ends or the token is refused. After a network loss it
// reconnects (waiting longer each time, up to cfg.Retry) and goes on with
// the games where they are.
func RunBridge(ctx context.Context, cfg BridgeConfig) error {
	if cfg.Retry <= 0 {
		cfg.Retry = 10 * time.Second
	}
	if cfg.MaxGames <= 0 {
		cfg.MaxGames = DefaultMaxGames
	}
	wsURL, err := streamURL(cfg.Server)
	if err != nil {
		return err
	}
	reg := cfg.Registry
	if reg == nil {
		reg = games.Registry()
	}
	b := &bridge{cfg: cfg, reg: reg, runners: map[string]*runner{}}
	defer b.stopAll()
	wait := 500 * time.Millisecond
	for ctx.Err() == nil {
		err := b.session(ctx, wsURL)
		if errors.Is(err, ErrRefused) {
			return err
		}
		if ctx.Err() != nil {
			break
		}
		b.say("not connected (%v); reconnecting in %s", err, wait)
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
		if err == nil {
			wait = 500 * time.Millisecond
		} else {
			wait = min(2*wait, cfg.Retry)
		}
	}
	return nil
}

// streamURL is the websocket address of a server's stream. A plain
// http:// address is refused unless it is this machine (loopback): the
// token would cross the network in clear text.
func streamURL(server string) (string, error) {
	u, err := url.Parse(strings.TrimRight(server, "/"))
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("--server %q: give the server's address, e.g. https://arbiter.example.org", server)
	}
	switch u.Scheme {
	case "http", "ws":
		if !loopback(u.Hostname()) {
			return "", fmt.Errorf("--server %q: a plain http:// address would send your token across the network in clear text; "+
				"give the server's https:// address (http:// is only for a server on this machine: localhost, 127.0.0.1 or ::1)", server)
		}
		u.Scheme = "ws"
	case "https", "wss":
		u.Scheme = "wss"
	default:
		return "", fmt.Errorf("--server %q: give an http:// or https:// address", server)
	}
	u.Path += fmt.Sprintf("/api/v%d/stream", Version)
	return u.String(), nil
}

// loopback reports whether host names this machine.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// bridge is one bridge's state across its connections.
type bridge struct {
	cfg     BridgeConfig
	reg     *rules.Registry
	outMu   sync.Mutex
	sendMu  sync.Mutex
	conn    *websocket.Conn // nil while disconnected
	mu      sync.Mutex
	runners map[string]*runner // by gameKey: channel and game id
	playing int                // runners whose game was accepted and is not over
	wg      sync.WaitGroup
	seq     int
}

// maxServerMessage bounds one message from the server: a whole game's
// state, every move included.
const maxServerMessage = 1 << 20

// gameKey names a game across the guilds' own id counters: its channel
// and its id.
func gameKey(channel, id string) string { return channel + "/" + id }

// say prints one line of what the bridge does, with every control
// character of the server's text (an escape sequence that would redraw the
// terminal) made visible and inert.
func (b *bridge) say(format string, args ...any) {
	b.outMu.Lock()
	defer b.outMu.Unlock()
	fmt.Fprintf(b.cfg.Out, "%s bridge: %s\n", time.Now().Format("15:04:05"), Inert(fmt.Sprintf(format, args...)))
}

// Inert returns s with every control character (C0, DEL, C1, and the
// Unicode bidirectional overrides) replaced by a visible escape, so that
// text from a server or another person cannot move the cursor, clear the
// screen or reorder what a terminal shows.
func Inert(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// send writes m on the current connection.
func (b *bridge) send(m Message) error {
	b.sendMu.Lock()
	defer b.sendMu.Unlock()
	if b.conn == nil {
		return errors.New("not connected")
	}
	b.seq++
	m.ID = fmt.Sprintf("%s-%d", m.Type, b.seq)
	_ = b.conn.SetWriteDeadline(time.Now().Add(writeWait))
	return b.conn.WriteJSON(m)
}

// session is one connection: it lasts until the connection is lost.
func (b *bridge) session(ctx context.Context, wsURL string) error {
	h := http.Header{}
	h.Set("Authorization", "Bearer "+b.cfg.Token)
	dialer := websocket.Dialer{HandshakeTimeout: 10 * time.Second, Proxy: http.ProxyFromEnvironment}
	conn, resp, err := dialer.DialContext(ctx, wsURL, h)
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusUnauthorized {
			var m Message
			_ = json.NewDecoder(io.LimitReader(resp.Body, MaxMessage)).Decode(&m)
			return fmt.Errorf("%w: %s", ErrRefused, m.Error)
		}
		return err
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	defer stop()
	b.sendMu.Lock()
	b.conn = conn
	b.sendMu.Unlock()
	defer func() {
		b.sendMu.Lock()
		b.conn = nil
		b.sendMu.Unlock()
	}()
	conn.SetReadLimit(maxServerMessage)
	_ = conn.SetReadDeadline(time.Now().Add(pongWait))
	conn.SetPingHandler(func(data string) error {
		_ = conn.SetReadDeadline(time.Now().Add(pongWait))
		b.sendMu.Lock()
		defer b.sendMu.Unlock()
		return conn.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(writeWait))
	})
	sent := map[string]bool{} // the games the server sent on this connection
	for {
		var m Message
		if err := conn.ReadJSON(&m); err != nil {
			return err
		}
		_ = conn.SetReadDeadline(time.Now().Add(pongWait))
		switch m.Type {
		case "hello":
			b.say("connected to %s as %s", b.cfg.Server, m.Program)
		case "game":
			if m.Game != nil {
				sent[gameKey(m.Game.Channel, m.Game.ID)] = true
				b.runnerFor(ctx, m.Game.Channel, m.Game.ID).give(m.Game)
			}
		case "synced":
			// Every running game has been sent: one the bridge still plays
			// and the server did not send ended while it was away.
			b.mu.Lock()
			for key, r := range b.runners {
				if !sent[key] {
					b.say("game %s: over while the bridge was away (its result is in its channel)", r.id)
					r.give(&GameState{ID: r.id, Channel: r.channel, Status: "gone"})
				}
			}
			b.mu.Unlock()
		case "gone":
			b.say("game %s: over (its result is in its channel)", m.GameID)
			b.mu.Lock()
			for key, r := range b.runners {
				if key == gameKey(m.Channel, m.GameID) || m.Channel == "" && r.id == m.GameID {
					r.give(&GameState{ID: m.GameID, Channel: r.channel, Status: "gone"})
				}
			}
			b.mu.Unlock()
		case "ok":
		case "error":
			if m.Code == "revoked" || m.Code == "unauthorized" {
				return fmt.Errorf("%w: %s", ErrRefused, m.Error)
			}
			if m.Code == "replaced" {
				return fmt.Errorf("%w: %s", ErrRefused, m.Error)
			}
			b.say("server refused %s: %s (%s)", m.Ref, m.Error, m.Code)
		}
	}
}

// runnerFor returns the runner of a game, starting it when new.
func (b *bridge) runnerFor(ctx context.Context, channel, id string) *runner {
	b.mu.Lock()
	defer b.mu.Unlock()
	key := gameKey(channel, id)
	r := b.runners[key]
	if r == nil {
		r = &runner{b: b, id: id, channel: channel, key: key, wake: make(chan struct{}, 1), player: engine.NewProgramPlayer(b.reg, engine.ProgramCommand{Argv: b.cfg.Argv, Line: b.cfg.Command}, b.cfg.ProgramErr, 0)}
		r.ctx, r.cancel = context.WithCancel(ctx)
		b.runners[key] = r
		b.wg.Go(r.run)
	}
	return r
}

// take counts r's game among those played at once; false when as many
// as MaxGames are played already and force is not set (a game already
// accepted is played whatever the count).
func (b *bridge) take(r *runner, force bool) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if r.counted {
		return true
	}
	if !force && b.playing >= b.cfg.MaxGames {
		return false
	}
	r.counted = true
	b.playing++
	return true
}

// stopAll stops every game's program.
func (b *bridge) stopAll() {
	b.mu.Lock()
	for _, r := range b.runners {
		r.cancel()
	}
	b.mu.Unlock()
	b.wg.Wait()
}

// runner plays one game: it keeps the game's latest state and acts on it.
type runner struct {
	b       *bridge
	id      string
	channel string
	key     string // gameKey(channel, id)
	counted bool   // among the bridge's games played at once (b.mu)
	ctx     context.Context
	cancel  context.CancelFunc
	player  *engine.ExecPlayer

	mu     sync.Mutex
	latest *GameState
	wake   chan struct{}

	// What this runner last answered: the version and the move, sent
	// again when the same state comes back after a reconnection.
	answered int64
	move     string
	game     rules.Game // the game as last rebuilt, for ending the program
}

// give hands the runner a newer state of its game.
func (r *runner) give(st *GameState) {
	r.mu.Lock()
	r.latest = st
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// run acts on each state until the game is over.
func (r *runner) run() {
	defer func() {
		r.b.mu.Lock()
		delete(r.b.runners, r.key)
		if r.counted {
			r.b.playing--
		}
		r.b.mu.Unlock()
	}()
	for {
		select {
		case <-r.ctx.Done():
			r.player.End(r.game) // nil only when no program was started
			return
		case <-r.wake:
		}
		r.mu.Lock()
		st := r.latest
		r.mu.Unlock()
		if r.act(st) {
			return
		}
	}
}

// act does what a state asks of the program; true when the game is over.
func (r *runner) act(st *GameState) bool {
	b := r.b
	switch st.Status {
	case "gone":
		r.player.End(r.game)
		return true
	case "challenge":
		if r.answered != st.Version {
			r.answered = st.Version
			if !b.take(r, false) {
				why := fmt.Sprintf("my program is playing its %d games at once (arbiter bridge --max-games %d); challenge it again when one is over", b.cfg.MaxGames, b.cfg.MaxGames)
				b.say("game %s: %s challenges my program to %s; declining: %s", st.ID, st.Players[2-st.Seat], st.Name, why)
				if err := b.send(Message{Type: "decline", Channel: st.Channel, GameID: st.ID, Reason: why}); err != nil {
					r.answered = 0
				}
				return false
			}
			b.say("game %s: %s challenges my program to %s; accepting", st.ID, st.Players[2-st.Seat], st.Name)
			if err := b.send(Message{Type: "accept", Channel: st.Channel, GameID: st.ID}); err != nil {
				r.answered = 0
			}
		}
		return false
	case "finished":
		if g, err := r.rebuild(st); err == nil {
			r.game = g
		}
		r.player.End(r.game)
		b.say("game %s: over, %s: %s", st.ID, st.Result, st.Reason)
		return true
	}
	b.take(r, true) // accepted (perhaps by an earlier run of the bridge): it is played
	if st.ToMove != st.Seat {
		return false
	}
	if r.answered == st.Version && r.move != "" {
		_ = b.send(Message{Type: "move", Channel: st.Channel, GameID: st.ID, Version: st.Version, Move: r.move})
		return false
	}
	g, err := r.rebuild(st)
	if err == nil {
		r.game = g
	}
	if err != nil {
		b.say("game %s: cannot follow the game (%v); resigning", st.ID, err)
		_ = b.send(Message{Type: "resign", Channel: st.Channel, GameID: st.ID})
		return false
	}
	m, _, err := r.player.Choose(r.ctx, g, engine.Limits{MoveTime: time.Duration(st.MoveTimeMS) * time.Millisecond})
	if r.ctx.Err() != nil {
		return true
	}
	if err != nil {
		b.say("game %s: my program forfeits: %v; resigning", st.ID, err)
		_ = b.send(Message{Type: "resign", Channel: st.Channel, GameID: st.ID})
		return false
	}
	r.answered, r.move = st.Version, g.FormatMove(m)
	b.say("game %s (%s vs %s): move %d, playing %s", st.ID, st.Players[0], st.Players[1], len(st.Moves)+1, r.move)
	if err := b.send(Message{Type: "move", Channel: st.Channel, GameID: st.ID, Version: st.Version, Move: r.move}); err != nil {
		b.say("game %s: the move waits for the connection (%v)", st.ID, err)
	}
	return false
}

// rebuild plays the state's moves from the start of its game.
func (r *runner) rebuild(st *GameState) (rules.Game, error) {
	opts, err := rules.ParseOptions(st.Options)
	if err != nil {
		return nil, err
	}
	g, err := r.b.reg.New(st.Name, opts)
	if err != nil {
		return nil, err
	}
	for i, text := range st.Moves {
		m, err := g.ParseMove(text)
		if err != nil {
			return nil, fmt.Errorf("move %d %q: %w", i+1, text, err)
		}
		g.Play(m)
	}
	return g, nil
}
