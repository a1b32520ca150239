package described

import "arbiter/rules"

// HasMoveListing reports what hasMove reports for p, and how many moves it
// listed to learn it.
func (g *Game) HasMoveListing(p rules.Player) (has bool, listed int) {
	has = g.hasMove(p)
	return has, g.scratch.N
}

// DoubleThreat is doubleThreat: what p's threats weigh when p is not to
// move.
func (g *Game) DoubleThreat(p rules.Player) int { return g.doubleThreat(p) }

// LinesBothWays returns what the one-word path (openLinesWord) and the
// path for any board (openLines, completing) find on a board of one word:
// the open lines' scores, and p's squares that complete a line.
func (g *Game) LinesBothWays(p rules.Player) (word, anyBoard [2]int, wordCells, anyBoardCells uint64) {
	word, cells := g.openLinesWord()
	all, _ := g.completing(p)
	return word, g.openLines(), cells[p], all[0]
}
