package upthrust

import (
	"math/bits"

	"arbiter/rules"
)

// Evaluation weights, in hundredths of a piece, where a piece in row 7
// (10 row points) is worth 100. advanceWeight and mobilityWeight were
// fitted to the results of self-play games (engine/evalfit): a piece that
// may move is worth three pieces in row 7, since a side left without moves
// passes while the other keeps climbing.
const (
	pointWeight    = 10  // per row point
	advanceWeight  = 7   // per row climbed by a piece below the scoring zone
	mobilityWeight = 300 // per piece that may move
)

// Evaluate scores the position for the player to move, in hundredths of a
// piece (a piece in row 7, worth 10 row points, counts 100). Its features,
// each own minus the opponent's:
//   - row points: 10 for each row point the player's pieces score now;
//   - advancement potential: 7 for each row a piece below the scoring zone
//     stands above row 1 (a piece in row 6 is one move from scoring);
//   - mobility: 300 for each piece of the player's colours that may move (a
//     player without a move must pass).
//
// It allocates nothing.
func (g *Game) Evaluate() int {
	p := &g.pos
	me, them := g.colours[p.toMove], g.colours[p.toMove^1]
	score := g.Material()
	score += advanceWeight * (advancement(p, me) - advancement(p, them))
	// A movable piece has one landing square, so squares count pieces.
	k := p.classes()
	mine := bits.OnesCount64(p.targets(me[0], &k)) + bits.OnesCount64(p.targets(me[1], &k))
	theirs := bits.OnesCount64(p.targets(them[0], &k)) + bits.OnesCount64(p.targets(them[1], &k))
	return score + mobilityWeight*(mine-theirs)
}

// Material scores the row points alone for the player to move, on
// Evaluate's scale: 10 for each row point more than the opponent.
func (g *Game) Material() int {
	p := &g.pos
	s := [2]int{p.points(g.colours[rules.P1]), p.points(g.colours[rules.P2])}
	return pointWeight * (s[p.toMove] - s[p.toMove^1])
}

// advancement sums, over the pieces of two colours below the scoring zone,
// the rows each stands above row 1.
func advancement(p *position, cs [2]Colour) int {
	b := (p.boards[cs[0]] | p.boards[cs[1]]) & lowMask
	total := 0
	for row := 1; row < FirstScoringRow-1; row++ {
		total += row * bits.OnesCount64(b>>(uint(row)*4)&0xF)
	}
	return total
}

// Terms counts the position in the quantities Evaluate weighs, for each
// player: row points scored now, rows climbed below the scoring zone, and
// pieces that may move.
func (g *Game) Terms() []rules.Term {
	p := &g.pos
	k := p.classes()
	var t [3][2]int
	for pl := range 2 {
		cs := g.colours[pl]
		t[0][pl] = p.points(cs)
		t[1][pl] = advancement(p, cs)
		t[2][pl] = bits.OnesCount64(p.targets(cs[0], &k)) + bits.OnesCount64(p.targets(cs[1], &k))
	}
	return []rules.Term{{Name: "row points", Count: t[0]}, {Name: "rows climbed", Count: t[1]}, {Name: "pieces that may move", Count: t[2]}}
}
