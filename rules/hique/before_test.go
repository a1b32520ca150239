package hique

import (
	"math/rand/v2"
	"testing"

	"arbiter/rules"
)

// TestRunnerBefore plays random games and checks after every move that
// RunnerBefore reads the board as it was before the move, square by square.
func TestRunnerBefore(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 29))
	var list rules.MoveList
	board := func(at func(x, y int) (rules.Player, bool)) (b [14][14]int) {
		for y := 1; y <= 13; y++ {
			for x := 1; x <= 13; x++ {
				if p, ok := at(x, y); ok {
					b[x][y] = int(p) + 1
				}
			}
		}
		return b
	}
	for game := 0; game < 20; game++ {
		g := start(t, nil)
		if board(g.RunnerBefore) != board(g.RunnerAt) {
			t.Fatal("RunnerBefore differs from RunnerAt before the first move")
		}
		for g.Status() == rules.Ongoing {
			before := board(g.RunnerAt)
			g.Moves(&list)
			m := list.Moves[rng.IntN(list.N)]
			g.Play(m)
			if got := board(g.RunnerBefore); got != before {
				t.Fatalf("game %d after %s: RunnerBefore reads %v, the board was %v", game, g.FormatMove(m), got, before)
			}
		}
	}
}
