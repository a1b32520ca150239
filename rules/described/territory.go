package described

import (
	"fmt"

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

// unreached is the distance of a square no piece reaches.
const unreached = 255

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
// fewer moves than the opponent's, and the opponent's count.
func (g *Game) territory(p rules.Player) (own, theirs int) {
	var dist [2][maxCells]uint8
	g.distances(p, &dist[0])
	g.distances(p^1, &dist[1])
	for sq := range g.c.n {
		if g.cells[sq] != 0 {
			continue
		}
		switch a, b := dist[0][sq], dist[1][sq]; {
		case a < b:
			own++
		case b < a:
			theirs++
		}
	}
	return own, theirs
}

// distances fills dist with the fewest moves in which p's pieces reach
// each empty square (unreached for none), by breadth-first search.
func (g *Game) distances(p rules.Player, dist *[maxCells]uint8) {
	c := g.c
	var queue [maxCells]int16
	n := 0
	for sq := range c.n {
		dist[sq] = unreached
		if g.occ[p][sq>>6]>>(sq&63)&1 != 0 {
			dist[sq] = 0
			queue[n] = int16(sq)
			n++
		}
	}
	for head := 0; head < n; head++ {
		sq := int(queue[head])
		next := dist[sq] + 1
		for _, r := range c.territoryMoves[p] {
			nb := &c.nb[r.d]
			for t, steps := int(nb[sq]), 1; t >= 0 && g.cells[t] == 0; t, steps = int(nb[t]), steps+1 {
				if dist[t] == unreached {
					dist[t] = next
					queue[n] = int16(t)
					n++
				}
				if steps == r.rng {
					break
				}
			}
		}
	}
}
