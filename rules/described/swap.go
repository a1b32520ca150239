package described

import (
	"math/bits"

	"arbiter/rules"
)

// The swap rule (kind: swap) is the pie rule of Hex and other placement
// games: at the second move of the game only, the player to move may,
// instead of any other move, take the opponent's pieces over: each of the
// opponent's pieces on column f, row r is replaced by one of the mover's,
// of the same kind, on column r, row f (mirrored across the board's
// diagonal from a1), and the opponent moves next. It needs a square board.
// A swap move is written "swap"; it is packed with the first opponent
// piece's square as from and its mirror as to.

// swapMove reads a swap rule: it takes only kind and if.
func (r *reader) swapMove(f map[string]field, m *ruleDef) {
	for _, k := range []string{"piece", "directions", "to", "over", "capture", "chain", "compulsory", "range",
		"outflank", "must-outflank", "promote", "player", "turn", "distance"} {
		if x, has := f[k]; has {
			r.fail(x.key, "a swap move has no %s: it is the game's second move, taking the first player's pieces over, mirrored", k)
		}
	}
}

// mirror returns the square on column r, row f for the square on column
// f, row r (numbered as in the notation).
func (c *compiled) mirror(sq int, fromTop bool) int {
	col := sq%c.w + 1
	row := c.h - sq/c.w
	if fromTop {
		row = sq/c.w + 1
	}
	return c.square(row, col, fromTop)
}

// genSwap adds the swap of gn when it is the game's second move and the
// opponent has a piece.
func (g *Game) genSwap(gn *gen, p rules.Player, list *rules.MoveList) {
	if len(g.hist) != 1 {
		return
	}
	for w := range g.c.words {
		if b := g.occ[p^1][w]; b != 0 {
			sq := w<<6 | bits.TrailingZeros64(b)
			g.add(list, pack(sq, g.c.mirror(sq, g.spec.rowsFromTop), gn.rule))
			return
		}
	}
}

// playSwap plays a swap by p and returns the square its first piece went
// to.
func (g *Game) playSwap(p rules.Player, m rules.Move) int {
	c := g.c
	var taken [maxWords]uint64
	var kinds [maxCells]uint8
	for w := range c.words {
		taken[w] = g.occ[p^1][w]
		for b := taken[w]; b != 0; b &= b - 1 {
			sq := w<<6 | bits.TrailingZeros64(b)
			kinds[sq] = (g.cells[sq] - 1) >> 1
			g.set(sq, 0)
		}
	}
	for w := range c.words {
		for b := taken[w]; b != 0; b &= b - 1 {
			sq := w<<6 | bits.TrailingZeros64(b)
			g.set(c.mirror(sq, g.spec.rowsFromTop), cellValue(int(kinds[sq]), p))
		}
	}
	_, to, _ := unpack(m)
	return to
}

// isSwap reports whether m, a move of the game's rules, is a swap.
func (g *Game) isSwap(m rules.Move) bool {
	if m == movePass || isRoute(m) || m&^moveBits != 0 {
		return false
	}
	_, _, rule := unpack(m)
	return rule < len(g.c.gens[0]) && g.c.gens[0][rule].kind == kindSwap
}

// parseSwap finds the swap among the legal moves.
func (g *Game) parseSwap(list *rules.MoveList) (rules.Move, error) {
	for _, m := range list.Slice() {
		if g.isSwap(m) {
			return m, nil
		}
	}
	if !g.c.swap {
		return rules.NoMove, illegal("there is no swap in %s with these options: %s", g.spec.Title, g.howToWrite())
	}
	return rules.NoMove, illegal("a swap is only the game's second move")
}
