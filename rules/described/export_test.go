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
