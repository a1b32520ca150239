package described

import (
	"math/bits"

	"arbiter/rules"
)

// unreached is the two-distance of a cell that cannot reach an edge.
const unreached = 255

// twoDistScratch is twoDistance's working memory, kept with a game so
// that an evaluation neither clears nor allocates it.
type twoDistScratch struct {
	nb   [maxCells][maxWords]uint64 // an empty cell's neighbours
	dist [2][maxCells]uint8         // two-distances to each edge
}

// twoDistance returns p's connection potential for its connect ending: the
// least, over the empty cells, of the cell's two-distances to the two
// edges, and how many empty cells have that least potential (the more,
// the harder it is to block). A cell's two-distance to an edge is 1 on
// the edge or next to a group of p's on it, and otherwise one more than
// the second-least of its neighbours' (the opponent can fill the least),
// with p's groups contracted: the empty cells around one group are all
// neighbours. It
// returns 0, 0 for a player without a connect ending and a potential of
// 2·unreached when no empty cell reaches both edges.
func (g *Game) twoDistance(p rules.Player) (potential, count int) {
	c := g.c
	var ce *connectEnd
	for i := range c.connects {
		if c.connects[i].player == 0 || c.connects[i].player == int(p)+1 {
			ce = &c.connects[i]
			break
		}
	}
	if ce == nil {
		return 0, 0
	}
	own, empty := &g.occ[p], g.emptySquares()

	// Each empty cell's neighbours, p's groups contracted (set here for
	// every empty cell before it is read); the cells next to each edge,
	// through a group touching it too.
	if g.twoDist == nil {
		g.twoDist = new(twoDistScratch)
	}
	nb, dist := &g.twoDist.nb, &g.twoDist.dist
	var start [2][maxWords]uint64
	for w := range c.words {
		for b := empty[w]; b != 0; b &= b - 1 {
			sq := w<<6 | bits.TrailingZeros64(b)
			for v := range c.words {
				nb[sq][v] = c.adj[sq][v] & empty[v]
			}
		}
		start[0][w] = ce.edge[0][w] & empty[w]
		start[1][w] = ce.edge[1][w] & empty[w]
	}
	var seen [maxWords]uint64
	for w := range c.words {
		for b := own[w] &^ seen[w]; b != 0; b = own[w] &^ seen[w] {
			grp := g.groupOf(w<<6|bits.TrailingZeros64(b), p)
			var libs [maxWords]uint64
			for v := range c.words {
				seen[v] |= grp[v]
				for gb := grp[v]; gb != 0; gb &= gb - 1 {
					adj := &c.adj[v<<6|bits.TrailingZeros64(gb)]
					for u := range c.words {
						libs[u] |= adj[u] & empty[u]
					}
				}
			}
			for e := range 2 {
				if meets(&grp, &ce.edge[e], c.words) {
					for v := range c.words {
						start[e][v] |= libs[v]
					}
				}
			}
			for v := range c.words {
				for lb := libs[v]; lb != 0; lb &= lb - 1 {
					sq := v<<6 | bits.TrailingZeros64(lb)
					for u := range c.words {
						nb[sq][u] |= libs[u]
					}
					nb[sq][v] &^= 1 << (sq & 63)
				}
			}
		}
	}

	for e := range 2 {
		d := &dist[e]
		for i := range c.n {
			d[i] = unreached
		}
		// once and twice: the cells with one assigned neighbour, and with
		// two or more (neighbours are mutual, so each assigned cell adds
		// itself to its neighbours' counts).
		var once, twice [maxWords]uint64
		assigned, fresh := start[e], start[e]
		for level := uint8(1); ; level++ {
			var next [maxWords]uint64
			grew := false
			for w := range c.words {
				for b := fresh[w]; b != 0; b &= b - 1 {
					sq := w<<6 | bits.TrailingZeros64(b)
					d[sq] = level
					for v := range c.words {
						twice[v] |= once[v] & nb[sq][v]
						once[v] |= nb[sq][v]
					}
				}
			}
			for w := range c.words {
				next[w] = twice[w] &^ assigned[w]
				grew = grew || next[w] != 0
			}
			if !grew || level == unreached-1 {
				break
			}
			for w := range c.words {
				assigned[w] |= next[w]
			}
			fresh = next
		}
	}
	potential = 2 * unreached
	for w := range c.words {
		for b := empty[w]; b != 0; b &= b - 1 {
			sq := w<<6 | bits.TrailingZeros64(b)
			switch pot := int(dist[0][sq]) + int(dist[1][sq]); {
			case pot < potential:
				potential, count = pot, 1
			case pot == potential:
				count++
			}
		}
	}
	return potential, count
}
