package api

import (
	"context"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"arbiter/commands"
	"arbiter/internal/httplimit"
	"arbiter/store"
)

// WallGame is one game as the wall shows it: public facts only (names as
// shown in the server, the board, the last moves).
type WallGame struct {
	ID      string    `json:"id"`
	Title   string    `json:"title"` // the game, e.g. "HiQUE"
	Players [2]string `json:"players"`
	Version int64     `json:"version"` // grows with every change
	Ply     int       `json:"ply"`     // moves played
	Last    []string  `json:"last"`    // the last few moves, oldest first
	ToMove  int       `json:"toMove"`  // 1 or 2; 0 when not going on
	Status  string    `json:"status"`  // "active", "challenge" or "finished"
	Result  string    `json:"result"`  // how it ended, in words
	Board   string    `json:"board"`   // the board as a data: URL (PNG)

	src *store.Game // the game as saved, for its spectators' pages
}

// maxFinished is how many finished games a wall keeps showing.
const maxFinished = 8

// DefaultMaxWalls bounds the walls one server keeps live at once.
const DefaultMaxWalls = 256

// lastMoves is how many of a game's moves the wall lists.
const lastMoves = 6

// wall is the live state of one wall page and its viewers.
type wall struct {
	mu    sync.Mutex
	title string
	games map[string]WallGame
	done  []string // ids of finished games, oldest first
	table *Table
	subs  map[chan event]struct{}
	// spectators are the pages watching one game of the wall (watch.go),
	// by the id of their game; they count as the wall's pages.
	spectators map[chan struct{}]string
	// saved holds games saved but not yet drawn: drawing a board is kept
	// off the path of the command that saved it.
	saved chan *store.Game
	// maxViewers bounds the pages open on it at once.
	maxViewers int
	// closed ends every page of the wall (nil: never).
	closed    chan struct{}
	closeOnce sync.Once
}

// close ends the wall's pages.
func (wl *wall) close() {
	wl.closeOnce.Do(func() {
		if wl.closed != nil {
			close(wl.closed)
		}
	})
}

// shows reports whether the wall shows the game with id.
func (wl *wall) shows(id string) bool {
	wl.mu.Lock()
	defer wl.mu.Unlock()
	_, ok := wl.games[id]
	return ok
}

// forget takes off the wall the games going on that are not in shown
// (finished games stay until pushed out).
func (wl *wall) forget(shown map[string]bool) {
	wl.mu.Lock()
	defer wl.mu.Unlock()
	for id, g := range wl.games {
		if g.Status != "finished" && !shown[id] {
			delete(wl.games, id)
			wl.broadcast("gone", map[string]string{"id": id})
			wl.wakeSpectators(id)
		}
	}
}

// event is one server-sent event.
type event struct {
	name string
	data []byte
}

func newWall(title string) *wall {
	return &wall{title: title, games: map[string]WallGame{}, subs: map[chan event]struct{}{}, spectators: map[chan struct{}]string{},
		maxViewers: DefaultMaxViewers}
}

// queue has g drawn and shown by the wall's drawing loop; when the loop
// is behind, g is left to the next poll.
func (wl *wall) queue(g *store.Game) {
	select {
	case wl.saved <- g:
	default:
	}
}

// update shows g, when it is newer than what is shown.
func (wl *wall) update(g WallGame) {
	wl.mu.Lock()
	defer wl.mu.Unlock()
	if old, ok := wl.games[g.ID]; ok && old.Version >= g.Version {
		return
	}
	if g.Status == "finished" {
		if old, ok := wl.games[g.ID]; !ok || old.Status != "finished" {
			wl.done = append(wl.done, g.ID)
		}
		for len(wl.done) > maxFinished {
			delete(wl.games, wl.done[0])
			wl.broadcast("gone", map[string]string{"id": wl.done[0]})
			wl.wakeSpectators(wl.done[0])
			wl.done = wl.done[1:]
		}
	}
	wl.games[g.ID] = g
	wl.broadcast("game", g)
	wl.wakeSpectators(g.ID)
}

// wakeSpectators tells the spectators of the game with id that it
// changed or left the wall. Called with mu held.
func (wl *wall) wakeSpectators(id string) {
	for ch, game := range wl.spectators {
		if game == id {
			select {
			case ch <- struct{}{}:
			default:
			}
		}
	}
}

