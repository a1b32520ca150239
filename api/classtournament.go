package api

import (
	"context"
	"errors"
	"net/http"
	"time"

	"arbiter/commands"
	"arbiter/store"
)

// classTournament is a class's tournament in Discord (/tournament) as a
// TournamentSource: its standings and cross table, and its games going on,
// read again every poll.
type classTournament struct {
	s              *Server
	guild, channel string
	changes        chan struct{}
}

// Snapshot reads the tournament and its running games.
func (c *classTournament) Snapshot(ctx context.Context) (Tournament, error) {
	v, err := c.s.svc.TournamentView(ctx, c.channel)
	if err != nil {
		return Tournament{}, err
	}
	t := Tournament{Table: Table{Name: v.Name, Cross: v.Cross}}
	for _, st := range v.Standings {
		t.Table.Standings = append(t.Table.Standings, Standing{Rank: st.Rank, Name: st.Name, Points: st.Points, Played: st.Played})
	}
	for _, g := range v.Reviewable {
		base := "/wall/" + c.guild + "/analysis/" + g.ID
		t.Table.Reviews = append(t.Table.Reviews, Review{Label: g.Label, Graph: base, Page: base + "/page"})
	}
	ours := map[string]bool{}
	for _, ch := range v.Channels {
		ours[ch] = true
	}
	running, err := c.s.svc.RunningGames(ctx, c.guild)
	if err != nil {
		return Tournament{}, err
	}
	for _, g := range running {
		if ours[g.Channel] {
			t.Games = append(t.Games, LiveGame{ID: g.Channel, Players: [2]string{commands.PlayerName(g.Players[0]), commands.PlayerName(g.Players[1])},
				State: g.State, Version: g.Version})
		}
	}
	return t, nil
}

// Changes ticks every poll.
func (c *classTournament) Changes() <-chan struct{} { return c.changes }

// tickEvery feeds ch every d, forever: a tournament wall lives as long as
// its server.
func tickEvery(d time.Duration, ch chan<- struct{}) {
	for range time.Tick(d) {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// analysisGraph serves a finished game's analysis graph
// (/wall/GUILD/analysis/ID), putting the analysis in line the first time
// it is asked for.
func (s *Server) analysisGraph(w http.ResponseWriter, r *http.Request) {
	s.analysisFile(w, r, "image/png", s.svc.AnalysisGraph)
}

// analysisPage serves a finished game's review page
// (/wall/GUILD/analysis/ID/page), as analysisGraph its graph.
func (s *Server) analysisPage(w http.ResponseWriter, r *http.Request) {
	s.analysisFile(w, r, "text/html; charset=utf-8", s.svc.AnalysisPage)
}

// analysisFile serves what get returns for the path's game.
func (s *Server) analysisFile(w http.ResponseWriter, r *http.Request, contentType string,
	get func(ctx context.Context, guild, id string) ([]byte, error)) {
	guild, id := r.PathValue("guild"), r.PathValue("id")
	if !guildPattern.MatchString(guild) || !guildPattern.MatchString(id) {
		http.Error(w, "no such game", http.StatusNotFound)
		return
	}
	data, err := get(r.Context(), guild, id)
	switch {
	case err == nil:
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Cache-Control", "max-age=3600")
		_, _ = w.Write(data)
	case errors.Is(err, commands.ErrAnalysisQueued):
		w.Header().Set("Retry-After", "60")
		http.Error(w, "the analysis of this game is being made; reload in a minute", http.StatusAccepted)
	case errors.Is(err, store.ErrNotFound):
		http.Error(w, "no finished game with that id here, or its tournament round is still being played", http.StatusNotFound)
	default:
		s.log.Warn("wall: analysis not made", "game", id, "err", err)
		http.Error(w, "the analysis cannot be made right now; try again later", http.StatusServiceUnavailable)
	}
}

// tournamentWall serves the wall of the class tournament created in the
// channel of the path (/wall/GUILD/tournament/CHANNEL/): its standings,
// cross table and games going on, updated as they change. Walls count
// against the same bound as the guilds' walls.
func (s *Server) tournamentWall(w http.ResponseWriter, r *http.Request) {
	guild, channel := r.PathValue("guild"), r.PathValue("channel")
	if !guildPattern.MatchString(guild) || !guildPattern.MatchString(channel) {
		http.Error(w, "no such tournament", http.StatusNotFound)
		return
	}
	if _, err := s.svc.TournamentView(r.Context(), channel); errors.Is(err, store.ErrNotFound) {
		http.Error(w, "no tournament was created in that channel", http.StatusNotFound)
		return
	} else if err != nil {
		s.log.Warn("wall: tournament not read", "channel", channel, "err", err)
		http.Error(w, "the tournament cannot be read right now; reload in a moment", http.StatusServiceUnavailable)
		return
	}
	key := guild + "/tournament/" + channel
	s.mu.Lock()
	h := s.tournaments[key]
	if h == nil {
		if len(s.walls)+len(s.tournaments) >= maxWalls {
			s.mu.Unlock()
			http.Error(w, "too many walls are open on this server", http.StatusServiceUnavailable)
			return
		}
		src := &classTournament{s: s, guild: guild, channel: channel, changes: make(chan struct{}, 1)}
		go tickEvery(s.poll, src.changes)
		h = http.StripPrefix("/wall/"+key, TournamentWall(context.Background(), src, s.log))
		s.tournaments[key] = h
	}
	s.mu.Unlock()
	h.ServeHTTP(w, r)
}
