package commands

import (
	"cmp"
	"context"
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"arbiter/rules"
	"arbiter/tournament"
)

// This file is what the Swiss and knockout formats of /tournament add to
// round robins and gauntlets, whose games are all scheduled at the
// start: their rounds are paired one at a time, from the results of the
// rounds before, by package tournament's PairSwiss and KnockoutRound.

const (
	// maxSwissRounds bounds a Swiss tournament's rounds.
	maxSwissRounds = 12
	// knockoutPlayoffs is how many more pairs of games a level knockout
	// tie plays before the higher seed goes through: one, since each
	// correspondence game can last days.
	knockoutPlayoffs = 1
)

// rounds is the tournament's number of rounds (a knockout's, once
// seeded).
func (t *tourney) rounds() int {
	switch tournament.Format(t.Format) {
	case tournament.Swiss:
		return t.Cycles
	case tournament.Knockout:
		if len(t.Bracket) == 0 {
			return 0
		}
		return bits.Len(uint(len(t.Bracket[0]))) - 1
	}
	return t.lastRound()
}

// seed orders t's players by their rating in the game, the rated first,
// the others in the order they joined: the seeding of a knockout and the
// first ranking of a Swiss tournament.
func (s *Service) seed(ctx context.Context, guild string, t *tourney) error {
	ids := make([]string, len(t.Players))
	for i, u := range t.Players {
		ids[i] = u.ID
	}
	rs, err := s.store.Ratings(ctx, guild, t.Game, ids...)
	if err != nil {
		return fmt.Errorf("ratings for the seeding: %w", err)
	}
	rating := map[string]float64{}
	for _, r := range rs {
		if r.Games > 0 {
			rating[r.Player] = r.Rating
		}
	}
	slices.SortStableFunc(t.Players, func(a, b User) int {
		ra, okA := rating[a.ID]
		rb, okB := rating[b.ID]
		if okA != okB {
			if okA {
				return -1
			}
			return 1
		}
		return cmp.Compare(rb, ra)
	})
	return nil
}

// pairFirstRound seeds t and schedules its first round.
func (s *Service) pairFirstRound(ctx context.Context, guild string, t *tourney) error {
	switch tournament.Format(t.Format) {
	case tournament.RoundRobin, tournament.Gauntlet:
		for _, p := range tournament.Schedule(tournament.Format(t.Format), len(t.Players), t.Cycles) {
			t.Games = append(t.Games, tourneyGame{Round: p.Round, First: p.First, Second: p.Second})
		}
		return nil
	}
	if err := s.seed(ctx, guild, t); err != nil {
		return err
	}
	if t.Format == string(tournament.Knockout) {
		t.Bracket = [][]int{tournament.KnockoutSlots(len(t.Players))}
	} else if t.Cycles == 0 {
		t.Cycles = tournament.SwissRounds(len(t.Players))
	}
	t.schedule(1)
	return nil
}

// schedule adds round's games: a Swiss round paired from the results so
// far, or a knockout round from its bracket.
func (t *tourney) schedule(round int) {
	var pairs []tournament.Pairing
	if t.Format == string(tournament.Knockout) {
		pairs = tournament.KnockoutRound(round, t.Bracket[round-1])
	} else {
		pairs = tournament.PairSwiss(round, t.swissRecords())
	}
	for _, p := range pairs {
		if p.Second < 0 {
			t.Games = append(t.Games, tourneyGame{Round: round, First: p.First, Second: -1, Result: byeResult})
			continue
		}
		t.Games = append(t.Games, tourneyGame{Round: round, First: p.First, Second: p.Second})
		if t.Format == string(tournament.Knockout) { // a pair of games, one with each side first
			t.Games = append(t.Games, tourneyGame{Round: round, First: p.Second, Second: p.First})
		}
	}
}

// byeResult is the result of a bye.
const byeResult = "bye"

// swissRecords is every player's record so far as Swiss pairing reads
// it; an aborted game counts as a meeting and for the sides, not for the
// points.
func (t *tourney) swissRecords() []tournament.SwissPlayer {
	players := make([]tournament.SwissPlayer, len(t.Players))
	index := map[string]int{}
	for i, u := range t.Players {
		index[u.ID] = i
	}
	for _, st := range tournament.Standings(t.entrants(), t.gameResults()) {
		i := index[st.Player]
		players[i].Points, players[i].Byes = st.Points, st.Byes
	}
	for _, g := range t.Games {
		if g.Second < 0 {
			continue
		}
		a, b := &players[g.First], &players[g.Second]
		a.Met, b.Met = append(a.Met, g.Second), append(b.Met, g.First)
		a.Balance, a.Last = a.Balance+1, 1
		b.Balance, b.Last = b.Balance-1, -1
	}
	return players
}

// entrants are t's players as package tournament names them: by user id.
func (t *tourney) entrants() []tournament.Entrant {
	out := make([]tournament.Entrant, len(t.Players))
	for i, u := range t.Players {
		out[i] = tournament.Entrant{Name: u.ID}
	}
	return out
}

// gameResults are t's finished games and byes as package tournament
// reads them (aborted games left out); a Swiss bye is worth a win, a
// knockout's nothing.
func (t *tourney) gameResults() []tournament.GameResult {
	var out []tournament.GameResult
	for _, g := range t.Games {
		switch {
		case g.Result == "" || g.Result == "aborted":
		case g.Second < 0:
			points := 1.0
			if t.Format == string(tournament.Knockout) {
				points = 0
			}
			out = append(out, tournament.GameResult{Round: g.Round, First: t.Players[g.First].ID, Result: byeResult, Bye: true, ByePoints: points})
		default:
			out = append(out, tournament.GameResult{Round: g.Round, First: t.Players[g.First].ID, Second: t.Players[g.Second].ID, Result: g.Result})
		}
	}
	return out
}

