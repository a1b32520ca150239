package api

import (
	"context"
	"errors"
	"net/http"
	"regexp"

	"arbiter/commands"
	"arbiter/store"
)

// idPattern is what a game id in a wall's address may be.
var idPattern = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// analysisGraph serves a finished game's analysis graph
// (/wall/KEY/analysis/ID), putting the analysis in line the first time
// it is asked for.
func (s *Server) analysisGraph(w http.ResponseWriter, r *http.Request) {
	s.analysisFile(w, r, "image/png", s.svc.AnalysisGraph)
}

// analysisPage serves a finished game's review page
// (/wall/KEY/analysis/ID/page), as analysisGraph its graph.
func (s *Server) analysisPage(w http.ResponseWriter, r *http.Request) {
	s.analysisFile(w, r, "text/html; charset=utf-8", s.svc.AnalysisPage)
}

// analysisFile serves what get returns for the path's game: a game of a
// public channel of the key's server, on a wall that shows names (an
// analysis names its players as the server shows them). Anything else is
// the wall's one 404.
func (s *Server) analysisFile(w http.ResponseWriter, r *http.Request, contentType string,
	get func(ctx context.Context, guild, id string) ([]byte, error)) {
	a, ok := s.access(w, r)
	if !ok {
		return
	}
	id := r.PathValue("id")
	if !idPattern.MatchString(id) || a.Names != commands.NamesDisplay || !s.svc.ArchivedGamePublic(r.Context(), a.Guild, id) {
		noWall(w)
		return
	}
	data, err := get(r.Context(), a.Guild, id)
	switch {
	case err == nil:
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Cache-Control", "private, max-age=3600")
		w.Header().Set("Referrer-Policy", "no-referrer")
		_, _ = w.Write(data)
	case errors.Is(err, commands.ErrAnalysisQueued):
		w.Header().Set("Retry-After", "60")
		http.Error(w, "the analysis of this game is being made; reload in a minute", http.StatusAccepted)
	case errors.Is(err, store.ErrNotFound):
		noWall(w) // the wall's one 404: nothing is learnt of which games exist
	default:
		eid := commands.ErrorID()
		s.log.Warn("wall: analysis not made", "error_id", eid, "game", id, "err", err)
		http.Error(w, "the analysis cannot be made right now (error id "+eid+"); try again later", http.StatusServiceUnavailable)
	}
}