// spectate returns a channel told of every change of the game with id,
// counted as one of the wall's pages; nil when the wall has as many pages
// as it takes, or does not show the game.
func (wl *wall) spectate(id string) chan struct{} {
	wl.mu.Lock()
	defer wl.mu.Unlock()
	if _, ok := wl.games[id]; !ok || len(wl.subs)+len(wl.spectators) >= wl.maxViewers {
		return nil
	}
	ch := make(chan struct{}, 1)
	wl.spectators[ch] = id
	return ch
}

func (wl *wall) unspectate(ch chan struct{}) {
	wl.mu.Lock()
	defer wl.mu.Unlock()
	delete(wl.spectators, ch)
}

// source returns the game with id as last saved, if the wall shows it.
func (wl *wall) source(id string) (*store.Game, bool) {
	wl.mu.Lock()
	defer wl.mu.Unlock()
	g, ok := wl.games[id]
	return g.src, ok && g.src != nil
}

// setTable shows a tournament's table.
func (wl *wall) setTable(t Table) {
	wl.mu.Lock()
	defer wl.mu.Unlock()
	wl.table = &t
	wl.broadcast("table", t)
}

// broadcast sends an event to every viewer; one too slow to keep up
// misses it and catches up at its next reload. Called with mu held.
func (wl *wall) broadcast(name string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		return
	}
	for ch := range wl.subs {
		select {
		case ch <- event{name, data}:
		default:
		}
	}
}

// subscribe returns a viewer's channel, primed with everything shown now;
// nil when the wall has as many viewers as it takes.
func (wl *wall) subscribe() chan event {
	wl.mu.Lock()
	defer wl.mu.Unlock()
	if len(wl.subs)+len(wl.spectators) >= wl.maxViewers {
		return nil
	}
	ch := make(chan event, 256)
	ids := make([]string, 0, len(wl.games))
	for id := range wl.games {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if data, err := json.Marshal(wl.games[id]); err == nil {
			ch <- event{"game", data}
		}
	}
	if wl.table != nil {
		if data, err := json.Marshal(wl.table); err == nil {
			ch <- event{"table", data}
		}
	}
	wl.subs[ch] = struct{}{}
	return ch
}

func (wl *wall) unsubscribe(ch chan event) {
	wl.mu.Lock()
	defer wl.mu.Unlock()
	delete(wl.subs, ch)
}

// viewers counts the pages open on the wall.
func (wl *wall) viewers() int {
	wl.mu.Lock()
	defer wl.mu.Unlock()
	return len(wl.subs) + len(wl.spectators)
}

// serveEvents streams the wall's events to one page until it closes.
func (wl *wall) serveEvents(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming is not supported here", http.StatusInternalServerError)
		return
	}
	ch := wl.subscribe()
	if ch == nil {
		http.Error(w, "This wall is open on too many screens at once; close one and reload.", http.StatusServiceUnavailable)
		return
	}
	defer wl.unsubscribe(ch)
	httplimit.Unbounded(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprint(w, "retry: 1000\n\n")
	flusher.Flush()
	keepAlive := time.NewTicker(15 * time.Second)
	defer keepAlive.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-wl.closed:
			return
		case <-keepAlive.C:
			fmt.Fprint(w, ": keep-alive\n\n")
		case ev := <-ch:
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.name, ev.data)
		}
		flusher.Flush()
	}
}

//go:embed wall.html
var wallHTML string

var wallPage = template.Must(template.New("wall").Parse(wallHTML))

// servePage serves the wall's page.
func (wl *wall) servePage(w http.ResponseWriter, _ *http.Request) {
	wl.mu.Lock()
	title := wl.title
	wl.mu.Unlock()
	servePage(w, title)
}

// servePage serves a wall's page with title. The page's address holds a
// secret key: it is neither cached nor passed on as a referrer.
func servePage(w http.ResponseWriter, title string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("X-Robots-Tag", "noindex, nofollow")
	_ = wallPage.Execute(w, map[string]string{"Title": title})
}

// DefaultMaxViewers bounds the pages open on one wall at once (a room's
// projector and the students' own screens).
const DefaultMaxViewers = 200

// idlePolls is how many polls a wall lives on with no page open on it.
const idlePolls = 2

// live is a wall served under a wall key: a server's games, or one of
// its class tournaments. It polls the store only while a page is open on
// it, and is dropped soon after the last page closes, when its key is
// revoked, or when newer walls need its place.
type live struct {
	*wall
	id       string // its place in Server.walls: KEY or KEY/tournament/CHANNEL
	key      string
	access   commands.WallAccess
	channel  string // the tournament's channel; "" for the server's wall
	lastUsed time.Time
}