// tieScore is what a and b scored in their games of round.
func (t *tourney) tieScore(round, a, b int) (float64, float64, int) {
	var pa, pb float64
	playoffs := 0
	for _, g := range t.Games {
		if g.Round != round || g.Second < 0 || !(g.First == a && g.Second == b || g.First == b && g.Second == a) {
			continue
		}
		playoffs = max(playoffs, g.Playoff)
		var first float64
		switch g.Result {
		case rules.P1Wins.String():
			first = 1
		case rules.Draw.String():
			first = 0.5
		case rules.P2Wins.String():
		default: // aborted or unfinished: nobody scores
			continue
		}
		if g.First == a {
			pa, pb = pa+first, pb+1-first
		} else {
			pa, pb = pa+1-first, pb+first
		}
	}
	return pa, pb, playoffs
}

// advance is called when t's current round is over: it ends the
// tournament or schedules what comes next (the next round, or a
// knockout's play-offs in the same round), and returns the posts that
// say so, before the new games are started.
func (s *Service) advance(ctx context.Context, guild string, t *tourney) []string {
	over := fmt.Sprintf("**Round %d is over.** ", t.Round)
	switch tournament.Format(t.Format) {
	case tournament.Knockout:
		var through []int
		var level []string
		for _, p := range tournament.KnockoutRound(t.Round, t.Bracket[t.Round-1]) {
			if p.Second < 0 {
				through = append(through, p.First)
				continue
			}
			pa, pb, playoffs := t.tieScore(t.Round, p.First, p.Second)
			w := tournament.KnockoutTie(p.First, p.Second, pa, pb, playoffs, knockoutPlayoffs)
			if w < 0 {
				t.Games = append(t.Games,
					tourneyGame{Round: t.Round, First: p.First, Second: p.Second, Playoff: playoffs + 1},
					tourneyGame{Round: t.Round, First: p.Second, Second: p.First, Playoff: playoffs + 1})
				level = append(level, fmt.Sprintf("%s and %s are level at %s–%s: one more pair of games decides (then the higher seed goes through).",
					EscapeMarkdown(t.Players[p.First].Name), EscapeMarkdown(t.Players[p.Second].Name), points(pa), points(pb)))
				continue
			}
			through = append(through, w)
		}
		if len(level) > 0 {
			return []string{fmt.Sprintf("Round %d: %s", t.Round, strings.Join(level, " "))}
		}
		t.Bracket = append(t.Bracket, through)
		if len(through) == 1 {
			t.Done = true
			return []string{fmt.Sprintf("**The tournament is over: %s wins.** %s", EscapeMarkdown(t.Players[through[0]].Name), s.standingsText(ctx, guild, t))}
		}
		t.Round++
		t.schedule(t.Round)
		return []string{over + s.standingsText(ctx, guild, t)}
	case tournament.Swiss:
		if t.Round == t.Cycles {
			t.Done = true
			return []string{"**The tournament is over.** " + s.standingsText(ctx, guild, t)}
		}
		posts := []string{over + s.standingsText(ctx, guild, t)}
		t.Round++
		t.schedule(t.Round)
		return posts
	}
	if t.Round == t.lastRound() {
		t.Done = true
		return []string{"**The tournament is over.** " + s.standingsText(ctx, guild, t)}
	}
	posts := []string{over + s.standingsText(ctx, guild, t)}
	t.Round++
	return posts
}

// points writes a score with halves as ½.
func points(x float64) string {
	whole := int(x)
	if x-float64(whole) == 0.5 {
		if whole == 0 {
			return "½"
		}
		return fmt.Sprintf("%d½", whole)
	}
	return fmt.Sprint(whole)
}

// bracketText is a knockout's bracket so far: each round's ties with
// their scores and who went through, seeds in brackets.
func (t *tourney) bracketText() string {
	var b strings.Builder
	name := func(i int) string { return fmt.Sprintf("%s (%d)", EscapeMarkdown(clip(t.Players[i].Name, 24)), i+1) }
	total := t.rounds()
	for r := 1; r <= len(t.Bracket) && r <= total; r++ {
		label := fmt.Sprintf("Round %d", r)
		switch total - r {
		case 0:
			label = "Final"
		case 1:
			label = "Semi-finals"
		}
		fmt.Fprintf(&b, "%s:\n", label)
		for _, p := range tournament.KnockoutRound(r, t.Bracket[r-1]) {
			if p.Second < 0 {
				fmt.Fprintf(&b, "- %s: a bye\n", name(p.First))
				continue
			}
			pa, pb, _ := t.tieScore(r, p.First, p.Second)
			fmt.Fprintf(&b, "- %s %s–%s %s", name(p.First), points(pa), points(pb), name(p.Second))
			if r < len(t.Bracket) {
				for _, w := range t.Bracket[r] {
					if w == p.First || w == p.Second {
						fmt.Fprintf(&b, ": %s goes through", EscapeMarkdown(t.Players[w].Name))
					}
				}
			} else {
				b.WriteString(": playing")
			}
			b.WriteString("\n")
		}
	}
	if t.Done && len(t.Bracket) > 0 && len(t.Bracket[len(t.Bracket)-1]) == 1 {
		fmt.Fprintf(&b, "Winner: %s\n", EscapeMarkdown(t.Players[t.Bracket[len(t.Bracket)-1][0]].Name))
	}
	return strings.TrimSuffix(b.String(), "\n")
}
