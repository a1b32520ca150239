package hiya

import (
	"math/bits"

	"arbiter/rules"
)

// Evaluation weights, in hundredths of a piece, fitted to the results of
// self-play games (bench/2026-11-29-strength.md, bench/2026-11-30-strength.md,
// TestFitEvaluation).
const (
	valueNinja       = 280 // diagonal slides both ways forward, attacks backward; two hits to remove
	valueSamurai     = 220 // forward slides, attacks sideways; two hits to remove
	valueMiniNinja   = 150
	valueMiniSamurai = 110

	threatWeight = 39   // per opposing piece a side can attack with its next move
	attackShare  = 5    // the side to move scores 1/attackShare of what its best attack would take
	kingShield   = 465  // own piece on the square from which the King would be attacked
	roomWeight   = 33   // per empty square a side's pieces could reach moving forward
	stuckWeight  = -42  // per piece other than the King that cannot step forward
	kingDanger   = 300  // the opponent can attack our King with its next move
	kingAttack   = 5000 // the side to move can attack the opposing King now: a win in one
	lostPosition = -10000
	hurtNinja    = valueNinja - valueMiniNinja
	hurtSamurai  = valueSamurai - valueMiniSamurai
)

// futilityMargin is the engine's margin of reverse futility pruning a ply
// (FutilityMargin): self-play at 20 ms a move preferred it to the engine's
// default of 150 (docs/explanation/strength.md).
const futilityMargin = 100

// Material scores material for the side to move: the weights of its pieces
// minus the opponent's (Ninja 280, Samurai 220, mini-Ninja 150,
// mini-Samurai 110; the King, always there while the game goes on, counts 0).
func (g *Game) Material() int {
	p := &g.pos
	return p.material(p.toMove) - p.material(p.toMove^1)
}

func (p *position) material(s Side) int {
	own := p.side[s]
	return valueNinja*popcount(p.kind[Ninja]&own) + valueSamurai*popcount(p.kind[Samurai]&own) +
		valueMiniNinja*popcount(p.kind[MiniNinja]&own) + valueMiniSamurai*popcount(p.kind[MiniSamurai]&own)
}

// Evaluate scores the position for the side to move, in hundredths of a
// piece, as the sum of these features (each the side to move's minus the
// opponent's):
//
//   - material: as Material;
//   - room: 33 for each empty square a side's pieces could reach moving
//     forward, and -42 for each piece other than the King that cannot step
//     forward (most pieces never go back, and a side left with no legal
//     move loses);
//   - threats: 39 for each opposing piece a side can attack with its next
//     move (some legal move lands directly in front of it), and for the
//     side to move a fifth of what its best such attack would take (a Ninja
//     or Samurai loses its extra weight, a mini all of it);
//   - king safety: 465 when a side's own piece stands on the square from
//     which its King would be attacked (the King cannot be attacked while it
//     stays); -300 when the opponent can attack our King with its next move,
//     and +5000 when the side to move can attack the opposing King now;
//   - placement: for each piece other than the King, a weight for the row
//     it stands on and its column's distance from the middle
//     (squareWeights), kept up to date as pieces move.
//
// A finished position is lost for the side to move: -10000. Evaluate
// allocates nothing.
func (g *Game) Evaluate() int {
	p := &g.pos
	us, them := p.toMove, p.toMove^1
	if over, _ := p.state(); over != notOver {
		return lostPosition
	}
	score := p.material(us) - p.material(them)

	empty := boardMask &^ (p.side[South] | p.side[North])
	hitUs, aheadUs := p.hits(us, empty)
	hitThem, aheadThem := p.hits(them, empty)
	score += threatWeight * (popcount(hitUs) - popcount(hitThem))
	score += roomWeight*(popcount(aheadUs)-popcount(aheadThem)) + stuckWeight*(p.stuck(us, empty)-p.stuck(them, empty))
	score += p.bestTake(hitUs) / attackShare
	if hitUs&p.kind[King] != 0 {
		score += kingAttack
	}
	if hitThem&p.kind[King] != 0 {
		score -= kingDanger
	}
	score += kingShield * (p.shielded(us) - p.shielded(them))
	if us == South {
		return score + int(p.placed)
	}
	return score - int(p.placed)
}

