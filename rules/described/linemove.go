package described

import (
	"math/bits"

	"arbiter/rules"
)

// A slide with distance: line (Lines of Action) goes exactly as many
// squares as there are pieces, of both players, on the whole line it
// moves along (the entire rank, file or diagonal through it, itself
// included). The squares it passes must be empty or hold what over:
// allows (friend: its own pieces); the square it lands on must be one
// that to: allows (enemy: a capture).

// lineSlide reads a slide's distance and over.
func (r *reader) lineSlide(f map[string]field, m *ruleDef) {
	if d, ok := f["distance"]; ok {
		r.word(d.value, "distance", "line")
		m.lineDistance = true
	}
	if o, ok := f["over"]; ok {
		switch r.word(o.value, "over", "friend", "enemy", "any") {
		case "friend":
			m.over = toFriend
		case "enemy":
			m.over = toEnemy
		case "any":
			m.over = toFriend | toEnemy
		}
	}
}

// buildLines fills c.line: for each axis and square, the squares of the
// whole line through it.
func (c *compiled) buildLines() {
	for a := range 4 {
		for sq := range c.n {
			set := &c.line[a][sq]
			set[sq/64] |= 1 << (sq % 64)
			for _, d := range [2]int{a, a + 4} {
				for t := c.nb[d][sq]; t >= 0; t = c.nb[d][t] {
					set[t/64] |= 1 << (t % 64)
				}
			}
		}
	}
}

// genLineSlide adds p's slide with distance: line from sq in direction d,
// if it can go.
func (g *Game) genLineSlide(gn *gen, p rules.Player, sq int, d dir, list *rules.MoveList) {
	c := g.c
	line := &c.line[d%4][sq]
	n := 0
	for w := range c.words {
		n += bits.OnesCount64(line[w] & (g.occ[0][w] | g.occ[1][w]))
	}
	cls := &c.cls[p]
	t := sq
	for i := 1; i <= n; i++ {
		t = int(c.nb[d][t])
		if t < 0 {
			return
		}
		k := cls[g.cells[t]]
		if i < n && k != toEmpty && k&gn.over == 0 {
			return
		}
	}
	if cls[g.cells[t]]&gn.to != 0 {
		g.add(list, pack(sq, t, gn.rule))
	}
}
