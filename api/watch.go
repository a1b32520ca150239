package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"arbiter/commands"
	"arbiter/store"
)

// A wall's spectators watch one game on the play page, read-only, under
// the wall's key and its rules: only games the wall shows (channels every
// member can view), players named as the wall names them, the rules' own
// result; no session and no action.

// wallGameOf returns the game in the request's path if the wall of its
// key shows it, and how the wall names its players; or writes the refusal.
func (s *Server) wallGameOf(w http.ResponseWriter, r *http.Request) (commands.WallAccess, func(context.Context) (*store.Game, error), bool) {
	a, ok := s.access(w, r)
	if !ok {
		return a, nil, false
	}
	id := r.PathValue("game")
	load := func(ctx context.Context) (*store.Game, error) {
		games, err := s.svc.WallGames(ctx, a.Guild)
		if err != nil {
			return nil, err
		}
		for _, g := range games {
			if g.ID == id {
				return g, nil
			}
		}
		return nil, store.ErrNotFound
	}
	if _, err := load(r.Context()); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			noWall(w) // as for any address the wall does not serve
		} else {
			http.Error(w, "The game cannot be read right now; reload in a moment.", http.StatusServiceUnavailable)
		}
		return a, nil, false
	}
	return a, load, true
}

// watchPage serves the play page read-only for a wall's spectator.
func (s *Server) watchPage(w http.ResponseWriter, r *http.Request) {
	if _, _, ok := s.wallGameOf(w, r); ok {
		s.servePage(w, r.PathValue("game"), "", r.URL.Path)
	}
}

// watchState answers with the game as the wall's spectators see it.
func (s *Server) watchState(w http.ResponseWriter, r *http.Request) {
	a, load, ok := s.wallGameOf(w, r)
	if !ok {
		return
	}
	g, err := load(r.Context())
	if err == nil {
		var v commands.PlayView
		if v, err = s.svc.WallPlayView(g, commands.WallNames(g, a.Names)); err == nil {
			writeJSON(w, http.StatusOK, v)
			return
		}
	}
	http.Error(w, "The game cannot be shown right now; reload in a moment.", http.StatusServiceUnavailable)
}

// watchEvents streams the game to a wall's spectator, as a page of the
// wall: counted against its pages, fed by the wall's own reading of the
// store (no read of its own), and ended with the wall, so that a key
// turned off, replaced or set to other names ends it within a poll.
func (s *Server) watchEvents(w http.ResponseWriter, r *http.Request) {
	a, ok := s.access(w, r)
	if !ok {
		return
	}
	key, id := r.PathValue("key"), r.PathValue("game")
	lw, err := s.liveWall(r.Context(), key, key, "", a)
	if err != nil {
		s.wallError(w, err)
		return
	}
	if !lw.shows(id) {
		noWall(w) // as for any address the wall does not serve
		return
	}
	changed := lw.spectate(id)
	if changed == nil {
		http.Error(w, "This wall is open on too many screens at once; close one and reload.", http.StatusServiceUnavailable)
		return
	}
	defer lw.unspectate(changed)
	flusher, ok := startEvents(w)
	if !ok {
		return
	}
	keepAlive := time.NewTicker(15 * time.Second)
	defer keepAlive.Stop()
	var sent int64 = -1
	send := func() bool { // drawn only when the game changed
		g, ok := lw.source(id)
		if !ok {
			return false // off the wall: its channel made private, or pushed out
		}
		if g.Version == sent {
			return true
		}
		v, err := s.svc.WallPlayView(g, commands.WallNames(g, a.Names))
		if err != nil {
			s.log.Warn("wall: spectator's board not drawn", "game", id, "err", err)
			return true
		}
		sent = v.Version
		data, _ := json.Marshal(v)
		fmt.Fprintf(w, "event: game\ndata: %s\n\n", data)
		return true
	}
	if !send() {
		return
	}
	flusher.Flush()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-lw.closed:
			return
		case <-changed:
			if !send() {
				return
			}
		case <-keepAlive.C:
			fmt.Fprint(w, ": keep-alive\n\n")
		}
		flusher.Flush()
	}
}
