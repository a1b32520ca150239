package described_test

import (
	"fmt"
	"testing"

	"arbiter/rules"
	"arbiter/rules/described"
)

// ---- Dots and Boxes, written by hand: the horizontal and vertical lines
// as two grids, each box's owner in a third. A move is 1000×kind (0
// horizontal, 1 vertical) + 100×column + row of its lower-left dot, plus
// one.

type dotsMove struct {
	vertical bool
	x, y     int
	took     int // boxes it completed
	mover    int
}

type dotsHand struct {
	cols, rows int
	hz         [8][8]bool // hz[y][x]: the line from (x, y) to (x+1, y)
	vt         [8][8]bool // vt[y][x]: the line from (x, y) to (x, y+1)
	owner      [8][8]int  // owner[y][x] of the box with lower-left dot (x, y): 0 none, 1 or 2
	score      [2]int
	toMove     int
	past       []dotsMove
}

func newDotsHand(cols, rows int) *dotsHand { return &dotsHand{cols: cols, rows: rows} }

func (g *dotsHand) Moves(list *rules.MoveList) {
	list.N = 0
	for y := 0; y <= g.rows; y++ {
		for x := 0; x < g.cols; x++ {
			if !g.hz[y][x] {
				list.Add(rules.Move(100*x + y + 1))
			}
		}
	}
	for y := 0; y < g.rows; y++ {
		for x := 0; x <= g.cols; x++ {
			if !g.vt[y][x] {
				list.Add(rules.Move(1000 + 100*x + y + 1))
			}
		}
	}
}

func (g *dotsHand) decode(m rules.Move) (vertical bool, x, y int) {
	v := int(m) - 1
	return v >= 1000, v % 1000 / 100, v % 100
}

// closed reports whether box (x, y) has all four sides.
func (g *dotsHand) closed(x, y int) bool {
	return x >= 0 && y >= 0 && x < g.cols && y < g.rows &&
		g.hz[y][x] && g.hz[y+1][x] && g.vt[y][x] && g.vt[y][x+1]
}

func (g *dotsHand) Play(m rules.Move) {
	vertical, x, y := g.decode(m)
	mv := dotsMove{vertical: vertical, x: x, y: y, mover: g.toMove}
	var beside [2][2]int
	if vertical {
		g.vt[y][x] = true
		beside = [2][2]int{{x - 1, y}, {x, y}}
	} else {
		g.hz[y][x] = true
		beside = [2][2]int{{x, y - 1}, {x, y}}
	}
	for _, b := range beside {
		if g.closed(b[0], b[1]) {
			g.owner[b[1]][b[0]] = g.toMove + 1
			g.score[g.toMove]++
			mv.took++
		}
	}
	g.past = append(g.past, mv)
	if mv.took == 0 {
		g.toMove = 1 - g.toMove
	}
}

func (g *dotsHand) Undo() {
	mv := g.past[len(g.past)-1]
	g.past = g.past[:len(g.past)-1]
	var beside [2][2]int
	if mv.vertical {
		beside = [2][2]int{{mv.x - 1, mv.y}, {mv.x, mv.y}}
	} else {
		beside = [2][2]int{{mv.x, mv.y - 1}, {mv.x, mv.y}}
	}
	for _, b := range beside {
		if g.closed(b[0], b[1]) {
			g.owner[b[1]][b[0]] = 0
		}
	}
	if mv.vertical {
		g.vt[mv.y][mv.x] = false
	} else {
		g.hz[mv.y][mv.x] = false
	}
	g.score[mv.mover] -= mv.took
	g.toMove = mv.mover
}

func (g *dotsHand) Status() rules.Result {
	if len(g.past) < g.cols*(g.rows+1)+(g.cols+1)*g.rows {
		return rules.Ongoing
	}
	return rules.ByScore(g.score[0], g.score[1])
}

func (g *dotsHand) FormatMove(m rules.Move) string {
	vertical, x, y := g.decode(m)
	if vertical {
		return squareText(x, y+1) + " " + squareText(x, y+2)
	}
	return squareText(x, y+1) + " " + squareText(x+1, y+1)
}

// dotsVariants are the option settings the tests compare.
var dotsVariants = []struct {
	cols, rows int
	depth      int
}{{3, 3, 6}, {2, 2, 8}, {4, 3, 5}}

func dotsOptions(cols, rows int) rules.Options {
	return rules.Options{"columns": fmt.Sprint(cols), "rows": fmt.Sprint(rows)}
}

// TestDotsPerft checks Dots and Boxes' perft at three settings against
// the figures of the hand-written game.
func TestDotsPerft(t *testing.T) {
	for _, tc := range []struct {
		cols, rows int
		want       []uint64
	}{
		// Every undrawn line is a move whoever draws it: n, n(n-1),
		// n(n-1)(n-2) ... of the n lines.
		{3, 3, []uint64{24, 552, 12144, 255024}},
		{2, 2, []uint64{12, 132, 1320, 11880, 95040, 665280}},
		{4, 3, []uint64{31, 930, 26970, 755160}},
	} {
		g := newShaped(t, "dots", dotsOptions(tc.cols, tc.rows))
		for d, want := range tc.want {
			if got := rules.Perft(g, d+1); got != want {
				t.Errorf("dots %d×%d perft(%d) = %d, want %d", tc.cols, tc.rows, d+1, got, want)
			}
		}
	}
}

// TestDotsAgrees compares the described Dots and Boxes with the
// hand-written one: perft depth by depth, and random games move by move.
func TestDotsAgrees(t *testing.T) {
	for _, v := range dotsVariants {
		agree(t, "dots", dotsOptions(v.cols, v.rows), func() refGame { return newDotsHand(v.cols, v.rows) }, v.depth, func(g rules.Game) string {
			d := g.(*described.Dots)
			key := fmt.Sprint(d.ToMove(), d.Score(0), d.Score(1), " ")
			for l := range d.Lines() {
				key += fmt.Sprint(map[bool]int{false: 0, true: 1}[d.Drawn(l)])
			}
			cols, rows := d.Boxes()
			for y := range rows {
				for x := range cols {
					p, ok := d.BoxOwner(x, y)
					key += fmt.Sprint(map[bool]int{false: 0, true: 1 + int(p)}[ok])
				}
			}
			return key
		})
	}
}
