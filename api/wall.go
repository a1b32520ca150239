package api

import (
	"context"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"regexp"
	"slices"
	"sync"
	"time"

	"arbiter/commands"
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
}

// maxFinished is how many finished games a wall keeps showing.
const maxFinished = 8

// maxWalls bounds the guild walls one server keeps.
const maxWalls = 256

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
	// saved holds games saved but not yet drawn: drawing a board is kept
	// off the path of the command that saved it.
	saved chan *store.Game
}

// event is one server-sent event.
type event struct {
	name string
	data []byte
}

func newWall(title string) *wall {
	return &wall{title: title, games: map[string]WallGame{}, subs: map[chan event]struct{}{}}
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
			wl.done = wl.done[1:]
		}
	}
	wl.games[g.ID] = g
	wl.broadcast("game", g)
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

// subscribe returns a viewer's channel, primed with everything shown now.
func (wl *wall) subscribe() chan event {
	wl.mu.Lock()
	defer wl.mu.Unlock()
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
	return len(wl.subs)
}

// serveEvents streams the wall's events to one page until it closes.
func (wl *wall) serveEvents(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming is not supported here", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	ch := wl.subscribe()
	defer wl.unsubscribe(ch)
	fmt.Fprint(w, "retry: 1000\n\n")
	flusher.Flush()
	keepAlive := time.NewTicker(15 * time.Second)
	defer keepAlive.Stop()
	for {
		select {
		case <-r.Context().Done():
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
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	wl.mu.Lock()
	title := wl.title
	wl.mu.Unlock()
	_ = wallPage.Execute(w, map[string]string{"Title": title})
}

// guildPattern is what a guild id in a wall's address may be.
var guildPattern = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// guildWall returns the wall of the request's guild, loading its games
// the first time it is asked for.
func (s *Server) guildWall(w http.ResponseWriter, r *http.Request) (*wall, bool) {
	guild := r.PathValue("guild")
	if !guildPattern.MatchString(guild) {
		http.Error(w, "no such server", http.StatusNotFound)
		return nil, false
	}
	s.mu.Lock()
	wl := s.walls[guild]
	s.mu.Unlock()
	if wl != nil {
		return wl, true
	}
	games, err := s.svc.RunningGames(r.Context(), guild)
	if err != nil {
		s.log.Warn("wall: games not read", "guild", guild, "err", err)
		http.Error(w, "the games cannot be read right now; reload in a moment", http.StatusServiceUnavailable)
		return nil, false
	}
	s.mu.Lock()
	if s.walls[guild] == nil && len(s.walls) >= maxWalls {
		s.mu.Unlock()
		http.Error(w, "too many walls are open on this server", http.StatusServiceUnavailable)
		return nil, false
	}
	if s.walls[guild] == nil {
		wl = newWall("Games going on")
		wl.saved = make(chan *store.Game, 64)
		s.walls[guild] = wl
		go s.runWall(guild, wl)
	}
	wl = s.walls[guild]
	s.mu.Unlock()
	for _, g := range games {
		wl.update(s.wallGame(g))
	}
	return wl, true
}

// runWall draws and shows the games saved in this process as they come,
// and re-reads the guild's running games every poll while the wall has
// viewers, to show the changes other processes make (a bot move by an
// `arbiter worker`).
func (s *Server) runWall(guild string, wl *wall) {
	t := time.NewTicker(s.poll)
	defer t.Stop()
	for {
		select {
		case g := <-wl.saved:
			wl.update(s.wallGame(g))
			continue
		case <-t.C:
		}
		if wl.viewers() == 0 {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		games, err := s.svc.RunningGames(ctx, guild)
		cancel()
		if err != nil {
			continue
		}
		for _, g := range games {
			wl.update(s.wallGame(g))
		}
	}
}

func (s *Server) wallPage(w http.ResponseWriter, r *http.Request) {
	if wl, ok := s.guildWall(w, r); ok {
		wl.servePage(w, r)
	}
}

func (s *Server) wallEvents(w http.ResponseWriter, r *http.Request) {
	if wl, ok := s.guildWall(w, r); ok {
		wl.serveEvents(w, r)
	}
}

// wallGame is g as the wall shows it.
func (s *Server) wallGame(g *store.Game) WallGame {
	wg := WallGame{ID: g.ID, Title: s.svc.Title(g.Name), Version: g.Version, Ply: len(g.Moves), Status: "active"}
	for i, p := range g.Players {
		wg.Players[i] = commands.PlayerName(p)
	}
	for _, m := range g.Moves[max(0, len(g.Moves)-lastMoves):] {
		wg.Last = append(wg.Last, m.Text)
	}
	switch {
	case g.Status == store.Finished:
		wg.Status, wg.Result = "finished", g.Reason
		if w, ok := g.Result.Winner(); ok {
			wg.Result = wg.Players[w] + " wins: " + g.Reason
		}
	case commands.FlowOf(g).Challenge:
		wg.Status = "challenge"
	default:
		wg.ToMove = int(g.State.ToMove()) + 1
	}
	if png, err := s.svc.BoardPNG(g); err == nil {
		wg.Board = "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)
	} else {
		s.log.Warn("wall: board not drawn", "game", g.ID, "err", err)
	}
	return wg
}