// noWall answers a request for a wall that does not exist or is off: the
// same answer for a malformed, unknown or revoked key, so that nothing is
// learnt by guessing.
func noWall(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
	http.Error(w, "There is no live wall at this address (it may have been turned off). A referee's /wall on gives a new link.", http.StatusNotFound)
}

// access returns what the request's wall key opens, or answers the
// request itself.
func (s *Server) access(w http.ResponseWriter, r *http.Request) (commands.WallAccess, bool) {
	key := r.PathValue("key")
	if commands.CheckWallKey(key) != nil {
		noWall(w)
		return commands.WallAccess{}, false
	}
	a, err := s.svc.WallByKey(r.Context(), key)
	switch {
	case errors.Is(err, commands.ErrNoWall):
		noWall(w)
		return a, false
	case err != nil:
		id := commands.ErrorID()
		s.log.Warn("wall: key not checked", "error_id", id, "err", err)
		http.Error(w, "The wall cannot be shown right now (error id "+id+"); reload in a moment.", http.StatusServiceUnavailable)
		return a, false
	}
	return a, true
}

// liveWall returns the wall with id, making it (and filling it once)
// when none is live; false when too many walls are watched at once.
func (s *Server) liveWall(ctx context.Context, id, key, channel string, a commands.WallAccess) (*live, error) {
	s.mu.Lock()
	lw := s.walls[id]
	if lw != nil && lw.access == a {
		lw.lastUsed = time.Now()
		s.mu.Unlock()
		return lw, nil
	}
	s.mu.Unlock()
	lw = &live{wall: newWall("Games going on"), id: id, key: key, access: a, channel: channel, lastUsed: time.Now()}
	lw.saved = make(chan *store.Game, 64)
	lw.closed = make(chan struct{})
	lw.maxViewers = s.maxViewers
	if err := s.refresh(ctx, lw); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.walls[id]; old != nil {
		if old.access == a {
			old.lastUsed = time.Now()
			return old, nil
		}
		old.close()
		delete(s.walls, id)
	}
	if len(s.walls) >= s.maxWalls && !s.evictLocked() {
		return nil, errTooManyWalls
	}
	s.walls[id] = lw
	go s.runWall(lw)
	return lw, nil
}

// errTooManyWalls: every live wall is being watched and no more fit.
var errTooManyWalls = errors.New("too many walls are being watched on this server at once")

// evictLocked drops the least recently used wall that no page watches;
// false when every wall is watched. Called with s.mu held.
func (s *Server) evictLocked() bool {
	var oldest *live
	for _, lw := range s.walls {
		if lw.viewers() == 0 && (oldest == nil || lw.lastUsed.Before(oldest.lastUsed)) {
			oldest = lw
		}
	}
	if oldest == nil {
		return false
	}
	oldest.close()
	delete(s.walls, oldest.id)
	return true
}

// drop forgets lw (if it is still the live wall of its id) and ends its
// pages.
func (s *Server) drop(lw *live) {
	s.mu.Lock()
	if s.walls[lw.id] == lw {
		delete(s.walls, lw.id)
	}
	s.mu.Unlock()
	lw.close()
}

// refresh reads what lw shows from the store: its server's games in
// public channels, or its tournament. Games no longer shown (over
// elsewhere, or their channel made private) leave the wall.
func (s *Server) refresh(ctx context.Context, lw *live) error {
	var games []*store.Game
	if lw.channel == "" {
		var err error
		if games, err = s.svc.WallGames(ctx, lw.access.Guild); err != nil {
			return err
		}
	} else {
		v, running, err := s.svc.WallTournament(ctx, lw.access, lw.channel)
		if err != nil {
			return err
		}
		t := Table{Name: v.Name, Cross: v.Cross}
		for _, st := range v.Standings {
			t.Standings = append(t.Standings, Standing{Rank: st.Rank, Name: st.Name, Points: st.Points, Played: st.Played})
		}
		for _, g := range v.Reviewable { // only on a wall that shows names: WallTournament
			base := "/wall/" + lw.key + "/analysis/" + g.ID
			t.Reviews = append(t.Reviews, Review{Label: g.Label, Graph: base, Page: base + "/page"})
		}
		lw.mu.Lock()
		lw.title = v.Name
		lw.mu.Unlock()
		lw.setTable(t)
		games = running
	}
	shown := map[string]bool{}
	for _, g := range games {
		shown[g.ID] = true
		lw.update(s.wallGame(g, lw.access.Names))
	}
	lw.forget(shown)
	return nil
}