// squareValues is what a piece adds to South's side of the evaluation where
// it stands, by side, kind and square: a North piece's value is negated.
type squareValues [2][numKinds][64]int32

// squareWeights returns the fitted weight of a piece's square, in
// hundredths of a piece, for each kind other than the King: by the row it
// stands on, counted from its own side's back row, and by its column's
// distance from the middle column D (0 to 3). The rules are the same
// mirrored, and the Kings stand on D.
func squareWeights() [numKinds][rows][4]int16 {
	return [numKinds][rows][4]int16{
		Ninja: {
			{-10, 414, 172, -336},
			{140, 112, 18, 30},
			{96, 0, 80, -2},
			{2, 148, -82, -42},
			{190, -84, 120, -30},
			{-92, 22, -46, 206},
			{-36, -64, -90, -174},
			{38, 362, -104, -38},
		},
		Samurai: {
			{106, 92, -20, -16},
			{72, 122, -4, -26},
			{118, 146, -4, -12},
			{114, 108, 2, -8},
			{216, 106, -8, 28},
			{-56, 34, -24, -34},
			{274, 340, 14, 178},
			{30, -406, -58, -124},
		},
		MiniNinja: {
			{442, 526, 366, 8},
			{12, 68, 34, 36},
			{-16, -10, 2, 10},
			{46, 28, -32, -24},
			{104, -44, 50, -94},
			{24, 336, -58, 50},
			{164, -12, 774, -34},
			{80, 472, -22, -10},
		},
		MiniSamurai: {
			{-10, 62, -24, -54},
			{-68, 138, -30, 6},
			{-32, 114, 44, 0},
			{56, 34, 2, -62},
			{-40, 66, -8, -48},
			{-24, 20, -32, -20},
			{-28, 290, -66, -74},
			{-98, -26, -140, -142},
		},
	}
}

// squareClass returns the row of square sq counted from side s's back row
// (0..7) and its column's distance from the middle column (0..3).
func squareClass(s Side, sq int) (row, middle int) {
	row = sq >> 3
	if s == North {
		row = rows - 1 - row
	}
	return row, abs(sq&7 - 3)
}

// newSquareValues computes the square values from squareWeights.
func newSquareValues() *squareValues {
	weight := squareWeights()
	var v squareValues
	for s := range v {
		for k := Ninja; k < numKinds; k++ {
			for sq := range 64 {
				if sq&7 >= cols {
					continue // the padding column
				}
				row, middle := squareClass(Side(s), sq)
				v[s][k][sq] = int32(weight[k][row][middle])
				if Side(s) == North {
					v[s][k][sq] = -v[s][k][sq]
				}
			}
		}
	}
	return &v
}

// placement sums the square values of p's pieces, from scratch: South's
// minus North's.
func (p *position) placement(v *squareValues) int32 {
	var sum int32
	for s := South; s <= North; s++ {
		for k := Ninja; k < numKinds; k++ {
			for b := p.kind[k] & p.side[s]; b != 0; b &= b - 1 {
				sum += v[s][k][bits.TrailingZeros64(b)]
			}
		}
	}
	return sum
}

// hits returns the opposing pieces that s can attack with its next move
// (those with a square of s's reach directly in front of them), and the
// squares s could reach moving forward.
func (p *position) hits(s Side, empty uint64) (hit, ahead uint64) {
	landing, ahead := p.reach(s, empty)
	return shift(landing&p.attackSquares(s, empty), forward(s)) & p.side[s^1], ahead
}

// bestTake returns what the best attack on the pieces of hit takes: a
// Ninja's or Samurai's extra weight, a mini's whole, 0 when hit is empty
// (the King's attack is the game's end, weighed apart).
func (p *position) bestTake(hit uint64) int {
	best := 0
	if hit&p.kind[Ninja] != 0 {
		best = hurtNinja
	}
	if hit&p.kind[Samurai] != 0 {
		best = max(best, hurtSamurai)
	}
	if hit&p.kind[MiniNinja] != 0 {
		best = max(best, valueMiniNinja)
	}
	if hit&p.kind[MiniSamurai] != 0 {
		best = max(best, valueMiniSamurai)
	}
	return best
}

