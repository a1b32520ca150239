package described

import "arbiter/rules"

// HasMoveListing reports what hasMove reports for p, and how many moves it
// listed to learn it.
func (g *Game) HasMoveListing(p rules.Player) (has bool, listed int) {
	has = g.hasMove(p)
	return has, g.scratch.N
}
