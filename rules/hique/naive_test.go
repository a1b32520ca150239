package hique

import (
	"fmt"
	"slices"
	"strings"

	"arbiter/rules"
)

// naive is an independent, deliberately plain implementation of the rules
// file on a 2D array, written from the rules text without the bitboards,
// to cross-check the fast one.
type naive struct {
	cell  [14][14]byte // [x][y], 1..13: 'b', 'w' runners, 'B', 'W' guards, 0 empty
	side  int          // 0 Black, 1 White
	turns int
	moves int         // moves played
	seen  []string    // every position so far (board + side), the start first
	undo  []naiveSave // for Undo
}

type naiveSave struct {
	cell  [14][14]byte
	side  int
	moves int
}

func newNaive(turns int) *naive {
	n := &naive{turns: turns}
	for _, x := range []int{3, 5, 7, 9, 11} {
		n.cell[x][1] = 'b'
		n.cell[x][13] = 'w'
	}
	for _, x := range []int{4, 6, 8, 10} {
		n.cell[x][2] = 'B'
		n.cell[x][12] = 'W'
	}
	n.seen = append(n.seen, n.key())
	return n
}

// naiveFromDiagram reads Setup's diagram format on its own.
func naiveFromDiagram(turns int, diagram string, side int) *naive {
	n := &naive{turns: turns, side: side}
	y := 0
	for _, line := range strings.Split(diagram, "\n") {
		line = strings.ReplaceAll(strings.ReplaceAll(line, " ", ""), "\t", "")
		if line == "" {
			continue
		}
		y++
		for i := 0; i < len(line); i++ {
			if line[i] != '.' {
				n.cell[i+1][y] = line[i]
			}
		}
	}
	n.seen = append(n.seen, n.key())
	return n
}

func (n *naive) key() string {
	var b strings.Builder
	for y := 1; y <= 13; y++ {
		for x := 1; x <= 13; x++ {
			c := n.cell[x][y]
			if c == 0 {
				c = '.'
			}
			b.WriteByte(c)
		}
	}
	b.WriteByte(byte('0' + n.side))
	return b.String()
}

func (n *naive) myRunner() byte { return "bw"[n.side] }
func (n *naive) myGuard() byte  { return "BW"[n.side] }

func isGuardByte(c byte) bool { return c == 'B' || c == 'W' }