// reach returns the empty squares where some piece of s could land with its
// next move if every landing attacked (forward, diagonally backward for
// Ninjas and sideways for Samurai, one square for minis), and of them those
// it could land on moving forward, which need not attack. A landing of the
// first that also attacks is a legal move, as is every one of the second.
func (p *position) reach(s Side, empty uint64) (landing, ahead uint64) {
	own := p.side[s]
	ninja, samurai := p.kind[Ninja]&own, p.kind[Samurai]&own
	diag := ninja | p.kind[MiniNinja]&own
	straight := samurai | p.kind[MiniSamurai]&own
	// On the board's 8-bit rows, steps of 7 and 9 are the diagonals, 8 a
	// column and 1 a row.
	sideways := fillDown(straight, samurai, empty, 1) | fillUp(straight, samurai, empty, 1)
	if s == South {
		ahead = fillUp(diag, ninja, empty, 7) | fillUp(diag, ninja, empty, 9) | fillUp(straight, samurai, empty, 8)
		return ahead | sideways | fillDown(diag, ninja, empty, 7) | fillDown(diag, ninja, empty, 9), ahead
	}
	ahead = fillDown(diag, ninja, empty, 7) | fillDown(diag, ninja, empty, 9) | fillDown(straight, samurai, empty, 8)
	return ahead | sideways | fillUp(diag, ninja, empty, 7) | fillUp(diag, ninja, empty, 9), ahead
}

// stuck counts the pieces of s other than the King that cannot step forward.
func (p *position) stuck(s Side, empty uint64) int {
	own := p.side[s]
	diag := (p.kind[Ninja] | p.kind[MiniNinja]) & own
	straight := (p.kind[Samurai] | p.kind[MiniSamurai]) & own
	f := forward(s)
	free := shift(empty, -f)&straight | (shift(empty, 1-f)|shift(empty, -1-f))&diag
	return popcount((diag | straight) &^ free)
}

// shielded returns 1 when a piece of s stands on the square from which the
// opponent would attack s's King, else 0.
func (p *position) shielded(s Side) int {
	guard := shift(p.kind[King]&p.side[s], forward(s)) & p.side[s]
	if guard != 0 {
		return 1
	}
	return 0
}

// FutilityMargin returns the engine's margin of reverse futility pruning
// for Hi-Ya!, a ply: 100 hundredths of a piece.
func (g *Game) FutilityMargin() int { return futilityMargin }

// Terms counts the position in the quantities Evaluate weighs, for each
// player: Ninjas and Samurai at full strength, mini pieces (hit once),
// empty squares its pieces could reach moving forward, pieces that cannot
// step forward, and opposing pieces the player could attack with its next
// move.
func (g *Game) Terms() []rules.Term {
	p := &g.pos
	empty := boardMask &^ (p.side[South] | p.side[North])
	var t [5][2]int
	for pl := rules.P1; pl <= rules.P2; pl++ {
		s := g.SideOf(pl)
		own := p.side[s]
		hit, ahead := p.hits(s, empty)
		t[0][pl] = popcount((p.kind[Ninja] | p.kind[Samurai]) & own)
		t[1][pl] = popcount((p.kind[MiniNinja] | p.kind[MiniSamurai]) & own)
		t[2][pl] = popcount(ahead)
		t[3][pl] = p.stuck(s, empty)
		t[4][pl] = popcount(hit)
	}
	return []rules.Term{{Name: "Ninjas and Samurai at full strength", Count: t[0]}, {Name: "mini pieces", Count: t[1]},
		{Name: "squares ahead it can move to", Count: t[2]}, {Name: "pieces that cannot step forward", Count: t[3]},
		{Name: "enemy pieces it can attack next move", Count: t[4]}}
}
