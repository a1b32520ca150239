package sixes

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
	board := func(at func(row, col int) (rules.Player, bool)) (b [size + 1][size + 1]int) {
		for row := 1; row <= size; row++ {
			for col := 1; col <= size; col++ {
				if p, ok := at(row, col); ok {
					b[row][col] = int(p) + 1
				}
			}
		}
		return b
	}
	for game := 0; game < 20; game++ {
		g, err := New(nil)
		if err != nil {
			t.Fatal(err)
		}
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
