package described

import (
	"fmt"
	"math/bits"

	"arbiter/rules"
)

// Territory (evaluation: territory), the measure of the Game of the
// Amazons and other games of walling off: an empty square belongs to the
// player whose pieces reach it in fewer moves, each piece moving as the
// player's step and slide moves do (through empty squares only), the
// other pieces and blockers standing still. A square both reach in the
// same number of moves, or neither reaches, belongs to no one.

// reach is one way a player's piece moves for territory: a direction and
// the most squares a move goes that way (1 for a step, 0 for no limit).
type reach struct {
	d   dir
	rng int
}

// buildReach collects each player's step and slide moves for territory,
// failing when the description weighs territory with no such move.
func (c *compiled) buildReach() error {
	if c.territory == 0 {
		return nil
	}
	for p := range 2 {
		for _, gn := range c.gens[p] {
			if gn.off || gn.kind != kindStep && gn.kind != kindSlide {
				continue
			}
			rng := gn.rng
			if gn.kind == kindStep {
				rng = 1
			}
			for _, d := range gn.dirs {
				c.territoryMoves[p] = append(c.territoryMoves[p], reach{d, rng})
			}
		}
		if len(c.territoryMoves[p]) == 0 {
			return fmt.Errorf("evaluation: territory counts the squares a player's step and slide moves reach first, and player %d has none", p+1)
		}
	}
	return nil
}

// territory returns the number of empty squares p's pieces reach in
// fewer moves than the opponent's, and the opponent's count. Both sides'
// reach grows one move at a time, as square sets.
func (g *Game) territory(p rules.Player) (own, theirs int) {
	c := g.c
	empty := g.emptySquares()
	reached := [2][maxWords]uint64{g.occ[p], g.occ[p^1]} // by p, by the opponent
	fresh := reached
	for {
		grown := false
		for i, q := range [2]rules.Player{p, p ^ 1} {
			next := g.oneMove(q, &fresh[i], &empty)
			for w := range c.words {
				fresh[i][w] = next[w] &^ reached[i][w]
				reached[i][w] |= fresh[i][w]
				grown = grown || fresh[i][w] != 0
			}
		}
		if !grown {
			return own, theirs
		}
		for w := range c.words {
			own += bits.OnesCount64(fresh[0][w] &^ reached[1][w])
			theirs += bits.OnesCount64(fresh[1][w] &^ reached[0][w])
		}
	}
}

// oneMove returns the empty squares p's step and slide moves reach in one
// move from the squares of from.
func (g *Game) oneMove(p rules.Player, from, empty *[maxWords]uint64) [maxWords]uint64 {
	c := g.c
	var out [maxWords]uint64
	for _, r := range c.territoryMoves[p] {
		x := *from
		for steps := 1; ; steps++ {
			c.stepIn(&x, r.d)
			any := uint64(0)
			for w := range c.words {
				x[w] &= empty[w]
				out[w] |= x[w]
				any |= x[w]
			}
			if any == 0 || steps == r.rng {
				break
			}
		}
	}
	return out
}
