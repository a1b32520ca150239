package api

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"runtime/debug"
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
	// MaxWalls bounds the walls watched at once; default DefaultMaxWalls.
	MaxWalls int
	// MaxViewers bounds the pages open on one wall at once; default
	// DefaultMaxViewers.
	MaxViewers int
	// PublicURL is where players reach this server (PUBLIC_URL), for the
	// play page's links, without a trailing slash; default
	// "http://localhost".
	PublicURL string
	// Activity configures the Discord Activity's token exchange.
	Activity ActivityConfig
	// Now is this process's clock, by which the play page's links and
	// sessions must be in time too (the store expires them by its own);
	// default time.Now.
	Now func() time.Time
}

// Server is the programs' API and the live wall over a game flow. It
// hears of every saved game change from the flow (it is the flow's
// Observer and Presence).
type Server struct {
	svc  *commands.Service
	log  *slog.Logger
	poll time.Duration

	maxWalls   int
	maxViewers int

	mu      sync.Mutex
	streams map[string]*stream // the connected program of each user, by "GUILD/USER"
	// walls are the walls being watched, by wall key, or
	// "KEY/tournament/CHANNEL" for a class tournament's.
	walls map[string]*live
	// watchers are the play pages open on each game, by game id.
	watchers map[string]map[chan struct{}]struct{}

	creds     store.PlayCredentials // the play page's links and sessions
	publicURL string
	activity  ActivityConfig
	// activityRate bounds the token exchanges, each a request to Discord.
	activityRate *rateLimit
	now          func() time.Time
}

// New returns the API over svc and registers it with svc.
func New(svc *commands.Service, opt Options) *Server {
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	if opt.Poll <= 0 {
		opt.Poll = time.Second
	}
	if opt.MaxWalls <= 0 {
		opt.MaxWalls = DefaultMaxWalls
	}
	if opt.MaxViewers <= 0 {
		opt.MaxViewers = DefaultMaxViewers
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.PublicURL == "" {
		opt.PublicURL = "http://localhost"
	}
	if opt.Activity.API == "" {
		opt.Activity.API = "https://discord.com/api/v10"
	}
	if opt.Activity.Client == nil {
		opt.Activity.Client = &http.Client{Timeout: 10 * time.Second}
	}
	s := &Server{svc: svc, log: opt.Log, poll: opt.Poll, maxWalls: opt.MaxWalls, maxViewers: opt.MaxViewers, streams: map[string]*stream{}, walls: map[string]*live{},
		watchers: map[string]map[chan struct{}]struct{}{}, creds: svc.PlayCredentials(), publicURL: strings.TrimSuffix(opt.PublicURL, "/"),
		activity: opt.Activity, activityRate: newRateLimit(activityPerAddress, activityInAll), now: opt.Now}
	svc.AddObserver(s)
	svc.SetPresence(s)
	return s
}

// Handler routes the API's requests:
//
//	GET /api/v1/me       who the token is for (JSON)
//	GET /api/v1/stream   the program's websocket
//	GET /wall/KEY/       the live wall page of the server whose wall key
//	                     is KEY (/wall on); /wall/KEY/events its events
//	GET /wall/KEY/tournament/CHANNEL/   the wall of the class tournament
//	                     created in CHANNEL, of the same server
//	GET /wall/KEY/analysis/ID   a finished game's analysis graph (PNG);
//	                     /page its review page
//	/play/...            the play page (play.go)
//	POST /api/v1/activity/token  the Discord Activity's session (activity.go)
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	s.playRoutes(mux)
	mux.HandleFunc("GET /api/v1/me", s.me)
	mux.HandleFunc("GET /api/v1/stream", s.stream)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not_found", "no such API call: "+r.Method+" "+r.URL.Path+"; docs/reference/api.md lists them (this server speaks /api/v1)")
	})
	mux.HandleFunc("GET /wall/{key}", func(w http.ResponseWriter, r *http.Request) {
		if commands.CheckWallKey(r.PathValue("key")) != nil {
			noWall(w)
			return
		}
		http.Redirect(w, r, r.URL.Path+"/", http.StatusMovedPermanently)
	})
	mux.HandleFunc("GET /wall/{key}/{$}", s.wallPage)
	mux.HandleFunc("GET /wall/{key}/events", s.wallEvents)
	mux.HandleFunc("GET /wall/{key}/tournament/{channel}/{$}", s.wallPage)
	mux.HandleFunc("GET /wall/{key}/tournament/{channel}/events", s.wallEvents)
	mux.HandleFunc("GET /wall/{key}/analysis/{id}", s.analysisGraph)
	mux.HandleFunc("GET /wall/{key}/analysis/{id}/page", s.analysisPage)
	mux.HandleFunc("/wall/", func(w http.ResponseWriter, r *http.Request) { noWall(w) })
	return s.recovering(mux)
}

// recovering answers a request whose handler panicked with a generic
// error and an error id, logging the details; the server goes on.
func (s *Server) recovering(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			p := recover()
			switch p {
			case nil:
				return
			case http.ErrAbortHandler: // net/http's own way to drop a request
				panic(p)
			}
			id := commands.ErrorID()
			s.log.Error("API request panicked", "error_id", id, "path", redactPath(r.URL.Path), "panic", p, "stack", string(debug.Stack()))
			writeError(w, http.StatusInternalServerError, "failed", "something went wrong on the server (error id "+id+")")
		}()
		h.ServeHTTP(w, r)
	})
}

// redactPath is path as logs may keep it: a wall key (/wall/KEY/...) and
// a one-time link's token (/play/link/TOKEN) are secrets, shown as "…".
func redactPath(path string) string {
	for _, prefix := range []string{"/wall/", "/play/link/"} {
		if rest, ok := strings.CutPrefix(path, prefix); ok {
			_, tail, found := strings.Cut(rest, "/")
			if found {
				tail = "/" + tail
			}
			return prefix + "…" + tail
		}
	}
	return path
}

// Online reports whether user's program is connected with its token of
// guild.
func (s *Server) Online(guild, user string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.streams[streamKey(guild, user)] != nil
}

// streamKey is where a program's stream is kept: one per guild and user.
func streamKey(guild, user string) string { return guild + "/" + user }

// GameSaved passes a saved game to its programs' streams and to its
// guild's wall.
func (s *Server) GameSaved(g *store.Game) {
	s.mu.Lock()
	var targets []*stream
	for _, p := range g.Players {
		if st := s.streams[streamKey(g.Guild, p.UserID)]; p.Kind == store.Program && st != nil {
			targets = append(targets, st)
		}
	}
	var walls []*live
	for _, lw := range s.walls {
		if lw.access.Guild == g.Guild {
			walls = append(walls, lw)
		}
	}
	s.tellWatchers(g.ID)
	s.mu.Unlock()
	for _, st := range targets {
		st.push(g)
	}
	for _, lw := range walls {
		lw.queue(g)
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
	key := streamKey(st.owner.Guild, st.owner.User)
	s.mu.Lock()
	old := s.streams[key]
	s.streams[key] = st
	s.mu.Unlock()
	if old != nil {
		old.stop("replaced", "another bridge connected with this token")
	}
}

// unregister forgets st if it is still its user's stream.
func (s *Server) unregister(st *stream) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if key := streamKey(st.owner.Guild, st.owner.User); s.streams[key] == st {
		delete(s.streams, key)
	}
}

// moveTime is the class's time per move in game, for programs.
func (s *Server) moveTime(game string) time.Duration {
	if d, err := s.svc.Registry().Lookup(game); err == nil && d.MoveTime > 0 {
		return d.MoveTime
	}
	return 5 * time.Second
}
