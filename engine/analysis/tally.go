package analysis

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Tally sums the reviews of many games by player name: a tournament's
// report of where each program goes wrong. The zero value is empty and
// ready.
type Tally struct {
	rows  map[string]*tallyRow
	order []string // names in the order first seen
}

type tallyRow struct {
	games    int
	accuracy float64 // summed over games
	counts   map[Class]int
	phase    [3]int // errors by third of the game
}

// Add counts rep's two players (by their names in rep).
func (t *Tally) Add(rep *Report) {
	if t.rows == nil {
		t.rows = map[string]*tallyRow{}
	}
	var rows [2]*tallyRow
	for p, pr := range rep.Players {
		row := t.rows[pr.Name]
		if row == nil {
			row = &tallyRow{counts: map[Class]int{}}
			t.rows[pr.Name] = row
			t.order = append(t.order, pr.Name)
		}
		row.games++
		row.accuracy += pr.Accuracy
		rows[p] = row
	}
	n := len(rep.Moves)
	for i, m := range rep.Moves {
		row := rows[m.Player]
		row.counts[m.Class]++
		if m.Class == Inaccuracy || m.Class == Mistake || m.Class == Blunder {
			row.phase[3*i/n]++
		}
	}
}

// TallyHeader is the header of WriteCSV's table.
const TallyHeader = "player,games,accuracy,inaccuracies,mistakes,blunders,opening,middle,end"

// WriteCSV writes the tally as CSV, a player a row in the order first
// seen: the games, the mean accuracy, the inaccuracies, mistakes and
// blunders per game, and the errors (the three together) per game in the
// opening, middle and end third of the games' lengths.
func (t *Tally) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(strings.Split(TallyHeader, ",")); err != nil {
		return fmt.Errorf("analysis tally: %w", err)
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }
	for _, name := range t.order {
		r := t.rows[name]
		g := float64(r.games)
		rec := []string{name, strconv.Itoa(r.games), strconv.FormatFloat(r.accuracy/g, 'f', 1, 64),
			f(float64(r.counts[Inaccuracy]) / g), f(float64(r.counts[Mistake]) / g), f(float64(r.counts[Blunder]) / g),
			f(float64(r.phase[0]) / g), f(float64(r.phase[1]) / g), f(float64(r.phase[2]) / g)}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("analysis tally: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("analysis tally: %w", err)
	}
	return nil
}
