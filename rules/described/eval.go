package described

import (
	"math/bits"

	"arbiter/rules"
)

// Evaluate scores the position for the player to move, in hundredths of a
// piece, from the description's weights:
//   - material: each kind of piece's weight (default 100) for each piece
//     more than the opponent, on the board or still in hand;
//   - mobility: the weight for each legal move more than the opponent
//     (each side counted as if it were to move; passes not counted);
//   - advance: the weight for each row a piece stands from its owner's
//     own edge (games whose players move forward), own minus the
//     opponent's;
//   - centre: the weight for each step in from the nearest edges, summed
//     over pieces, own minus the opponent's;
//   - corners: the weight for each corner held more than the opponent;
//   - home: the weight for each piece on its owner's own back row, own
//     minus the opponent's;
//   - groups: the weight for each group of touching pieces fewer than the
//     opponent has (connect.go);
//   - connection: the weight for each step by which the player's
//     connection potential for its connect ending is below the
//     opponent's, and a sixteenth of it for each empty cell more than the
//     opponent's at which the potential is reached (twodistance.go);
//   - territory: the weight for each empty square reached first, more
//     than the opponent (territory.go);
//   - lines: the weight times 4^(k−1) for each line of the in-a-row length
//     open to a player with k of its pieces, own minus the opponent's
//     (lines.go); where lines are judged anywhere (Pentago), less four
//     times a line one piece short when the opponent has two squares or
//     more that each complete one (finish.go).
//
// It allocates nothing after a game's first connection term; mobility
// costs a move generation for each side, groups a flood fill of each
// group, connection and territory a search of the board for each, grown
// as square sets a step at a time, and lines a count of each direction's
// lines as bit planes.
func (g *Game) Evaluate() int {
	c := g.c
	p := g.toMove
	score := g.Material()
	if c.mobility != 0 {
		g.generate(p, &g.scratch, false)
		n := g.scratch.N
		g.generate(p^1, &g.scratch, false)
		score += c.mobility * (n - g.scratch.N)
	}
	if c.advance != 0 || c.centre != 0 {
		var sum [2]int
		for q := range 2 {
			for w := range c.words {
				b := g.occ[q][w]
				for b != 0 {
					sq := w<<6 | bits.TrailingZeros64(b)
					b &= b - 1
					sum[q] += c.advance*int(c.adv[q][sq]) + c.centre*int(c.centrality[sq])
				}
			}
		}
		score += sum[p] - sum[p^1]
	}
	if c.corners != 0 {
		n := 0
		for w := range c.words {
			n += bits.OnesCount64(g.occ[p][w]&c.corner[w]) - bits.OnesCount64(g.occ[p^1][w]&c.corner[w])
		}
		score += c.corners * n
	}
	if c.home != 0 {
		n := 0
		for w := range c.words {
			n += bits.OnesCount64(g.occ[p][w]&c.homeRow[p][w]) - bits.OnesCount64(g.occ[p^1][w]&c.homeRow[p^1][w])
		}
		score += c.home * n
	}
	if c.groups != 0 {
		score += c.groups * (g.groups(p^1) - g.groups(p))
	}
	if c.connection != 0 {
		own, ownWays := g.twoDistance(p)
		theirs, theirWays := g.twoDistance(p ^ 1)
		score += c.connection*(theirs-own) + c.connection/16*(ownWays-theirWays)
	}
	if c.territory != 0 {
		own, theirs := g.territory(p)
		score += c.territory * (own - theirs)
	}
	if c.lines != 0 {
		score += g.lineScore(p)
	}
	return score
}

// Material scores the pieces for the player to move, by the description's
// material weights: those on the board and those still in hand.
func (g *Game) Material() int {
	c := g.c
	p := g.toMove
	score := 0
	for k := range g.spec.pieces {
		score += c.material[k] * int(g.count[p][k]-g.count[p^1][k])
	}
	if c.hand > 0 {
		score += c.material[c.handKind] * (g.InHand(p) - g.InHand(p^1))
	}
	return score
}

// Terms counts the position in the quantities Evaluate weighs, for each
// player: pieces (of each kind, when the game has several), pieces in hand
// (with a hand), and legal moves, corners held, groups and squares of
// territory when the description weighs them.
func (g *Game) Terms() []rules.Term {
	c := g.c
	var terms []rules.Term
	kinds := g.spec.pieces
	for k, kind := range kinds {
		name := "pieces"
		if len(kinds) > 1 {
			name = kind.Name + " pieces"
		}
		terms = append(terms, rules.Term{Name: name, Count: [2]int{int(g.count[0][k]), int(g.count[1][k])}})
	}
	if c.hand > 0 {
		terms = append(terms, rules.Term{Name: "pieces in hand", Count: [2]int{g.InHand(0), g.InHand(1)}})
	}
	if c.mobility != 0 {
		var n [2]int
		for p := range 2 {
			g.generate(rules.Player(p), &g.scratch, false)
			n[p] = g.scratch.N
		}
		terms = append(terms, rules.Term{Name: "legal moves", Count: n})
	}
	if c.corners != 0 {
		var n [2]int
		for p := range 2 {
			for w := range c.words {
				n[p] += bits.OnesCount64(g.occ[p][w] & c.corner[w])
			}
		}
		terms = append(terms, rules.Term{Name: "corners", Count: n})
	}
	if c.groups != 0 {
		terms = append(terms, rules.Term{Name: "groups", Count: [2]int{g.groups(0), g.groups(1)}})
	}
	if c.territory != 0 {
		own, theirs := g.territory(0)
		terms = append(terms, rules.Term{Name: "territory", Count: [2]int{own, theirs}})
	}
	return terms
}
