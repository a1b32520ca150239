package described

import (
	"math/bits"
	"slices"

	"arbiter/rules"
)

// Boards of hexagons, and the endings that look at the shape of a
// player's pieces rather than their number or their line:
//
//   - cells: hexagons makes each cell touch six others, as on a Hex board
//     drawn as a rhombus: (f, r) touches (f±1, r), (f, r±1), (f+1, r−1)
//     and (f−1, r+1) in the notation's numbering. The diagonal on which
//     file and rank grow together does not touch; a step that way leads
//     off the board, for moves and lines as for groups.
//   - when: connect is a group of touching pieces of one player joining
//     two edges of the board, checked after each move through the square
//     the move ended on (only a piece arriving can join a group).
//   - when: one-group is all of a player's pieces forming one group of
//     touching pieces, checked for both players after each move; when a
//     move makes both whole, the mover's is the one that counts.

// touching reports whether a step in direction d leads to a touching
// cell: always on squares; on hexagons not along the diagonal on which
// file and rank grow together (northeast as drawn with rows numbered from
// the bottom, southeast with rows from the top).
func (c *compiled) touching(d dir, fromTop bool) bool {
	if !c.hex {
		return true
	}
	if fromTop {
		return d != dirSouthEast && d != dirNorthWest
	}
	return d != dirNorthEast && d != dirSouthWest
}

// connectEnd is a connect ending compiled: the squares of its two edges.
type connectEnd struct {
	player int // 0: either player; 1 or 2
	edges  [2]dir
	edge   [2][maxWords]uint64
	result resultKind
}

// edgeWords are the names of the board's edges, by direction.
var edgeWords = []string{"north", "east", "south", "west"}

// connectEnd compiles a connect ending.
func (c *compiled) connectEnd(e endDef) connectEnd {
	ce := connectEnd{player: e.player, edges: e.edges, result: e.result}
	for i, d := range e.edges {
		for sq := range c.n {
			col, row := sq%c.w, sq/c.w
			if d == dirNorth && row == 0 || d == dirSouth && row == c.h-1 || d == dirWest && col == 0 || d == dirEast && col == c.w-1 {
				ce.edge[i][sq/64] |= 1 << (sq % 64)
			}
		}
	}
	return ce
}

// connectEnding reads a connect ending's player and edges, and refuses
// them on any other ending.
func (r *reader) connectEnding(f map[string]field, e *endDef) {
	if e.when != whenConnect {
		for _, k := range []string{"player", "edges"} {
			if x, has := f[k]; has {
				r.fail(x.key, "%s belongs to when: connect", k)
			}
		}
		return
	}
	if pl, ok := f["player"]; ok {
		e.player = r.player(pl.value) + 1
	}
	ed, ok := f["edges"]
	if !ok {
		return
	}
	items := r.list(ed.value, "edges")
	if r.err == nil && len(items) != 2 {
		r.fail(ed.value, "edges names the two edges a group joins, such as [south, north] or [west, east]")
		return
	}
	for i, x := range items {
		w := r.word(x, "edge", edgeWords...)
		e.edges[i] = dir(slices.Index(absNames[:], w))
	}
	if r.err == nil && e.edges[0] == e.edges[1] {
		r.fail(ed.value, "edges names two different edges")
	}
}

// groupOf returns the group of p's touching pieces that holds sq.
func (g *Game) groupOf(sq int, p rules.Player) [maxWords]uint64 {
	c := g.c
	var grp [maxWords]uint64
	var stack [maxCells]int16
	grp[sq>>6] |= 1 << (sq & 63)
	stack[0] = int16(sq)
	n := 1
	for n > 0 {
		n--
		adj := &c.adj[stack[n]]
		for w := range c.words {
			nw := adj[w] & g.occ[p][w] &^ grp[w]
			grp[w] |= nw
			for ; nw != 0; nw &= nw - 1 {
				stack[n] = int16(w<<6 | bits.TrailingZeros64(nw))
				n++
			}
		}
	}
	return grp
}

// groups returns the number of groups of p's touching pieces.
func (g *Game) groups(p rules.Player) int {
	c := g.c
	left := g.occ[p]
	n := 0
	for w := range c.words {
		for left[w] != 0 {
			grp := g.groupOf(w<<6|bits.TrailingZeros64(left[w]), p)
			for i := range c.words {
				left[i] &^= grp[i]
			}
			n++
		}
	}
	return n
}

// whole reports whether p has pieces and they all form one group.
func (g *Game) whole(p rules.Player) bool {
	c := g.c
	if g.total[p] == 0 {
		return false
	}
	for w := range c.words {
		if b := g.occ[p][w]; b != 0 {
			grp := g.groupOf(w<<6|bits.TrailingZeros64(b), p)
			n := 0
			for i := range c.words {
				n += bits.OnesCount64(grp[i])
			}
			return n == int(g.total[p])
		}
	}
	return false
}

// shapeEnd checks the connect and one-group endings after p's move to
// to (-1 for none); known is false when neither ends the game.
func (g *Game) shapeEnd(p rules.Player, to int) endState {
	c := g.c
	if len(c.connects) > 0 && to >= 0 && g.cells[to] != 0 && rules.Player((g.cells[to]-1)&1) == p {
		grp := g.groupOf(to, p)
		for i := range c.connects {
			ce := &c.connects[i]
			if ce.player != 0 && ce.player != int(p)+1 {
				continue
			}
			if meets(&grp, &ce.edge[0], c.words) && meets(&grp, &ce.edge[1], c.words) {
				return decide(ce.result, p, whyConnect)
			}
		}
	}
	if c.oneGroup {
		if g.whole(p) {
			return decide(c.oneGroupRes, p, whyOneGroup)
		}
		if g.whole(p ^ 1) {
			return decide(c.oneGroupRes, p^1, whyOneGroup)
		}
	}
	return endState{}
}

// meets reports whether two square sets share a square.
func meets(a, b *[maxWords]uint64, words int) bool {
	for w := range words {
		if a[w]&b[w] != 0 {
			return true
		}
	}
	return false
}

// TurningBlock is the side of the square blocks one of which turns a
// quarter after a placement (Pentago's 3 × 3 quarters), 0 when no rule
// turns one: a drawing sets the blocks apart.
func (g *Game) TurningBlock() int {
	n := 0
	for _, gens := range g.c.gens {
		for _, gn := range gens {
			n = max(n, gn.rotate)
		}
	}
	return n
}

// Hexagonal reports whether the board's cells are hexagons (cells:
// hexagons), drawn as a rhombus whose rows shift half a cell each.
func (g *Game) Hexagonal() bool { return g.c.hex }

// EdgeOwners returns, for the board's edges as drawn (top, right, bottom,
// left), the player whose connect ending joins that edge; ok[i] is false
// for an edge no connect ending of a single player names.
func (g *Game) EdgeOwners() (owner [4]rules.Player, ok [4]bool) {
	for _, ce := range g.c.connects {
		if ce.player == 0 {
			continue
		}
		for _, d := range ce.edges {
			owner[d/2], ok[d/2] = rules.Player(ce.player-1), true
		}
	}
	return owner, ok
}
