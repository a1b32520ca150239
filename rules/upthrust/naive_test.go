package upthrust

import (
	"strings"
	"testing"

	"arbiter/rules"
)

// naive is an independent, deliberately plain implementation of the rules
// file, on a 2D array, to check the fast one against. It shares only the
// move packing (colour*4 + column-1, pass 16) with the package.
type naive struct {
	cell   [11][4]int // [row-1][col-1]: -1 empty, else the colour
	toMove int
	owner  [4]int // the player (0 or 1) of each colour
}

// naiveStart is the start position as the rules file draws it, row 11 first.
const naiveStart = `
. . . .
. . . .
. . . .
. . . .
. . . .
. . . .
. . . .
G R B Y
R B Y G
B Y G R
Y G R B
`

// newNaive reads a diagram (row 11 first) with player 1 owning p1[0], p1[1].
func newNaive(t testing.TB, diagram string, p1 [2]int, toMove int) *naive {
	t.Helper()
	n := &naive{toMove: toMove}
	for c := 0; c < 4; c++ {
		n.owner[c] = 1
		if c == p1[0] || c == p1[1] {
			n.owner[c] = 0
		}
	}
	var rows []string
	for _, line := range strings.Split(diagram, "\n") {
		line = strings.ReplaceAll(line, " ", "")
		if line != "" {
			rows = append(rows, line)
		}
	}
	if len(rows) != 11 {
		t.Fatalf("naive diagram has %d rows", len(rows))
	}
	for i, line := range rows {
		for col := 0; col < 4; col++ {
			n.cell[10-i][col] = strings.IndexByte("GRBY", line[col])
		}
	}
	return n
}

// naiveOf copies g's position (read through its accessors) into a naive.
func naiveOf(g *Game) *naive {
	n := &naive{toMove: int(g.ToMove())}
	for c := Green; c <= Yellow; c++ {
		n.owner[c] = int(g.Owner(c))
	}
	for row := 1; row <= 11; row++ {
		for col := 1; col <= 4; col++ {
			n.cell[row-1][col-1] = -1
			if c, ok := g.PieceAt(col, row); ok {
				n.cell[row-1][col-1] = int(c)
			}
		}
	}
	return n
}

func (n *naive) rowOf(c, col int) int {
	for row := 0; row < 11; row++ {
		if n.cell[row][col] == c {
			return row
		}
	}
	panic("naive: piece missing")
}

func (n *naive) count(row int) int {
	k := 0
	for col := 0; col < 4; col++ {
		if n.cell[row][col] >= 0 {
			k++
		}
	}
	return k
}

// legal checks the three conditions of the rules file, one by one.
func (n *naive) legal(c, col int) bool {
	row := n.rowOf(c, col)
	steps := n.count(row)
	to := row + steps
	// 1. on the board and empty
	if to > 10 || n.cell[to][col] != -1 {
		return false
	}
	// 2. not a one-row move of the most advanced piece of its colour
	if steps == 1 {
		higher := false
		for r := row + 1; r < 11; r++ {
			for k := 0; k < 4; k++ {
				if n.cell[r][k] == c {
					higher = true
				}
			}
		}
		if !higher {
			return false
		}
	}
	// 3. in rows 1..6, no other piece of the same colour in the landing row
	if to <= 5 {
		for k := 0; k < 4; k++ {
			if n.cell[to][k] == c {
				return false
			}
		}
	}
	return true
}

func (n *naive) pieceMoves(player int) []rules.Move {
	var ms []rules.Move
	for c := 0; c < 4; c++ {
		if n.owner[c] != player {
			continue
		}
		for col := 0; col < 4; col++ {
			if n.legal(c, col) {
				ms = append(ms, rules.Move(c*4+col))
			}
		}
	}
	return ms
}

func (n *naive) low() int {
	k := 0
	for row := 0; row < 6; row++ {
		k += n.count(row)
	}
	return k
}

func (n *naive) over() bool {
	if n.low() <= 2 {
		return true
	}
	return len(n.pieceMoves(0)) == 0 && len(n.pieceMoves(1)) == 0
}

func (n *naive) moves() []rules.Move {
	if n.over() {
		return nil
	}
	ms := n.pieceMoves(n.toMove)
	if len(ms) == 0 {
		return []rules.Move{Pass}
	}
	return ms
}

func (n *naive) play(m rules.Move) {
	if m != Pass {
		c, col := int(m)/4, int(m)%4
		row := n.rowOf(c, col)
		to := row + n.count(row)
		n.cell[row][col] = -1
		n.cell[to][col] = c
	}
	n.toMove = 1 - n.toMove
}

func (n *naive) scores() [2]int {
	values := [11]int{6: 10, 7: 20, 8: 30, 9: 40, 10: 60}
	var s [2]int
	for row := 0; row < 11; row++ {
		for col := 0; col < 4; col++ {
			if c := n.cell[row][col]; c >= 0 {
				s[n.owner[c]] += values[row]
			}
		}
	}
	return s
}

func (n *naive) result() rules.Result {
	if !n.over() {
		return rules.Ongoing
	}
	s := n.scores()
	switch {
	case s[0] > s[1]:
		return rules.P1Wins
	case s[1] > s[0]:
		return rules.P2Wins
	}
	return rules.Draw
}

func (n *naive) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var total uint64
	for _, m := range n.moves() {
		c := *n
		c.play(m)
		total += c.perft(depth - 1)
	}
	return total
}