// runWall draws and shows the games saved in this process as they come,
// and re-reads the wall every poll while a page is open on it, to show
// the changes other processes make (a bot move by an `arbiter worker`)
// and to end it at once when its key is revoked. It drops the wall after
// idlePolls polls without a page.
func (s *Server) runWall(lw *live) {
	t := time.NewTicker(s.poll)
	defer t.Stop()
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("wall panicked; its pages reconnect", "panic", p, "stack", string(debug.Stack()))
			s.drop(lw)
		}
	}()
	idle := 0
	for {
		select {
		case <-lw.closed:
			return
		case g := <-lw.saved:
			if s.svc.ChannelPublic(context.Background(), lw.access.Guild, g.Channel) && (lw.channel == "" || lw.shows(g.ID)) {
				lw.update(s.wallGame(g, lw.access.Names))
			}
			continue
		case <-t.C:
		}
		if lw.viewers() == 0 {
			if idle++; idle >= idlePolls {
				s.drop(lw)
				return
			}
			continue
		}
		idle = 0
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		a, err := s.svc.WallByKey(ctx, lw.key)
		switch {
		case errors.Is(err, commands.ErrNoWall), err == nil && a != lw.access:
			cancel()
			s.drop(lw) // revoked, or shown otherwise now: pages reconnect to the new state
			return
		case err == nil:
			err = s.refresh(ctx, lw)
		}
		cancel()
		if errors.Is(err, commands.ErrNoWall) {
			s.drop(lw)
			return
		}
	}
}

func (s *Server) wallPage(w http.ResponseWriter, r *http.Request) {
	a, ok := s.access(w, r)
	if !ok {
		return
	}
	title := "Games going on"
	if ch := r.PathValue("channel"); ch != "" {
		v, _, err := s.svc.WallTournament(r.Context(), a, ch)
		if err != nil {
			s.wallError(w, err)
			return
		}
		title = v.Name
	}
	servePage(w, title)
}

func (s *Server) wallEvents(w http.ResponseWriter, r *http.Request) {
	a, ok := s.access(w, r)
	if !ok {
		return
	}
	key, ch := r.PathValue("key"), r.PathValue("channel")
	id := key
	if ch != "" {
		id += "/tournament/" + ch
	}
	lw, err := s.liveWall(r.Context(), id, key, ch, a)
	if err != nil {
		s.wallError(w, err)
		return
	}
	lw.serveEvents(w, r)
}

// wallError answers a wall that cannot be served.
func (s *Server) wallError(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, commands.ErrNoWall):
		noWall(w)
	case errors.Is(err, errTooManyWalls):
		http.Error(w, "Too many walls are being watched on this server right now; reload in a minute.", http.StatusServiceUnavailable)
	default:
		id := commands.ErrorID()
		s.log.Warn("wall: not read", "error_id", id, "err", err)
		http.Error(w, "The wall cannot be shown right now (error id "+id+"); reload in a moment.", http.StatusServiceUnavailable)
	}
}

// wallGame is g as a wall naming players by names shows it.
func (s *Server) wallGame(g *store.Game, names string) WallGame {
	wg := WallGame{ID: g.ID, Title: s.svc.Title(g.Name), Version: g.Version, Ply: len(g.Moves), Status: "active",
		Players: commands.WallNames(g, names), src: g}
	for _, m := range g.Moves[max(0, len(g.Moves)-lastMoves):] {
		wg.Last = append(wg.Last, m.Text)
	}
	switch {
	case g.Status == store.Finished:
		wg.Status, wg.Result = "finished", commands.WallResult(g, wg.Players)
	case commands.FlowOf(g).Challenge:
		wg.Status = "challenge"
	default:
		wg.ToMove = int(g.State.ToMove()) + 1
	}
	if png, err := s.svc.WallBoardPNG(g, wg.Players); err == nil {
		wg.Board = "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)
	} else {
		s.log.Warn("wall: board not drawn", "game", g.ID, "err", err)
	}
	return wg
}

// LiveWalls counts the walls being kept up to date now (for tests and
// metrics): walls are made only for valid keys and dropped when unwatched.
func (s *Server) LiveWalls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.walls)
}
