package described_test

import (
	"math/rand/v2"
	"testing"

	"arbiter/rules"
)

// TestAtBefore plays random games of every shipped description (captures,
// drops and flips among them) and checks after every move that AtBefore
// reads the board as it was before the move, square by square.
func TestAtBefore(t *testing.T) {
	type cell struct {
		owner rules.Player
		kind  int
		ok    bool
	}
	for _, name := range []string{"breakthrough", "connect4", "othello"} {
		rng := rand.New(rand.NewPCG(3, 29))
		var list rules.MoveList
		for game := 0; game < 10; game++ {
			g := newDescribed(t, name, nil)
			cols, rows := g.Size()
			board := func(at func(col, row int) (rules.Player, int, bool)) map[[2]int]cell {
				b := map[[2]int]cell{}
				for r := -1; r <= rows; r++ { // off the board too
					for c := -1; c <= cols; c++ {
						o, k, ok := at(c, r)
						b[[2]int{c, r}] = cell{o, k, ok}
					}
				}
				return b
			}
			same := func(a, b map[[2]int]cell) bool {
				for sq, v := range a {
					if b[sq] != v {
						return false
					}
				}
				return true
			}
			if !same(board(g.AtBefore), board(g.At)) {
				t.Fatalf("%s: AtBefore differs from At before the first move", name)
			}
			for g.Status() == rules.Ongoing {
				before := board(g.At)
				g.Moves(&list)
				m := list.Moves[rng.IntN(list.N)]
				g.Play(m)
				if !same(board(g.AtBefore), before) {
					t.Fatalf("%s, game %d after %s: AtBefore does not read the board before the move", name, game, g.FormatMove(m))
				}
			}
		}
	}
}
