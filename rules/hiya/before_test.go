package hiya

import (
	"math/rand/v2"
	"testing"

	"arbiter/rules"
)

// TestPieceBefore plays random games and checks after every move that
// PieceBefore reads the board as it was before the move, square by square.
func TestPieceBefore(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 29))
	var list rules.MoveList
	type piece struct {
		kind Kind
		side Side
		ok   bool
	}
	board := func(at func(col, row int) (Kind, Side, bool)) (b [cols + 2][rows + 2]piece) {
		for row := 0; row <= rows+1; row++ { // off the board too
			for col := 0; col <= cols+1; col++ {
				k, s, ok := at(col, row)
				b[col][row] = piece{k, s, ok}
			}
		}
		return b
	}
	for game := 0; game < 20; game++ {
		g := newGame(t, nil)
		if board(g.PieceBefore) != board(g.PieceAt) {
			t.Fatal("PieceBefore differs from PieceAt before the first move")
		}
		for g.Status() == rules.Ongoing {
			before := board(g.PieceAt)
			g.Moves(&list)
			m := list.Moves[rng.IntN(list.N)]
			g.Play(m)
			if got := board(g.PieceBefore); got != before {
				t.Fatalf("game %d after %s: PieceBefore reads %v, the board was %v", game, g.FormatMove(m), got, before)
			}
		}
	}
}
