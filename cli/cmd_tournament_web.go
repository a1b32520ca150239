package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"arbiter/api"
	"arbiter/tournament"
)

// wallSource is a running tournament as the live wall of package api reads
// it (api.TournamentSource), fed by the tournament's events.
type wallSource struct {
	mu      sync.Mutex
	name    string
	table   api.Table
	games   map[string]api.LiveGame
	order   []string // game ids, oldest first
	changes chan struct{}
}

func newWallSource(name string) *wallSource {
	return &wallSource{name: name, table: api.Table{Name: name}, games: map[string]api.LiveGame{}, changes: make(chan struct{}, 1)}
}

// Snapshot returns the standings and the games being played (and the last
// ones finished).
func (w *wallSource) Snapshot(context.Context) (api.Tournament, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	t := api.Tournament{Table: w.table}
	for _, id := range w.order {
		t.Games = append(t.Games, w.games[id])
	}
	return t, nil
}

// Changes receives a value when the snapshot may have changed.
func (w *wallSource) Changes() <-chan struct{} { return w.changes }

// wallGamesKept bounds the finished games the wall keeps showing.
const wallGamesKept = 8

// event takes a tournament event in.
func (w *wallSource) event(e tournament.Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch e.Kind {
	case tournament.Moved:
		g, ok := w.games[e.Game.ID]
		if !ok {
			w.order = append(w.order, e.Game.ID)
			g = api.LiveGame{ID: e.Game.ID, Players: [2]string{e.Game.First, e.Game.Second}}
		}
		g.State, g.Version = e.Position, int64(e.Position.Ply())
		w.games[e.Game.ID] = g
	case tournament.GameFinished:
		if g, ok := w.games[e.Game.ID]; ok {
			g.Result, g.Version = verdict(e.Game)+", "+e.Game.Reason, g.Version+1
			w.games[e.Game.ID] = g
		}
		w.prune()
		fallthrough
	case tournament.Finished:
		w.table = api.Table{Name: w.name, Cross: e.Cross}
		for _, s := range e.Standings {
			w.table.Standings = append(w.table.Standings, api.Standing{Rank: s.Rank, Name: s.Player, Points: s.Points, Played: s.Games})
		}
	default:
		return
	}
	select {
	case w.changes <- struct{}{}:
	default:
	}
}

// prune forgets the oldest finished games beyond wallGamesKept.
func (w *wallSource) prune() {
	finished := 0
	for _, id := range w.order {
		if w.games[id].Result != "" {
			finished++
		}
	}
	kept := w.order[:0]
	for _, id := range w.order {
		if w.games[id].Result != "" && finished > wallGamesKept {
			finished--
			delete(w.games, id)
			continue
		}
		kept = append(kept, id)
	}
	w.order = kept
}

// serveWall serves the live wall of src on addr until ctx ends; it returns
// the address it listens on.
func serveWall(ctx context.Context, addr string, src *wallSource, stderr io.Writer) (string, func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("--web: %w", err)
	}
	wallCtx, cancel := context.WithCancel(ctx)
	srv := &http.Server{Handler: api.TournamentWall(wallCtx, src, slog.New(slog.NewTextHandler(stderr, nil))), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	stop := func() {
		cancel()
		shut, done := context.WithTimeout(context.Background(), 2*time.Second)
		defer done()
		_ = srv.Shutdown(shut)
	}
	return ln.Addr().String(), stop, nil
}
