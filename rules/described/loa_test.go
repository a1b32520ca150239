package described_test

// A hand-written Go Lines of Action, for the tests only: the described loa
// must agree with it move for move.

import (
	"testing"

	"arbiter/rules"
)

// loaGame's cells are cells[rank0*8 + file0], rank 0 at the bottom; a move
// packs from<<6 | to.
type loaGame struct {
	cells  [64]int8 // 0 empty, 1 Black, 2 White
	ply    int
	taken  []int8
	moves  []rules.Move
	result []rules.Result
}

func newLOA() *loaGame {
	g := &loaGame{result: []rules.Result{rules.Ongoing}}
	for i := 1; i <= 6; i++ {
		g.cells[i] = 1     // b1-g1
		g.cells[56+i] = 1  // b8-g8
		g.cells[i*8] = 2   // a2-a7
		g.cells[i*8+7] = 2 // h2-h7
	}
	return g
}

var loaSteps = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}}

func (g *loaGame) Status() rules.Result {
	if r := g.result[len(g.result)-1]; r != rules.Ongoing {
		return r
	}
	var list rules.MoveList
	g.gen(&list)
	if list.N == 0 {
		return rules.Win(rules.Player(1 - g.ply%2))
	}
	return rules.Ongoing
}

func (g *loaGame) Moves(list *rules.MoveList) {
	list.N = 0
	if g.result[len(g.result)-1] != rules.Ongoing {
		return
	}
	g.gen(list)
}

func (g *loaGame) gen(list *rules.MoveList) {
	me := int8(1 + g.ply%2)
	in := func(x, y int) bool { return x >= 0 && x < 8 && y >= 0 && y < 8 }
	for c, v := range g.cells {
		if v != me {
			continue
		}
		f, r := c%8, c/8
		for _, s := range loaSteps {
			// Pieces on the whole line through (f, r) along s.
			n := 1
			for _, sign := range [2]int{1, -1} {
				for x, y := f+sign*s[0], r+sign*s[1]; in(x, y); x, y = x+sign*s[0], y+sign*s[1] {
					if g.cells[y*8+x] != 0 {
						n++
					}
				}
			}
			x, y := f+n*s[0], r+n*s[1]
			if !in(x, y) || g.cells[y*8+x] == me {
				continue
			}
			ok := true
			for k := 1; k < n; k++ {
				if g.cells[(r+k*s[1])*8+f+k*s[0]] == 3-me {
					ok = false
				}
			}
			if ok {
				list.Add(rules.Move(c<<6 | (y*8 + x)))
			}
		}
	}
}

// whole reports whether who's pieces form one 8-connected group.
func (g *loaGame) whole(who int8) bool {
	start, total := -1, 0
	for c, v := range g.cells {
		if v == who {
			total++
			start = c
		}
	}
	if start < 0 {
		return false
	}
	seen := map[int]bool{start: true}
	stack := []int{start}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				x, y := c%8+dx, c/8+dy
				if x < 0 || x >= 8 || y < 0 || y >= 8 {
					continue
				}
				if t := y*8 + x; !seen[t] && g.cells[t] == who {
					seen[t] = true
					stack = append(stack, t)
				}
			}
		}
	}
	return len(seen) == total
}

func (g *loaGame) Play(m rules.Move) {
	from, to := int(m>>6), int(m&63)
	me := g.cells[from]
	g.taken = append(g.taken, g.cells[to])
	g.cells[to], g.cells[from] = me, 0
	g.moves = append(g.moves, m)
	g.ply++
	res := rules.Ongoing
	switch {
	case g.whole(me):
		res = rules.Win(rules.Player(me - 1))
	case g.whole(3 - me):
		res = rules.Win(rules.Player(2 - me))
	}
	g.result = append(g.result, res)
}

func (g *loaGame) Undo() {
	k := len(g.moves) - 1
	m := g.moves[k]
	from, to := int(m>>6), int(m&63)
	g.cells[from], g.cells[to] = g.cells[to], g.taken[k]
	g.moves, g.taken, g.result = g.moves[:k], g.taken[:k], g.result[:len(g.result)-1]
	g.ply--
}

func (g *loaGame) FormatMove(m rules.Move) string {
	from, to := int(m>>6), int(m&63)
	return squareText(from%8, from/8+1) + " " + squareText(to%8, to/8+1)
}

// TestLOAMoves: a piece goes as far as pieces stand on its line, over its
// own pieces, not over enemy ones, and captures by landing.
func TestLOAMoves(t *testing.T) {
	g := newDescribed(t, "loa", nil)
	// b1's file holds b1 and b8: two squares, to b3; its rank holds six
	// Black pieces: six squares east, onto h1 (empty), passing c1-g1.
	for _, text := range []string{"b1 b3", "b1 h1", "b1 d3"} {
		mustParse(t, g, text)
	}
	// b1 northwest: the diagonal a2 b1 holds two pieces; a2 is White's
	// and b1 lands on it... the line is a2-b1, two squares: off the board.
	if _, err := g.ParseMove("b1 a2"); err == nil {
		t.Fatal("b1 a2 (one square on a line of two) was accepted")
	}
}
