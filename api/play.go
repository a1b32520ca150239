package api

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"strings"
	"time"

	"arbiter/commands"
	"arbiter/internal/httplimit"
	"arbiter/store"
)

// The play page: a game's board in a browser (or inside Discord as an
// Activity) that its players play by clicking. Who may act is settled by
// a session, bound to one user and one game, that comes either from a
// one-time link the bot sends privately (/board link:true, the "Play on
// the board" button) or from the Activity's token exchange (activity.go).
// Every action goes to commands.Service.Act as an Invocation, exactly
// like a slash command; nothing the page says is trusted beyond the
// session's user and game.
//
//	GET  /play/link/{token}      the link's page: a button that opens the board
//	POST /play/link/{token}      uses the link (once): the session cookie, then the board
//	GET  /play/game/{game}/      the board page
//	GET  /play/game/{game}/state the game as the session's user sees it (JSON)
//	GET  /play/game/{game}/events that state again at every change (server-sent events)
//	POST /play/game/{game}/act   an action: move, resign, draw or undo
//	GET  /play/assets/...        the page's scripts and style
//	GET  /play/activity/, GET /  the page as a Discord Activity loads it (/ only with an Activity)
//	GET  /wall/{key}/game/{game}/ the page read-only for a wall's spectators (watch.go); state, events

// Timing of the play page's credentials.
const (
	linkLife    = 10 * time.Minute // a one-time link
	sessionLife = 24 * time.Hour   // a session from a link or the Activity
)

// sessionCookie is the name of the play page's session cookie.
const sessionCookie = "arbiter_play"

// csrfHeader carries a session's anti-forgery token on every action.
const csrfHeader = "X-Arbiter-CSRF"

//go:embed play
var playFiles embed.FS

// grant is what a one-time link or a session allows: one user in one game.
type grant struct {
	user    commands.User
	guild   string
	channel string
	game    string
	expires time.Time
	csrf    string // sessions only: the token each action must carry
}

// stored is gr as the store keeps it.
func (gr grant) stored() store.PlayGrant {
	return store.PlayGrant{User: gr.user.ID, UserName: gr.user.Name, Guild: gr.guild, Channel: gr.channel, Game: gr.game, CSRF: gr.csrf}
}

// grantOf is a grant the store kept.
func grantOf(p store.PlayGrant) grant {
	return grant{user: commands.User{ID: p.User, Name: p.UserName}, guild: p.Guild, channel: p.Channel, game: p.Game,
		expires: p.Expires, csrf: p.CSRF}
}

// secret returns a new random secret and its hash.
func secret() (string, string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", fmt.Errorf("random secret: %w", err)
	}
	s := base64.RawURLEncoding.EncodeToString(b)
	return s, hashSecret(s), nil
}

// hashSecret is the SHA-256 of a secret in hex: the store keeps the
// links and sessions by it, so that a copy of the store gives no usable
// secret.
func hashSecret(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// newSession starts a session for gr in the store (any process serving
// the page knows it, and it outlives this one) and returns its secret.
func (s *Server) newSession(ctx context.Context, gr grant) (string, grant, error) {
	tok, hash, err := secret()
	if err != nil {
		return "", grant{}, err
	}
	if gr.csrf, _, err = secret(); err != nil {
		return "", grant{}, err
	}
	kept := gr.stored()
	if err := s.creds.PutPlaySession(ctx, hash, kept, sessionLife); err != nil {
		return "", grant{}, fmt.Errorf("keep the session: %w", err)
	}
	gr.expires = s.now().Add(sessionLife)
	return tok, gr, nil
}

// BoardLink makes a one-time link to g's play page for user
// (commands.BoardLinks), kept in the store: any process serving the page
// takes it.
func (s *Server) BoardLink(ctx context.Context, user commands.User, g *store.Game) (string, error) {
	tok, hash, err := secret()
	if err != nil {
		return "", err
	}
	gr := grant{user: user, guild: g.Guild, channel: g.Channel, game: g.ID}
	if err := s.creds.PutPlayLink(ctx, hash, gr.stored(), linkLife); err != nil {
		return "", fmt.Errorf("keep the link: %w", err)
	}
	return s.publicURL + "/play/link/" + tok, nil
}

// live reports whether a grant the store returned is still in time by
// this process's clock too (the store expires it on its own clock).
func (s *Server) live(gr grant) bool { return s.now().Before(gr.expires) }

// playRoutes adds the play page's routes to mux.
func (s *Server) playRoutes(mux *http.ServeMux) {
	assets, _ := fs.Sub(playFiles, "play/assets")
	mux.Handle("GET /play/assets/", http.StripPrefix("/play/assets/", noStore(noListing(http.FileServerFS(assets)))))
	mux.HandleFunc("GET /play/link/{token}", s.linkPage)
	mux.HandleFunc("POST /play/link/{token}", s.useLink)
	mux.HandleFunc("GET /play/game/{game}/", s.playPage)
	mux.HandleFunc("GET /play/game/{game}/state", s.playState)
	mux.HandleFunc("GET /play/game/{game}/events", s.playEvents)
	mux.HandleFunc("POST /play/game/{game}/act", s.playAct)
	mux.HandleFunc("GET /play/activity/", s.activityPage)
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		if s.activity.ClientSecret == "" {
			http.NotFound(w, r)
			return
		}
		s.activityPage(w, r) // Discord opens an Activity at its URL mapping's root
	})
	mux.HandleFunc("POST /api/v1/activity/token", s.activityToken)
	mux.HandleFunc("GET /wall/{key}/game/{game}/{$}", s.watchPage)
	mux.HandleFunc("GET /wall/{key}/game/{game}/state", s.watchState)
	mux.HandleFunc("GET /wall/{key}/game/{game}/events", s.watchEvents)
}

