package described

import "arbiter/rules"

// Narrow leaves out of list the moves that put a new piece (place, drop)
// farther than the evaluation's near steps from every piece on the board,
// a step going to a neighbouring square: any of the eight around on
// squares, the six touching on hexagons (rules.Narrower); moves of pieces on the board, swaps and passes stay.
// It leaves list as it is when the game weighs no near, when the board is
// empty, or when it would leave nothing.
func (g *Game) Narrow(list *rules.MoveList) {
	c := g.c
	if c.near == 0 {
		return
	}
	var zone [maxWords]uint64
	empty := true
	for w := range c.words {
		zone[w] = g.occ[0][w] | g.occ[1][w]
		empty = empty && zone[w] == 0
	}
	if empty {
		return
	}
	for range c.near {
		grown := zone
		for d := range dir(8) {
			next := c.step(&zone, d)
			for w := range c.words {
				grown[w] |= next[w]
			}
		}
		zone = grown
	}
	n := 0
	for _, m := range list.Moves[:list.N] {
		if from, to, _ := unpack(m); m == movePass || from >= 0 || zone[to>>6]>>(to&63)&1 != 0 {
			list.Moves[n] = m
			n++
		}
	}
	if n > 0 {
		list.N = n
	}
}
