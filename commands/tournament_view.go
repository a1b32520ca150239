package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"arbiter/store"
	"arbiter/tournament"
)

// TournamentView is a class tournament as a wall shows it: names as shown
// in the server, no ids.
type TournamentView struct {
	// Guild is the server it was created in; "" for a record made before
	// it was kept.
	Guild     string
	Name      string
	Standings []TournamentStanding
	// Cross[i][j] is what Standings[i] scored against Standings[j].
	Cross [][]string
	// Channels are the channels of its games started so far.
	Channels []string
	// Reviewable are its finished games whose round is over, which may be
	// analysed (AnalysisGraph).
	Reviewable []TournamentGame
}

// TournamentGame is a finished game of a tournament.
type TournamentGame struct {
	ID    string // its archive id
	Label string // "round 1: ann against bob"
}

// TournamentStanding is one line of a tournament's standings.
type TournamentStanding struct {
	Rank int
	Name string
	// Entrant is the player's number in the order they joined, from 1.
	Entrant int
	Points  float64
	Played  int
}

// TournamentView returns the tournament created in channel;
// store.ErrNotFound when there is none.
func (s *Service) TournamentView(ctx context.Context, channel string) (TournamentView, error) {
	raw, err := s.store.ChannelSetting(ctx, channel, tournamentKey)
	if err != nil {
		return TournamentView{}, err
	}
	if raw == "" {
		return TournamentView{}, fmt.Errorf("tournament of %s: %w", channel, store.ErrNotFound)
	}
	var t tourney
	if err := json.Unmarshal([]byte(raw), &t); err != nil {
		return TournamentView{}, fmt.Errorf("tournament record of %s: %w", channel, err)
	}
	names := map[string]string{}
	entrant := map[string]int{}
	for i, u := range t.Players {
		names[u.ID] = u.Name
		entrant[u.ID] = i + 1
	}
	v := TournamentView{Guild: t.Guild, Name: fmt.Sprintf("%s tournament (%s)", s.title(t.Game), t.Format)}
	for _, g := range t.Games {
		if g.Channel != "" {
			v.Channels = append(v.Channels, g.Channel)
		}
	}
	for _, g := range t.Games {
		if g.ID != "" && g.Second >= 0 && t.roundOver(g.Round) {
			v.Reviewable = append(v.Reviewable, TournamentGame{ID: g.ID,
				Label: fmt.Sprintf("round %d: %s against %s", g.Round, names[t.Players[g.First].ID], names[t.Players[g.Second].ID])})
		}
	}
	results := t.gameResults()
	st := tournament.Standings(t.entrants(), results)
	for _, x := range st {
		v.Standings = append(v.Standings, TournamentStanding{Rank: x.Rank, Name: names[x.Player], Entrant: entrant[x.Player], Points: x.Points, Played: x.Games})
	}
	v.Cross = tournament.Cross(st, results)
	return v, nil
}

// WallTournament returns the tournament created in channel as the wall
// that access opens shows it: names as the server chose, its games going
// on in channels every member can view. ErrNoWall when the tournament is
// not of access's server or its channel is not public.
func (s *Service) WallTournament(ctx context.Context, access WallAccess, channel string) (TournamentView, []*store.Game, error) {
	v, err := s.TournamentView(ctx, channel)
	if errors.Is(err, store.ErrNotFound) {
		return TournamentView{}, nil, ErrNoWall
	}
	if err != nil {
		return TournamentView{}, nil, err
	}
	if v.Guild != "" && v.Guild != access.Guild || !s.ChannelPublic(ctx, access.Guild, channel) {
		return TournamentView{}, nil, ErrNoWall
	}
	for i, st := range v.Standings {
		switch access.Names {
		case NamesDisplay:
		case NamesAnonymous:
			v.Standings[i].Name = fmt.Sprintf("Entrant %d", st.Entrant)
		default:
			v.Standings[i].Name = Initials(st.Name)
		}
	}
	ours := map[string]bool{}
	for _, ch := range v.Channels {
		ours[ch] = true
	}
	all, err := s.WallGames(ctx, access.Guild)
	if err != nil {
		return TournamentView{}, nil, err
	}
	var running []*store.Game
	for _, g := range all {
		if ours[g.Channel] {
			running = append(running, g)
		}
	}
	v.Channels = nil
	if access.Names != NamesDisplay {
		v.Reviewable = nil // their labels and analyses name the players
	}
	return v, running, nil
}
