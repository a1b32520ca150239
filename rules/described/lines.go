package described

import (
	"math/bits"

	"arbiter/rules"
)

// Open lines (evaluation: lines), the measure of the games of making a
// line (Gomoku, Connect Four, Pentago): a line of the in-a-row ending's
// length along a row, column or diagonal that holds k of a player's pieces
// and nothing else but empty squares is open to that player, and adds the
// weight times 4^(k−1) to its side. A line with both players' pieces, or a
// blocker, is open to no one.

// buildOpenLines finds, for each axis, the squares that begin a line of
// the in-a-row length (going north, northeast, east or southeast from
// them), for the open lines and for WinningMove, and what each piece in
// a line adds.
func (c *compiled) buildOpenLines() {
	if c.inARow == 0 {
		return
	}
	for a := range 4 {
		starts := c.mask
		for range c.inARow - 1 {
			starts = c.step(&starts, dir(a+4))
		}
		c.lineStarts[a] = starts
	}
	if c.lines == 0 {
		return
	}
	// A line of k pieces is worth lines × 4^(k−1), and a whole line, which
	// has ended the game, nothing: each piece from the first adds the
	// step from the value of one fewer.
	v, last := c.lines, 0
	for k := 1; k < c.inARow; k++ {
		c.lineStep[k] = v - last
		v, last = v*4, v
	}
	c.lineStep[c.inARow] = -last
	c.doubleThreat = 4 * last
}

// openLines returns each player's score from its open lines.
func (g *Game) openLines() [2]int {
	c := g.c
	n := c.inARow
	blockers := false
	for w := range c.words {
		blockers = blockers || g.blocked[w] != 0
	}
	var score [2]int
	// along[q][i] is, square by square, whether q has a piece i squares on
	// along the axis; dead, whether a blocker stands in the line beginning
	// there.
	var along [2][maxSide][maxWords]uint64
	for a := range 4 {
		starts := &c.lineStarts[a]
		back := dir(a + 4)
		along[0][0], along[1][0] = g.occ[0], g.occ[1]
		dead := g.blocked
		for i := 1; i < n; i++ {
			along[0][i] = c.step(&along[0][i-1], back)
			along[1][i] = c.step(&along[1][i-1], back)
			if blockers {
				dead = c.step(&dead, back)
				for w := range c.words {
					dead[w] |= g.blocked[w]
				}
			}
		}
		for w := range c.words {
			if starts[w] == 0 {
				continue
			}
			// atLeast[q][k] is the lines beginning on the word's squares
			// that hold k or more of q's pieces.
			var atLeast [2][maxSide + 1]uint64
			for q := range 2 {
				ge := &atLeast[q]
				for i := range n {
					x := along[q][i][w]
					for k := i + 1; k > 1; k-- {
						ge[k] |= ge[k-1] & x
					}
					ge[1] |= x
				}
			}
			for q := range 2 {
				open := starts[w] &^ atLeast[q^1][1] &^ dead[w]
				for k := 1; k <= n && open&atLeast[q][k] != 0; k++ {
					score[q] += c.lineStep[k] * bits.OnesCount64(open&atLeast[q][k])
				}
			}
		}
	}
	return score
}

// lineScore returns what the open lines weigh for p, the player to move:
// p's open lines less the opponent's, less the opponent's double threat
// (finish.go). A board of rows in one word takes a faster path that finds
// the open lines and the threats together.
func (g *Game) lineScore(p rules.Player) int {
	c := g.c
	if c.words > 1 || c.graph {
		open := g.openLines()
		return open[p] - open[p^1] - g.doubleThreat(p^1)
	}
	open, completing := g.openLinesWord()
	score := open[p] - open[p^1]
	if c.finishes && bits.OnesCount64(completing[p^1]) >= 2 {
		score -= c.doubleThreat
	}
	return score
}

// openLinesWord is openLines on a board of rows in one word, with, for
// each player, the empty squares that complete one of its lines, as
// completing finds them.
func (g *Game) openLinesWord() (score [2]int, completing [2]uint64) {
	c := g.c
	n := c.inARow
	blocked := g.blocked[0]
	empty := c.mask[0] &^ (g.occ[0][0] | g.occ[1][0] | blocked)
	for a := range 4 {
		starts := c.lineStarts[a][0]
		if starts == 0 {
			continue
		}
		back := dir(a + 4)
		// atLeast[q][k], the lines beginning on a square that hold k or
		// more of q's pieces, grown square by square along the axis.
		var atLeast [2][maxSide + 1]uint64
		along := [2]uint64{g.occ[0][0], g.occ[1][0]}
		dead := blocked
		for i := range n {
			if i > 0 {
				along[0], along[1] = c.stepWord(along[0], back), c.stepWord(along[1], back)
				dead = c.stepWord(dead, back) | blocked
			}
			for q := range 2 {
				ge, x := &atLeast[q], along[q]
				for k := i + 1; k > 1; k-- {
					ge[k] |= ge[k-1] & x
				}
				ge[1] |= x
			}
		}
		for q := range 2 {
			ge := &atLeast[q]
			open := starts &^ atLeast[q^1][1] &^ dead
			for k := 1; k <= n && open&ge[k] != 0; k++ {
				score[q] += c.lineStep[k] * bits.OnesCount64(open&ge[k])
			}
			// A line one piece short has one empty square, the one that
			// completes it.
			short := open & ge[n-1] &^ ge[n]
			for i := 0; i < n && short != 0; i++ {
				completing[q] |= short & empty
				short = c.stepWord(short, dir(a))
			}
		}
	}
	return score, completing
}

// stepWord is step on a board of rows in one word.
func (c *compiled) stepWord(x uint64, d dir) uint64 {
	x &= c.stepFrom[d][0]
	by := c.shiftBy[d]
	if by > 0 {
		return x << by
	}
	return x >> -by
}

// lineInWord reports whether the squares of own, on a board of rows in one
// word, hold a line of at least the in-a-row length.
func (c *compiled) lineInWord(own uint64) bool {
	for a := range 4 {
		// run is the squares that begin i+1 of own's squares in a row.
		run := own
		for i := 1; i < c.inARow && run != 0; i++ {
			run = own & c.stepWord(run, dir(a+4))
		}
		if run != 0 {
			return true
		}
	}
	return false
}
