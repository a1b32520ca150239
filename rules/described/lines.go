package described

import "math/bits"

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
