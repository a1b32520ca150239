package commands

import (
	"context"
	"fmt"

	"arbiter/rules"
	"arbiter/store"
)

// ratingID is the id a seat is rated under: a person's user id,
// "bot:LEVEL" for each bot level, "program:NAME" for an outside program.
func ratingID(p store.Player) string {
	switch p.Kind {
	case store.Bot:
		return fmt.Sprintf("bot:%d", p.Level)
	case store.Program:
		if p.UserID != "" { // a student's program, rated apart from them
			return "program:" + p.UserID
		}
		return "program:" + p.Program
	}
	return p.UserID
}

// rate applies a finished, rated game with a result to its players'
// Glicko-2 ratings in the guild and game, once per game.
func (s *Service) rate(ctx context.Context, g *store.Game) error {
	if !flow(g).Rated || g.Result == rules.Ongoing {
		return nil
	}
	ids := []string{ratingID(g.Players[0]), ratingID(g.Players[1])}
	if ids[0] == ids[1] {
		return nil // one person on both seats: nothing to rate
	}
	score := [2]float64{0.5, 0.5}
	switch g.Result {
	case rules.P1Wins:
		score = [2]float64{1, 0}
	case rules.P2Wins:
		score = [2]float64{0, 1}
	}
	_, err := s.store.UpdateRatings(ctx, g.Guild, g.Name, g.ID, ids, func(cur []store.Rating) ([]store.Rating, error) {
		var before [2]Rating
		for i, r := range cur {
			before[i] = Rating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}
			if r.Games == 0 && r.Deviation == 0 {
				before[i] = NewRating()
			}
		}
		next := make([]store.Rating, 2)
		for i := range next {
			after := before[i].Update([]GameScore{{Opponent: before[1-i], Score: score[i]}})
			n := cur[i]
			n.Name = plainName(g.Players[i])
			n.Rating, n.Deviation, n.Volatility = after.Rating, after.Deviation, after.Volatility
			n.Games++
			switch score[i] {
			case 1:
				n.Wins++
			case 0:
				n.Losses++
			default:
				n.Draws++
			}
			next[i] = n
		}
		return next, nil
	})
	if err != nil {
		return fmt.Errorf("rate game %s of guild %s: %w", g.ID, g.Guild, err)
	}
	return nil
}
