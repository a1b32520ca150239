package commands

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"arbiter/rules"
	"arbiter/store"
)

// GradeRow is one player's line of a course period's grades in one game:
// the finished games they played (abandoned ones left out), wins, draws,
// losses, points (a win 1, a draw ½), losses on time, losses by forfeit
// (resigned, forfeited, or a program that failed), and their rating now
// (0 when unrated).
type GradeRow struct {
	Game     string
	Player   string // the rating id: a Discord user id, "bot:LEVEL" or "program:NAME"
	Name     string
	Games    int
	Wins     int
	Draws    int
	Losses   int
	Points   float64
	Timeouts int
	Forfeits int
	Rating   float64
}

// Grades reads the guild's archived games that finished in [from, to) (a
// zero bound is open) and sums them up a player and game at a time, ordered
// by game, then points; it also returns the games, oldest first.
func Grades(ctx context.Context, st store.Store, guild string, from, to time.Time) ([]GradeRow, []store.Summary, error) {
	var games []store.Summary
	for offset := 0; ; offset += store.MaxList {
		page, total, err := st.Archived(ctx, guild, offset, store.MaxList)
		if err != nil {
			return nil, nil, fmt.Errorf("grades: %w", err)
		}
		for _, g := range page {
			if (from.IsZero() || !g.Finished.Before(from)) && (to.IsZero() || g.Finished.Before(to)) && g.Result != rules.Ongoing {
				games = append(games, g)
			}
		}
		if len(page) == 0 || int64(offset+len(page)) >= total {
			break
		}
	}
	sort.SliceStable(games, func(i, j int) bool { return games[i].Finished.Before(games[j].Finished) })
	rows := map[[2]string]*GradeRow{}
	for _, g := range games {
		for seat, p := range g.Players {
			k := [2]string{g.Name, ratingID(p)}
			r := rows[k]
			if r == nil {
				r = &GradeRow{Game: g.Name, Player: k[1], Name: p.Name}
				rows[k] = r
			}
			r.Games++
			w, decided := g.Result.Winner()
			switch {
			case !decided:
				r.Draws++
				r.Points += 0.5
			case int(w) == seat:
				r.Wins++
				r.Points++
			default:
				r.Losses++
				switch reason := strings.ToLower(g.Reason); {
				case strings.Contains(reason, "ran out of time") || strings.Contains(reason, "timed out"):
					r.Timeouts++
				case strings.Contains(reason, "resign") || strings.Contains(reason, "forfeit") ||
					strings.Contains(reason, "crashed") || strings.Contains(reason, "illegal move") ||
					strings.Contains(reason, "garbage") || strings.Contains(reason, "exited"):
					r.Forfeits++
				}
			}
		}
	}
	out := make([]GradeRow, 0, len(rows))
	for _, r := range rows {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Game != b.Game {
			return a.Game < b.Game
		}
		if a.Points != b.Points {
			return a.Points > b.Points
		}
		return a.Player < b.Player
	})
	byGame := map[string][]string{}
	for _, r := range out {
		byGame[r.Game] = append(byGame[r.Game], r.Player)
	}
	for game, ids := range byGame {
		ratings, err := st.Ratings(ctx, guild, game, ids...)
		if err != nil {
			return nil, nil, fmt.Errorf("grades: %w", err)
		}
		rated := map[string]float64{}
		for _, x := range ratings {
			if x.Games > 0 {
				rated[x.Player] = x.Rating
			}
		}
		for i := range out {
			if out[i].Game == game {
				out[i].Rating = rated[out[i].Player]
			}
		}
	}
	return out, games, nil
}

// WriteGradesCSV writes the rows as CSV with a header row.
func WriteGradesCSV(w io.Writer, rows []GradeRow) error {
	c := csv.NewWriter(w)
	_ = c.Write([]string{"game", "player", "name", "games", "wins", "draws", "losses", "points", "timeouts", "forfeits", "rating"})
	for _, r := range rows {
		_ = c.Write([]string{r.Game, r.Player, r.Name, strconv.Itoa(r.Games), strconv.Itoa(r.Wins), strconv.Itoa(r.Draws),
			strconv.Itoa(r.Losses), strconv.FormatFloat(r.Points, 'f', -1, 64), strconv.Itoa(r.Timeouts),
			strconv.Itoa(r.Forfeits), strconv.FormatFloat(r.Rating, 'f', 1, 64)})
	}
	c.Flush()
	return c.Error()
}

// WriteGamesCSV writes one row a game: when it finished, the game, the
// players, the result, its reason and the moves played.
func WriteGamesCSV(w io.Writer, games []store.Summary) error {
	c := csv.NewWriter(w)
	_ = c.Write([]string{"finished", "id", "game", "player1", "player2", "result", "reason", "moves"})
	for _, g := range games {
		_ = c.Write([]string{g.Finished.UTC().Format(time.RFC3339), g.ID, g.Name, ratingID(g.Players[0]), ratingID(g.Players[1]),
			g.Result.String(), g.Reason, strconv.Itoa(g.Moves)})
	}
	c.Flush()
	return c.Error()
}
