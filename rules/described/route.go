package described

import "arbiter/rules"

// A route move (a jump rule with chain: route) is a whole sequence of
// jumps by one piece, written with every landing square. It is packed
// without its final square: bits 0-8 hold the from square plus one, bits
// 17-21 the rule, bit 23 is set, and routeBits hold the jumps as a code of
// two bits a jump. The first jump's two bits are the index of its
// direction in the rule's route directions (those of both players
// together, at most four, in the order north, northeast, ... northwest);
// each later jump's are 1 to 3, the first, second or third of those
// directions other than straight back (a jump back would pass the piece just jumped), and
// 0 ends the route. So a route move's squares follow from the move alone,
// whatever the position.
const (
	routeFlag rules.Move = 1 << 23
	// routeBits are the 17 bits of a route's code: bits 9-16, 22, 24-31.
	routeBits rules.Move = 0xFF<<9 | 1<<22 | 0xFF<<24
	// maxRoute is the most jumps a route move holds.
	maxRoute = 8
)

// isRoute reports whether m is a route move.
func isRoute(m rules.Move) bool { return m&routeFlag != 0 && m&fromMask != 0 }

// routeCode reads the 17-bit code of a route move.
func routeCode(m rules.Move) uint32 {
	return uint32(m>>9&0xFF | m>>22&1<<8 | m>>24<<9)
}

// packRoute packs a route from from by rule whose jumps go in the
// directions steps, with rdirs the rule's route directions.
func packRoute(from int, rule uint8, rdirs []dir, steps []dir) rules.Move {
	var code uint32
	for i, d := range steps {
		back := dir(8) // none: the first jump may go any way
		if i > 0 {
			back = (steps[i-1] + 4) % 8
		}
		k := uint32(0)
		for _, r := range rdirs {
			if r == d {
				break
			}
			if r != back {
				k++
			}
		}
		if i > 0 {
			k++
		}
		code |= k << (2 * i)
	}
	return rules.Move(uint32(from+1)|uint32(rule)<<ruleShift) | routeFlag |
		rules.Move(code&0xFF)<<9 | rules.Move(code>>8&1)<<22 | rules.Move(code>>9)<<24
}

// routeSteps decodes a route move's directions into out and returns how
// many jumps it makes; 0 for a code that is no route of the rule.
func routeSteps(m rules.Move, gdirs []dir, out *[maxRoute]dir) int {
	code := routeCode(m)
	first := int(code & 3)
	if first >= len(gdirs) {
		return 0
	}
	out[0] = gdirs[first]
	n := 1
	for ; n < maxRoute; n++ {
		k := int(code >> (2 * n) & 3)
		if k == 0 {
			break
		}
		back := (out[n-1] + 4) % 8
		found := false
		for _, d := range gdirs {
			if d == back {
				continue
			}
			if k--; k == 0 {
				out[n], found = d, true
				break
			}
		}
		if !found {
			return 0
		}
	}
	if code>>(2*n) != 0 {
		return 0
	}
	return n
}

// routeSquares follows a route move on the board's geometry: it fills
// over with the squares jumped and land with the landing squares and
// returns the number of jumps, 0 if the move is no route on this board.
func (c *compiled) routeSquares(m rules.Move, over, land *[maxRoute]int) int {
	from, _, rule := unpack(m)
	if !isRoute(m) || rule >= len(c.gens[0]) || from < 0 || from >= c.n || !c.gens[0][rule].route {
		return 0
	}
	var steps [maxRoute]dir
	n := routeSteps(m, c.gens[0][rule].routeDirs, &steps)
	cur := from
	for i := range n {
		o := int(c.nb[steps[i]][cur])
		if o < 0 || c.nb[steps[i]][o] < 0 {
			return 0
		}
		over[i], land[i] = o, int(c.nb[steps[i]][o])
		cur = land[i]
	}
	return n
}

// walker follows the capture routes of one piece in the position.
type walker struct {
	gn     *gen
	p      rules.Player
	from   int
	jumped [maxWords]uint64
	steps  [maxRoute]dir
	depth  int
	list   *rules.MoveList
}

// genRoutes adds every route of the piece on from under gn.
func (g *Game) genRoutes(gn *gen, p rules.Player, from int, list *rules.MoveList) {
	w := walker{gn: gn, p: p, from: from, list: list}
	g.walk(&w, from)
}

// walk extends the route ending on sq by every jump that is possible; a
// route that cannot go on is a move. A route ends where the piece reaches
// its rule's promotion row.
func (g *Game) walk(w *walker, sq int) {
	c := g.c
	cls := &c.cls[w.p]
	gn := w.gn
	if w.depth > 0 && gn.promoteRow >= 0 && int(c.rowOf[sq]) == gn.promoteRow {
		g.add(w.list, packRoute(w.from, gn.rule, gn.routeDirs, w.steps[:w.depth]))
		return
	}
	went := false
	for _, d := range gn.dirs {
		o := c.nb[d][sq]
		if o < 0 || cls[g.cells[o]]&gn.over == 0 || w.jumped[o>>6]&(1<<(o&63)) != 0 {
			continue
		}
		l := c.nb[d][o]
		if l < 0 || g.cells[l] != 0 && int(l) != w.from {
			continue
		}
		went = true
		if w.depth == maxRoute {
			// A longer route than a move holds: left out and recorded.
			g.overflow = true
			continue
		}
		w.jumped[o>>6] |= 1 << (o & 63)
		w.steps[w.depth] = d
		w.depth++
		g.walk(w, int(l))
		w.depth--
		w.jumped[o>>6] &^= 1 << (o & 63)
	}
	if !went && w.depth > 0 {
		g.add(w.list, packRoute(w.from, gn.rule, gn.routeDirs, w.steps[:w.depth]))
	}
}

// playRoute plays a route move of p by gn from from.
func (g *Game) playRoute(m rules.Move, gn *gen, from int) (to int) {
	var over, land [maxRoute]int
	n := g.c.routeSquares(m, &over, &land)
	v := g.cells[from]
	g.set(from, 0)
	if gn.capture {
		for i := range n {
			g.set(over[i], 0)
		}
	}
	to = land[n-1]
	if gn.promoteRow >= 0 && int(g.c.rowOf[to]) == gn.promoteRow {
		v = gn.promoteTo
	}
	g.set(to, v)
	return to
}
