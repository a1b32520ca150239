package upthrust

import (
	"math/rand/v2"
	"testing"

	"arbiter/rules"
)

// TestRowBefore plays random games and checks after every move, passes
// too, that RowBefore gives every piece's row as it was before the move.
func TestRowBefore(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 29))
	var list rules.MoveList
	board := func(row func(c Colour, col int) int) (b [4][Columns + 2]int) {
		for c := Green; c <= Yellow; c++ {
			for col := 0; col <= Columns+1; col++ { // off the board too
				b[c][col] = row(c, col)
			}
		}
		return b
	}
	for game := 0; game < 50; game++ {
		g := newGB(t)
		if board(g.RowBefore) != board(g.RowOf) {
			t.Fatal("RowBefore differs from RowOf before the first move")
		}
		for g.Status() == rules.Ongoing {
			before := board(g.RowOf)
			g.Moves(&list)
			m := list.Moves[rng.IntN(list.N)]
			g.Play(m)
			if got := board(g.RowBefore); got != before {
				t.Fatalf("game %d after %s: RowBefore reads %v, the rows were %v", game, g.FormatMove(m), got, before)
			}
		}
	}
}
