package described_test

// A hand-written Go Pentago, for the tests only: the described pentago
// must agree with it move for move.

import (
	"fmt"
	"strings"
	"testing"

	"arbiter/rules"
	"arbiter/rules/described"
)

// pentago's board is cells[rank0][file0], rank 0 at the bottom; a move
// packs cell*8 + quarter*2 + anticlockwise, cell = rank0*6 + file0 and
// quarter 0..3 for the quarters 1..4.
type pentago struct {
	cells  [6][6]int8 // 0 empty, 1 White, 2 Black
	played int
	before [][6][6]int8
	result []rules.Result
}

func newPentago() *pentago { return &pentago{result: []rules.Result{rules.Ongoing}} }

func (g *pentago) Status() rules.Result { return g.result[len(g.result)-1] }

func (g *pentago) Moves(list *rules.MoveList) {
	list.N = 0
	if g.Status() != rules.Ongoing {
		return
	}
	for c := range 36 {
		if g.cells[c/6][c%6] == 0 {
			for q := range 8 {
				list.Add(rules.Move(c*8 + q))
			}
		}
	}
}

// quarterOrigin is the lower-left cell (file0, rank0) of quarter q (0..3).
func quarterOrigin(q int) (int, int) {
	return [4]int{0, 3, 0, 3}[q], [4]int{3, 3, 0, 0}[q]
}

// five reports whether v has five in a line anywhere.
func (g *pentago) five(v int8) bool {
	for r := range 6 {
		for f := range 6 {
			for _, d := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
				n := 0
				for x, y := f, r; x >= 0 && x < 6 && y >= 0 && y < 6 && g.cells[y][x] == v; x, y = x+d[0], y+d[1] {
					n++
				}
				if n >= 5 {
					return true
				}
			}
		}
	}
	return false
}

func (g *pentago) Play(m rules.Move) {
	g.before = append(g.before, g.cells)
	c, q, left := int(m)/8, int(m)%8/2, int(m)%2 == 1
	me := int8(1 + g.played%2)
	g.cells[c/6][c%6] = me
	ox, oy := quarterOrigin(q)
	old := g.cells
	for y := range 3 {
		for x := range 3 {
			// Seen from above with rank 1 at the bottom: clockwise, (x, y)
			// goes to (y, 2-x); anticlockwise to (2-y, x).
			nx, ny := y, 2-x
			if left {
				nx, ny = 2-y, x
			}
			g.cells[oy+ny][ox+nx] = old[oy+y][ox+x]
		}
	}
	g.played++
	w, b := g.five(1), g.five(2)
	res := rules.Ongoing
	switch {
	case w && b:
		res = rules.Draw
	case w:
		res = rules.P1Wins
	case b:
		res = rules.P2Wins
	case g.played == 36:
		res = rules.Draw
	}
	g.result = append(g.result, res)
}

func (g *pentago) Undo() {
	n := len(g.before) - 1
	g.cells = g.before[n]
	g.before = g.before[:n]
	g.result = g.result[:len(g.result)-1]
	g.played--
}

func (g *pentago) FormatMove(m rules.Move) string {
	c, q := int(m)/8, int(m)%8/2
	dir := "r"
	if m%2 == 1 {
		dir = "l"
	}
	return fmt.Sprintf("%s %d%s", squareText(c%6, c/6+1), q+1, dir)
}

// TestPentagoTurns plays a short game by its notation: a quarter turned
// clockwise and anticlockwise moves the marbles as seen from above, and a
// turn that makes the opponent's five loses.
func TestPentagoTurns(t *testing.T) {
	g := newDescribed(t, "pentago", nil)
	play := func(text string) {
		t.Helper()
		m, err := g.ParseMove(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if got := g.FormatMove(m); got != text {
			t.Fatalf("%s reads back as %s", text, got)
		}
		g.Play(m)
	}
	at := func(sq string) string {
		col, row := int(sq[0]-'a'), 6-int(sq[1]-'0')
		p, _, ok := g.At(col, row)
		switch {
		case !ok:
			return "."
		case p == rules.P1:
			return "W"
		}
		return "B"
	}
	// White a6 then quarter 1 clockwise: a6 (its top-left) goes to c6.
	play("a6 1r")
	if at("a6") != "." || at("c6") != "W" {
		t.Fatalf("after a6 1r: a6 %s, c6 %s", at("a6"), at("c6"))
	}
	// Black d1 then quarter 4 anticlockwise: d1 (bottom-left) goes to f1.
	play("d1 4l")
	if at("d1") != "." || at("f1") != "B" {
		t.Fatalf("after d1 4l: d1 %s, f1 %s", at("d1"), at("f1"))
	}
	for _, text := range []string{"a1", "d4 4 r", "a7 1r", "a1 5r", "a1 1x"} {
		if _, err := g.ParseMove(text); err == nil {
			t.Errorf("%q was accepted", text)
		}
	}
	if _, err := g.ParseMove("c6 1r"); err == nil || !strings.Contains(err.Error(), "c6 is taken") {
		t.Errorf("c6 1r: %v", err)
	}
}

// TestRotateBlockMustTileTheBoard: a block that does not divide the board
// is refused with the options' values.
func TestRotateBlockMustTileTheBoard(t *testing.T) {
	_, err := described.Load("t.yaml", []byte(strings.Replace(tictactoe, "  - {kind: place}", "  - {kind: place, rotate: {block: 2}}", 1)))
	if err == nil || !strings.Contains(err.Error(), "rotate block 2: it must be 2 or more, divide the 3 columns and 3 rows") {
		t.Fatalf("block 2 on 3×3: %v", err)
	}
}