// noListing has h serve files only: a folder's address (one ending in
// "/", or the empty one) is 404, not a list of its files.
func noListing(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "" || strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// noStore has h's answers not kept by caches: a new version of Arbiter
// serves new scripts at once.
func noStore(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	})
}

// pageTemplate is the play page; linkTemplate the page of a one-time link.
var (
	pageTemplate = template.Must(template.ParseFS(playFiles, "play/page.html"))
	linkTemplate = template.Must(template.New("link").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Arbiter: open the board</title><link rel="stylesheet" href="/play/assets/play.css"></head>
<body><main class="link"><h1>Arbiter</h1>
{{if .OK}}<p>This link opens your board. It works once.</p>
<form method="post"><button type="submit" id="open">Open the board</button></form>
{{else}}<p role="alert">This link was used already or has expired (links work once, for ten minutes).
In Discord, <code>/board link:True</code> or the board's "Play on the board" button gives a new one.</p>{{end}}
</main></body></html>`))
)

// securePage sets the headers every play page answer carries: no
// framing but by Discord (the Activity), no sniffing, no referrer.
func securePage(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'self' https://discord.com https://*.discord.com https://*.discordsays.com")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
}

// linkPage shows a one-time link's button; it does not use the link, so
// that a link preview cannot spend it.
func (s *Server) linkPage(w http.ResponseWriter, r *http.Request) {
	p, err := s.creds.PlayLink(r.Context(), hashSecret(r.PathValue("token")))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.log.Warn("play: link not read", "err", err)
		http.Error(w, "storage is not reachable right now; reload in a moment", http.StatusServiceUnavailable)
		return
	}
	ok := err == nil && s.live(grantOf(p))
	securePage(w)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if !ok {
		w.WriteHeader(http.StatusGone)
	}
	_ = linkTemplate.Execute(w, map[string]bool{"OK": ok})
}

// useLink spends a one-time link: the session cookie is set and the
// browser sent to the board.
func (s *Server) useLink(w http.ResponseWriter, r *http.Request) {
	if !sameOrigin(r) {
		http.Error(w, "cross-site request refused", http.StatusForbidden)
		return
	}
	p, err := s.creds.SpendPlayLink(r.Context(), hashSecret(r.PathValue("token")))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.log.Warn("play: link not spent", "err", err)
		http.Error(w, "storage is not reachable right now; the link is not used: try it again in a moment", http.StatusServiceUnavailable)
		return
	}
	gr := grantOf(p)
	if err != nil || !s.live(gr) {
		securePage(w)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusGone)
		_ = linkTemplate.Execute(w, map[string]bool{"OK": false})
		return
	}
	tok, gr, err := s.newSession(r.Context(), gr)
	if err != nil {
		s.log.Warn("play: session not kept", "err", err)
		http.Error(w, "the session could not be made; try a new link", http.StatusInternalServerError)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: tok, Path: "/play/game/" + gr.game + "/",
		MaxAge: int(sessionLife / time.Second), HttpOnly: true, SameSite: http.SameSiteStrictMode,
		Secure: strings.HasPrefix(s.publicURL, "https://")})
	http.Redirect(w, r, "/play/game/"+url.PathEscape(gr.game)+"/", http.StatusSeeOther)
}

// sameOrigin reports whether a request that changes something comes from
// this server's own pages: the browser's Sec-Fetch-Site says so, or, from
// an older browser, its Origin is this host. A request with neither (not
// a browser) carries no cookie of a victim, so it passes here and meets
// the session and anti-forgery checks.
func sameOrigin(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "same-origin", "none":
		return true
	case "":
	default:
		return false
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && u.Host == r.Host
}

// session returns the grant of the request's session for the game in its
// path, from the session cookie or an Authorization bearer (the
// Activity, where third-party cookies do not reach), or writes the
// refusal.
func (s *Server) session(w http.ResponseWriter, r *http.Request) (grant, bool) {
	tok := ""
	if c, err := r.Cookie(sessionCookie); err == nil {
		tok = c.Value
	}
	if b, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		tok = b
	}
	var gr grant
	var err error
	if tok != "" {
		var p store.PlayGrant
		p, err = s.creds.PlaySession(r.Context(), hashSecret(tok))
		gr = grantOf(p)
	}
	switch {
	case err != nil && !errors.Is(err, store.ErrNotFound):
		s.log.Warn("play: session not read", "err", err)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "storage is not reachable right now; try again")
		return grant{}, false
	case tok == "" || err != nil || !s.live(gr):
		writeError(w, http.StatusUnauthorized, "no_session", "open the board from Discord: /board link:True gives a link that works once")
		return grant{}, false
	case gr.game != r.PathValue("game"):
		writeError(w, http.StatusForbidden, "other_game", "this session is for another game; open this one from its own channel")
		return grant{}, false
	}
	return gr, true
}

// playPage serves the board page of the session's game.
func (s *Server) playPage(w http.ResponseWriter, r *http.Request) {
	gr, ok := s.session(w, r)
	if !ok {
		return
	}
	s.servePage(w, gr.game, gr.csrf, "")
}

// activityPage serves the page as Discord loads an Activity: no session
// yet; the page's script gets one from the token exchange.
func (s *Server) activityPage(w http.ResponseWriter, _ *http.Request) {
	s.servePage(w, "", "", "")
}

// servePage serves the page for game (none: the Activity's, which signs
// in first) with the session's anti-forgery token; base, when set, is
// where the page reads the game (a wall's spectator).
func (s *Server) servePage(w http.ResponseWriter, game, csrf, base string) {
	securePage(w)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = pageTemplate.Execute(w, map[string]string{"Game": game, "CSRF": csrf, "ClientID": s.activity.ClientID, "Base": base})
}

// view returns the session's game as its user sees it.
func (s *Server) view(ctx context.Context, gr grant) (commands.PlayView, error) {
	g, err := s.svc.PlayGame(ctx, gr.guild, gr.channel, gr.game)
	if err != nil {
		return commands.PlayView{}, err
	}
	return s.svc.PlayView(g, gr.user.ID)
}

// writeView answers with the session's game, or why it cannot be shown.
func (s *Server) writeView(w http.ResponseWriter, r *http.Request, gr grant) {
	v, err := s.view(r.Context(), gr)
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, "not_found", "this game is not going on any more; /history in its channel shows it")
	case err != nil:
		s.log.Warn("play: game not read", "game", gr.game, "err", err)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "the game cannot be read right now; try again")
	default:
		writeJSON(w, http.StatusOK, v)
	}
}

func (s *Server) playState(w http.ResponseWriter, r *http.Request) {
	if gr, ok := s.session(w, r); ok {
		s.writeView(w, r, gr)
	}
}

// playAction is what the page sends to act.
type playAction struct {
	Action  string `json:"action"` // "move", "resign", "draw" or "undo"
	Move    string `json:"move"`
	Version int64  `json:"version"` // the version the page showed
}

// playAnswer is act's answer: what the flow said, and the game now.
type playAnswer struct {
	OK   bool               `json:"ok"`   // the action was done
	Text string             `json:"text"` // the flow's answer in words
	Game *commands.PlayView `json:"game,omitempty"`
}

// playAct does one action of the session's user, as the slash command
// (or the board's button) would.
func (s *Server) playAct(w http.ResponseWriter, r *http.Request) {
	gr, ok := s.session(w, r)
	if !ok {
		return
	}
	bearer := strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !bearer && (!sameOrigin(r) || r.Header.Get(csrfHeader) != gr.csrf) {
		writeError(w, http.StatusForbidden, "forged", "cross-site request refused; nothing was changed")
		return
	}
	var a playAction
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		writeError(w, http.StatusBadRequest, "bad_json", "not an action: "+err.Error())
		return
	}
	cmds := map[string]string{"move": "move", "resign": "resign-confirm", "draw": "draw", "undo": "undo"}
	cmd, known := cmds[a.Action]
	if !known || a.Version < 1 {
		writeError(w, http.StatusBadRequest, "bad_action", `send {"action": "move"|"resign"|"draw"|"undo", "version": the game's version}`)
		return
	}
	inv := commands.Invocation{Guild: gr.guild, Channel: gr.channel, User: gr.user, Command: cmd,
		Game: gr.game, Version: a.Version}
	if cmd == "move" {
		inv.Options = map[string]string{"move": a.Move}
	}
	reply := s.svc.Act(r.Context(), inv)
	ans := playAnswer{OK: !reply.Private, Text: reply.Text}
	if v, err := s.view(r.Context(), gr); err == nil {
		ans.Game = &v
	}
	writeJSON(w, http.StatusOK, ans)
}

// playEvents sends the session's game at once and again at every change
// (server-sent events named "game"), until the page closes.
func (s *Server) playEvents(w http.ResponseWriter, r *http.Request) {
	gr, ok := s.session(w, r)
	if !ok {
		return
	}
	s.streamGame(w, r, gr.game, func(ctx context.Context) (*store.Game, error) {
		return s.svc.PlayGame(ctx, gr.guild, gr.channel, gr.game)
	}, func(g *store.Game) (commands.PlayView, error) { return s.svc.PlayView(g, gr.user.ID) })
}

// streamGame sends game (as load reads it and show draws it) at once and
// again at every change, as server-sent events named "game", until the
// page closes.
func (s *Server) streamGame(w http.ResponseWriter, r *http.Request, game string,
	load func(context.Context) (*store.Game, error), show func(*store.Game) (commands.PlayView, error)) {
	flusher, ok := startEvents(w)
	if !ok {
		return
	}
	changed := s.watch(game)
	defer s.unwatch(game, changed)
	poll := time.NewTicker(s.poll)
	defer poll.Stop()
	keepAlive := time.NewTicker(15 * time.Second)
	defer keepAlive.Stop()
	var sent int64 = -1
	send := func() { // drawn only when the game changed
		g, err := load(r.Context())
		if err != nil || g.Version == sent {
			return
		}
		v, err := show(g)
		if err != nil {
			s.log.Warn("play: board not drawn", "game", game, "err", err)
			return
		}
		sent = v.Version
		data, _ := json.Marshal(v)
		fmt.Fprintf(w, "event: game\ndata: %s\n\n", data)
	}
	send()
	flusher.Flush()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-changed:
			send()
		case <-poll.C: // changes made by other processes
			send()
		case <-keepAlive.C:
			fmt.Fprint(w, ": keep-alive\n\n")
		}
		flusher.Flush()
	}
}

// watch returns a channel told of every change of game saved in this
// process.
func (s *Server) watch(game string) chan struct{} {
	ch := make(chan struct{}, 1)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.watchers[game] == nil {
		s.watchers[game] = map[chan struct{}]struct{}{}
	}
	s.watchers[game][ch] = struct{}{}
	return ch
}

func (s *Server) unwatch(game string, ch chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.watchers[game], ch)
	if len(s.watchers[game]) == 0 {
		delete(s.watchers, game)
	}
}

// tellWatchers wakes the play pages of game. Called with mu held.
func (s *Server) tellWatchers(game string) {
	for ch := range s.watchers[game] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// startEvents begins a server-sent event stream (a reconnection after a
// second), free of the server's read and write timeouts, or answers that
// it cannot.
func startEvents(w http.ResponseWriter) (http.Flusher, bool) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming is not supported here", http.StatusInternalServerError)
		return nil, false
	}
	httplimit.Unbounded(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprint(w, "retry: 1000\n\n")
	return flusher, true
}
