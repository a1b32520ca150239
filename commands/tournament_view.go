package commands

import (
	"context"
	"encoding/json"
	"fmt"

	"arbiter/store"
	"arbiter/tournament"
)

// TournamentView is a class tournament as a wall shows it: names as shown
// in the server, no ids.
type TournamentView struct {
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
	Rank   int
	Name   string
	Points float64
	Played int
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
	for _, u := range t.Players {
		names[u.ID] = u.Name
	}
	v := TournamentView{Name: fmt.Sprintf("%s tournament (%s)", s.title(t.Game), t.Format)}
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
		v.Standings = append(v.Standings, TournamentStanding{Rank: x.Rank, Name: names[x.Player], Points: x.Points, Played: x.Games})
	}
	v.Cross = tournament.Cross(st, results)
	return v, nil
}
