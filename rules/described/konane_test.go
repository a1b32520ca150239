package described_test

// A hand-written Go Konane, for the tests only: the described konane must
// agree with it move for move.

import (
	"strings"
	"testing"

	"arbiter/rules"
	"arbiter/rules/described"
)

// konane is a size × size board, cell = rank0*size + file0 (both from 0,
// rank 0 at the bottom); a move packs from<<8 | to, from 0xFF for a
// removal.
type konane struct {
	size  int
	cells []int8 // 0 empty, 1 Black, 2 White
	ply   int
	log   [][]int // the cells each move changed, to undo it
	vals  [][]int8
}

func newKonane(size int) *konane {
	g := &konane{size: size, cells: make([]int8, size*size)}
	for r := range size {
		for f := range size {
			// a1 (file 1 + rank 1, even) is Black.
			g.cells[r*size+f] = int8(1 + (f+r)%2)
		}
	}
	return g
}

const konaneRemove = 0xFF

func (g *konane) Moves(list *rules.MoveList) {
	list.N = 0
	n := g.size
	me := int8(1 + g.ply%2)
	switch g.ply {
	case 0:
		lo, hi := (n-1)/2, n/2
		for c, v := range g.cells {
			f, r := c%n, c/n
			corner := (f == 0 || f == n-1) && (r == 0 || r == n-1)
			centre := (f == lo || f == hi) && (r == lo || r == hi)
			if v == me && (corner || centre) {
				list.Add(rules.Move(konaneRemove<<8 | c))
			}
		}
		return
	case 1:
		for c, v := range g.cells {
			if v != me {
				continue
			}
			f, r := c%n, c/n
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				x, y := f+d[0], r+d[1]
				if x >= 0 && x < n && y >= 0 && y < n && g.cells[y*n+x] == 0 {
					list.Add(rules.Move(konaneRemove<<8 | c))
					break
				}
			}
		}
		return
	}
	for c, v := range g.cells {
		if v != me {
			continue
		}
		f, r := c%n, c/n
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			for k := 1; ; k++ {
				ox, oy := f+(2*k-1)*d[0], r+(2*k-1)*d[1] // the stone jumped
				lx, ly := f+2*k*d[0], r+2*k*d[1]         // the landing
				if lx < 0 || lx >= n || ly < 0 || ly >= n {
					break
				}
				if g.cells[oy*n+ox] != 3-me || g.cells[ly*n+lx] != 0 {
					break
				}
				list.Add(rules.Move(c<<8 | (ly*n + lx)))
			}
		}
	}
}

func (g *konane) Play(m rules.Move) {
	from, to := int(m>>8), int(m&0xFF)
	var changed []int
	var old []int8
	change := func(c int, v int8) {
		changed = append(changed, c)
		old = append(old, g.cells[c])
		g.cells[c] = v
	}
	if from == konaneRemove {
		change(to, 0)
	} else {
		n := g.size
		me := g.cells[from]
		df, dr := sgn(to%n-from%n), sgn(to/n-from/n)
		step := dr*n + df
		for c := from + step; c != to+step; c += 2 * step {
			change(c, 0)
		}
		change(from, 0)
		change(to, me)
	}
	g.log = append(g.log, changed)
	g.vals = append(g.vals, old)
	g.ply++
}

func sgn(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func (g *konane) Undo() {
	k := len(g.log) - 1
	for i := len(g.log[k]) - 1; i >= 0; i-- {
		g.cells[g.log[k][i]] = g.vals[k][i]
	}
	g.log, g.vals = g.log[:k], g.vals[:k]
	g.ply--
}

// Status: the player to move with no legal move loses.
func (g *konane) Status() rules.Result {
	var list rules.MoveList
	g.Moves(&list)
	if list.N == 0 {
		return rules.Win(rules.Player(1 - g.ply%2))
	}
	return rules.Ongoing
}

func (g *konane) FormatMove(m rules.Move) string {
	from, to := int(m>>8), int(m&0xFF)
	t := squareText(to%g.size, to/g.size+1)
	if from == konaneRemove {
		return t
	}
	return squareText(from%g.size, from/g.size+1) + " " + t
}

// TestKonaneOpening plays Konane's opening removals by their notation and
// checks what a wrong removal is told.
func TestKonaneOpening(t *testing.T) {
	g := newDescribed(t, "konane", nil)
	if _, err := g.ParseMove("b1"); err == nil || !strings.Contains(err.Error(), "b1 is not a piece you may remove now; you may remove the piece on") {
		t.Fatalf("removing b1 (White's) first: %v", err)
	}
	for _, text := range []string{"c3", "c4"} {
		m, err := g.ParseMove(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if got := g.FormatMove(m); got != text {
			t.Fatalf("%s reads back as %s", text, got)
		}
		g.Play(m)
	}
	// Black to move: e3 jumps d3 into c3 (a jump); a3 is no jump.
	if m, err := g.ParseMove("e3 c3"); err != nil || g.FormatMove(m) != "e3 c3" {
		t.Fatalf("e3 c3: %v", err)
	}
	if _, err := g.ParseMove("a3"); err == nil {
		t.Fatal("a removal after the opening was accepted")
	}
}

// TestTurnRulesNeedATurnFromOne: a rule's turn is checked with the
// options' values.
func TestTurnRulesNeedATurnFromOne(t *testing.T) {
	_, err := described.Load("t.yaml", []byte(strings.Replace(tictactoe, "  - {kind: place}", "  - {kind: place}\n  - {kind: remove, turn: side - 3}", 1)))
	if err == nil || !strings.Contains(err.Error(), "turn 0: a rule's turn is from 1 to 63") {
		t.Fatalf("turn 0: %v", err)
	}
}
