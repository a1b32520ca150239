package sixes

import (
	"math/bits"

	"arbiter/rules"
)

// Evaluation weights, in hundredths of a piece.
const (
	pieceValue   = 100 // a piece on the board
	mobilityUnit = 3   // a legal move (the turn limit's tie-break)
	targetBonus  = 40  // an opponent piece the side to move can remove now or soon
	exposedCost  = 20  // an own piece the opponent threatens
)

// Evaluate scores the position for the player to move, in hundredths of a
// piece, from four features:
//   - material: 100 for each piece more than the opponent;
//   - mobility: 3 for each legal move more than the opponent (each side
//     counted as if it were its turn, with its no-return restriction, as
//     the turn-limit tie-break counts them);
//   - targets: 40 for each opponent piece with three of its four neighbours
//     taken by the side to move (or, with edges on, the edge) and the
//     fourth empty, which one move may remove;
//   - exposure: -20 for each own piece in that state, which the side to
//     move must defend.
//
// It allocates nothing and reads bitboards only.
func (g *Game) Evaluate() int {
	p := g.toMove
	own, opp := g.pos.pieces[p], g.pos.pieces[p^1]
	empty := full &^ (own | opp)
	score := g.Material()
	score += mobilityUnit * (g.MoveCount(p) - g.MoveCount(p^1))
	score += targetBonus * bits.OnesCount64(g.edges.atRisk(opp, own, empty))
	score -= exposedCost * bits.OnesCount64(g.edges.atRisk(own, opp, empty))
	return score
}

// Material scores the piece difference for the player to move: 100 for
// each piece more than the opponent.
func (g *Game) Material() int {
	p := g.toMove
	return pieceValue * (bits.OnesCount64(g.pos.pieces[p]) - bits.OnesCount64(g.pos.pieces[p^1]))
}

// Terms counts the position in the quantities Evaluate weighs, for each
// player: pieces on the board, legal moves (as the turn limit's
// tie-break counts them), and enemy pieces one move from removal.
func (g *Game) Terms() []rules.Term {
	pieces := g.pos.pieces
	empty := full &^ (pieces[0] | pieces[1])
	return []rules.Term{
		{Name: "pieces", Count: [2]int{bits.OnesCount64(pieces[rules.P1]), bits.OnesCount64(pieces[rules.P2])}},
		{Name: "legal moves", Count: [2]int{g.MoveCount(rules.P1), g.MoveCount(rules.P2)}},
		{Name: "enemy pieces one move from removal", Count: [2]int{
			bits.OnesCount64(g.edges.atRisk(pieces[rules.P2], pieces[rules.P1], empty)),
			bits.OnesCount64(g.edges.atRisk(pieces[rules.P1], pieces[rules.P2], empty))}},
	}
}