// legal returns the legal moves as canonical text, sorted.
func (n *naive) legal() []string {
	var out []string
	if r, _, _ := n.result(); r != rules.Ongoing {
		return nil
	}
	for x := 1; x <= 13; x++ {
		for y := 1; y <= 13; y++ {
			switch n.cell[x][y] {
			case n.myRunner():
				fwd := 2
				if n.side == 1 {
					fwd = -2
				}
				for _, d := range [3][2]int{{0, fwd}, {-2, 0}, {2, 0}} {
					tx, ty := x+d[0], y+d[1]
					if tx >= 1 && tx <= 13 && ty >= 1 && ty <= 13 && n.cell[tx][ty] == 0 {
						out = append(out, fmt.Sprintf("%d %d %d %d", x, y, tx, ty))
					}
				}
			case n.myGuard():
				for _, d := range [4][2]int{{0, 2}, {0, -2}, {2, 0}, {-2, 0}} {
					for tx, ty := x+d[0], y+d[1]; tx >= 2 && tx <= 12 && ty >= 2 && ty <= 12; tx, ty = tx+d[0], ty+d[1] {
						if isGuardByte(n.cell[tx][ty]) {
							break
						}
						out = append(out, fmt.Sprintf("%d %d %d %d", x, y, tx, ty))
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

func (n *naive) play(move string) {
	var x1, y1, x2, y2 int
	if _, err := fmt.Sscanf(move, "%d %d %d %d", &x1, &y1, &x2, &y2); err != nil {
		panic(err)
	}
	n.undo = append(n.undo, naiveSave{n.cell, n.side, n.moves})
	n.cell[x2][y2] = n.cell[x1][y1]
	n.cell[x1][y1] = 0
	// Remove every runner touched by two or more enemy guards.
	var gone [][2]int
	for x := 1; x <= 13; x += 2 {
		for y := 1; y <= 13; y += 2 {
			c := n.cell[x][y]
			if c == 0 {
				continue
			}
			enemy := byte('W')
			if c == 'w' {
				enemy = 'B'
			}
			count := 0
			for _, d := range [4][2]int{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
				gx, gy := x+d[0], y+d[1]
				if gx >= 1 && gx <= 13 && gy >= 1 && gy <= 13 && n.cell[gx][gy] == enemy {
					count++
				}
			}
			if count >= 2 {
				gone = append(gone, [2]int{x, y})
			}
		}
	}
	for _, p := range gone {
		n.cell[p[0]][p[1]] = 0
	}
	n.side ^= 1
	n.moves++
	n.seen = append(n.seen, n.key())
}

func (n *naive) unplay() {
	s := n.undo[len(n.undo)-1]
	n.undo = n.undo[:len(n.undo)-1]
	n.cell, n.side, n.moves = s.cell, s.side, s.moves
	n.seen = n.seen[:len(n.seen)-1]
}

func (n *naive) count(c byte) int {
	k := 0
	for x := 1; x <= 13; x++ {
		for y := 1; y <= 13; y++ {
			if n.cell[x][y] == c {
				k++
			}
		}
	}
	return k
}

func (n *naive) scores() [2]int {
	var s [2]int
	for x := 1; x <= 13; x++ {
		for y := 1; y <= 13; y++ {
			switch n.cell[x][y] {
			case 'b':
				s[0] += 1 + (y-1)/2
			case 'w':
				s[1] += 1 + (13-y)/2
			}
		}
	}
	return s
}

func (n *naive) hasLegal() bool {
	fwd := 2
	if n.side == 1 {
		fwd = -2
	}
	for x := 1; x <= 13; x++ {
		for y := 1; y <= 13; y++ {
			switch n.cell[x][y] {
			case n.myRunner():
				for _, d := range [3][2]int{{0, fwd}, {-2, 0}, {2, 0}} {
					tx, ty := x+d[0], y+d[1]
					if tx >= 1 && tx <= 13 && ty >= 1 && ty <= 13 && n.cell[tx][ty] == 0 {
						return true
					}
				}
			case n.myGuard():
				for _, d := range [4][2]int{{0, 2}, {0, -2}, {2, 0}, {-2, 0}} {
					tx, ty := x+d[0], y+d[1]
					if tx >= 2 && tx <= 12 && ty >= 2 && ty <= 12 && !isGuardByte(n.cell[tx][ty]) {
						return true
					}
				}
			}
		}
	}
	return false
}

// result applies the End section in order.
func (n *naive) result() (rules.Result, string, bool) {
	mover := n.side ^ 1
	names := [2]string{"Black", "White"}
	farY := [2]int{13, 1}
	runner := [2]byte{'b', 'w'}
	for x := 1; x <= 13; x += 2 {
		if n.cell[x][farY[mover]] == runner[mover] {
			return rules.Win(rules.Player(mover)), "runner reached the far side", false
		}
	}
	if n.count(runner[n.side]) == 0 {
		return rules.Win(rules.Player(mover)), names[n.side] + " has no runners left", false
	}
	if n.count(runner[mover]) == 0 {
		return rules.Win(rules.Player(n.side)), names[mover] + " has no runners left", false
	}
	timing := func(why string) (rules.Result, string, bool) {
		s := n.scores()
		r := rules.Draw
		if s[0] > s[1] {
			r = rules.P1Wins
		} else if s[1] > s[0] {
			r = rules.P2Wins
		}
		return r, fmt.Sprintf("%s, timing option %d to %d", why, s[0], s[1]), true
	}
	occurrences := 0
	now := n.key()
	for _, k := range n.seen {
		if k == now {
			occurrences++
		}
	}
	if occurrences >= 3 {
		return timing("threefold repetition")
	}
	if n.moves == n.turns {
		return timing("turn limit reached")
	}
	if !n.hasLegal() {
		return timing(names[n.side] + " has no legal move")
	}
	return rules.Ongoing, "", false
}

func (n *naive) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var total uint64
	for _, m := range n.legal() {
		n.play(m)
		total += n.perft(depth - 1)
		n.unplay()
	}
	return total
}
