package api

import (
	"context"
	"encoding/base64"
	"log/slog"
	"net/http"

	"arbiter/render"
	"arbiter/rules"
	"arbiter/rules/described"
	"arbiter/rules/games"
)

// Standing is one line of a tournament's standings.
type Standing struct {
	Rank   int     `json:"rank"`
	Name   string  `json:"name"`
	Points float64 `json:"points"`
	Played int     `json:"played"`
}

// Table is a tournament's standings and cross table.
type Table struct {
	Name      string     `json:"name"`
	Standings []Standing `json:"standings"`
	// Cross[i][j] is what Standings[i] scored against Standings[j] (e.g.
	// "1", "½", "0", "1 ½" over two games; "" not yet played).
	Cross [][]string `json:"cross"`
	// Reviews link the finished games' analyses, where there are.
	Reviews []Review `json:"reviews,omitempty"`
}

// Review links a finished game's analysis: its graph and review page.
type Review struct {
	Label string `json:"label"`
	Graph string `json:"graph"`
	Page  string `json:"page"`
}

// LiveGame is a tournament game as its source gives it to the wall.
type LiveGame struct {
	ID      string
	Players [2]string
	// State is the position now; the wall reads it, never changes it.
	State rules.Game
	// Version must grow with every change (e.g. the number of moves).
	Version int64
	// Result is how it ended, in words; "" while it goes on.
	Result string
}

// Tournament is a running tournament as the wall shows it.
type Tournament struct {
	Table Table
	Games []LiveGame // the games going on (and those just over)
}

// TournamentSource is a running tournament for TournamentWall: what
// `arbiter tournament --web ADDR` plugs in.
type TournamentSource interface {
	// Snapshot returns the tournament as it is now.
	Snapshot(ctx context.Context) (Tournament, error)
	// Changes receives a value whenever the snapshot may have changed.
	Changes() <-chan struct{}
}

// TournamentWall serves the wall of a running tournament: the page at /
// and its events at /events, kept up to date from src until ctx ends.
func TournamentWall(ctx context.Context, src TournamentSource, log *slog.Logger) http.Handler {
	if log == nil {
		log = slog.Default()
	}
	wl := newWall("Tournament")
	refresh := func() {
		t, err := src.Snapshot(ctx)
		if err != nil {
			log.Warn("wall: tournament not read", "err", err)
			return
		}
		if t.Table.Name != "" {
			wl.mu.Lock()
			wl.title = t.Table.Name
			wl.mu.Unlock()
		}
		for _, g := range t.Games {
			wl.update(liveWallGame(g))
		}
		wl.setTable(t.Table)
	}
	refresh()
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-src.Changes():
				refresh()
			}
		}
	}()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", wl.servePage)
	mux.HandleFunc("GET /events", wl.serveEvents)
	return mux
}

// liveWallGame is a tournament game as the wall shows it.
func liveWallGame(g LiveGame) WallGame {
	title := g.State.Name()
	if d, err := games.Registry().Lookup(title); err == nil {
		title = d.Title
	} else if dg, ok := described.Of(g.State); ok {
		title = dg.Title() // a game of GAMES_DIR
	}
	wg := WallGame{ID: g.ID, Title: title, Players: g.Players, Version: g.Version, Ply: g.State.Ply(), Status: "active", Result: g.Result}
	if g.Result != "" {
		wg.Status = "finished"
	} else {
		wg.ToMove = int(g.State.ToMove()) + 1
	}
	c := g.State.Clone()
	var last []string
	for range min(lastMoves, c.Ply()) {
		c.Undo()
	}
	for _, m := range g.State.History()[c.Ply():] {
		last = append(last, c.FormatMove(m))
		c.Play(m)
	}
	wg.Last = last
	if png, err := render.PNG(g.State, render.Options{Players: g.Players}); err == nil {
		wg.Board = "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)
	}
	return wg
}
