package api

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"arbiter/commands"
	"arbiter/store"
)

// Options tune a Server.
type Options struct {
	// Log receives what the server does; never a token.
	Log *slog.Logger
	// Poll is how often a program's stream re-reads its games and its
	// token, and a wall its games, to learn of changes made by other
	// processes (and of a revoked token); default 1s.
	Poll time.Duration
}

// Server is the programs' API and the live wall over a game flow. It
// hears of every saved game change from the flow (it is the flow's
// Observer and Presence).
type Server struct {
	svc  *commands.Service
	log  *slog.Logger
	poll time.Duration

	mu      sync.Mutex
	streams map[string]*stream // the connected program of each user
	walls   map[string]*wall   // the live wall of each guild, once asked for
	// tournaments are the walls of class tournaments, by
	// "GUILD/tournament/CHANNEL", once asked for.
	tournaments map[string]http.Handler
}

// New returns the API over svc and registers it with svc.
func New(svc *commands.Service, opt Options) *Server {
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	if opt.Poll <= 0 {
		opt.Poll = time.Second
	}
	s := &Server{svc: svc, log: opt.Log, poll: opt.Poll, streams: map[string]*stream{}, walls: map[string]*wall{}, tournaments: map[string]http.Handler{}}
	svc.AddObserver(s)
	svc.SetPresence(s)
	return s
}

// Handler routes the API's requests:
//
//	GET /api/v1/me       who the token is for (JSON)
//	GET /api/v1/stream   the program's websocket
//	GET /wall/GUILD/     the live wall page; /wall/GUILD/events its events
//	GET /wall/GUILD/analysis/ID  a finished game's analysis graph (PNG); /page its review page
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/me", s.me)
	mux.HandleFunc("GET /api/v1/stream", s.stream)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not_found", "no such API call: "+r.Method+" "+r.URL.Path+"; docs/reference/api.md lists them (this server speaks /api/v1)")
	})
	mux.HandleFunc("GET /wall/{guild}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Path+"/", http.StatusMovedPermanently)
	})
	mux.HandleFunc("GET /wall/{guild}/", s.wallPage)
	mux.HandleFunc("GET /wall/{guild}/events", s.wallEvents)
	mux.HandleFunc("GET /wall/{guild}/tournament/{channel}/", s.tournamentWall)
	mux.HandleFunc("GET /wall/{guild}/tournament/{channel}/events", s.tournamentWall)
	mux.HandleFunc("GET /wall/{guild}/analysis/{id}", s.analysisGraph)
	mux.HandleFunc("GET /wall/{guild}/analysis/{id}/page", s.analysisPage)
	return mux
}

// Online reports whether user's program is connected.
func (s *Server) Online(user string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.streams[user] != nil
}

// GameSaved passes a saved game to its programs' streams and to its
// guild's wall.
func (s *Server) GameSaved(g *store.Game) {
	s.mu.Lock()
	var targets []*stream
	for _, p := range g.Players {
		if st := s.streams[p.UserID]; p.Kind == store.Program && st != nil {
			targets = append(targets, st)
		}
	}
	wl := s.walls[g.Guild]
	s.mu.Unlock()
	for _, st := range targets {
		st.push(g)
	}
	if wl != nil {
		wl.queue(g)
	}
}

// authenticate returns the owner of the request's bearer token, or writes
// the refusal.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (store.TokenOwner, string, bool) {
	auth := r.Header.Get("Authorization")
	tok, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok || tok == "" {
		writeError(w, http.StatusUnauthorized, "unauthorized", "give your program token as the header \"Authorization: Bearer TOKEN\" (/token in Discord gives one)")
		return store.TokenOwner{}, "", false
	}
	owner, err := s.svc.ProgramOwner(r.Context(), tok)
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusUnauthorized, "unauthorized", "this token is unknown or revoked; /token in Discord gives a new one")
		return store.TokenOwner{}, "", false
	case err != nil:
		s.log.Warn("token lookup failed", "err", err)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "storage is not reachable right now; try again")
		return store.TokenOwner{}, "", false
	}
	return owner, commands.HashToken(tok), true
}

// me answers who a token is for.
func (s *Server) me(w http.ResponseWriter, r *http.Request) {
	owner, _, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, hello(owner))
}

// hello is the first message of a stream, and /api/v1/me's answer.
func hello(o store.TokenOwner) Message {
	return Message{Type: "hello", User: o.User, Name: o.Name, Program: o.Name + " (program)", API: Version}
}

// writeError answers with an error message.
func writeError(w http.ResponseWriter, status int, code, text string) {
	writeJSON(w, status, Message{Type: "error", Code: code, Error: text})
}

// writeJSON answers with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// register makes st its user's stream, closing the one it replaces (a
// bridge that reconnects before its old connection timed out).
func (s *Server) register(st *stream) {
	s.mu.Lock()
	old := s.streams[st.owner.User]
	s.streams[st.owner.User] = st
	s.mu.Unlock()
	if old != nil {
		old.stop("replaced", "another bridge connected with this token")
	}
}

// unregister forgets st if it is still its user's stream.
func (s *Server) unregister(st *stream) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.streams[st.owner.User] == st {
		delete(s.streams, st.owner.User)
	}
}

// moveTime is the class's time per move in game, for programs.
func (s *Server) moveTime(game string) time.Duration {
	if d, err := s.svc.Registry().Lookup(game); err == nil && d.MoveTime > 0 {
		return d.MoveTime
	}
	return 5 * time.Second
}
