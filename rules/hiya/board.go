package hiya

import (
	"math/bits"

	"arbiter/rules"
)

// The board: 7 columns, 8 rows, kept on an 8x8 grid whose eighth column is
// padding that never holds a piece.
const (
	cols = 7
	rows = 8
	// boardMask has a bit for each of the 56 squares.
	boardMask uint64 = 0x7F7F7F7F7F7F7F7F
)

// square returns the index of column col (1..7) and row row (1..8).
func square(col, row int) int { return (row-1)*8 + (col - 1) }

// squareName writes a square as the rules file does: "E2".
func squareName(sq int) string {
	return string([]byte{'A' + byte(sq&7), '1' + byte(sq>>3)})
}

// appendSquare appends squareName(sq) to b.
func appendSquare(b []byte, sq int) []byte {
	return append(b, 'A'+byte(sq&7), '1'+byte(sq>>3))
}

func popcount(b uint64) int { return bits.OnesCount64(b) }

// shift moves every bit of b by d squares (up the board for d > 0). Bits
// leaving a side of the board land on the padding column or fall off the
// ends; callers mask the result with empty squares or pieces.
func shift(b uint64, d int) uint64 {
	if d >= 0 {
		return b << uint(d)
	}
	return b >> uint(-d)
}

// forward returns the square step that is forward for side s.
func forward(s Side) int {
	if s == South {
		return 8
	}
	return -8
}

// How a game ended.
const (
	notOver uint8 = iota
	overKing
	overNoMove
)

// position is everything the rules need to know about a position. It is
// small, so a Game copies it cheaply.
type position struct {
	kind    [numKinds]uint64 // squares holding each kind, both sides
	side    [2]uint64        // squares holding each side's pieces
	hash    uint64
	placed  int32 // the pieces' square values, South's minus North's (placement), kept as they move
	toMove  Side
	kingHit bool // the last move attacked the King: its player has won
}

// state returns how the game stands, in the End section's order: over when
// the last move attacked the King, else over when the side to move has no
// legal move, else not over; and the winner when over (always the side that
// moved last, for there are no draws). It is worked out
// afresh each time (hasMove is cheap), so that Play stays cheap for the
// leaves of a search and reading the state never writes to the game.
func (p *position) state() (over uint8, winner Side) {
	switch {
	case p.kingHit:
		return overKing, p.toMove ^ 1
	case !p.hasMove():
		return overNoMove, p.toMove ^ 1
	}
	return notOver, 0
}

// pieceOn returns the piece on sq, if any.
func (p *position) pieceOn(sq int) (Kind, Side, bool) {
	bit := uint64(1) << uint(sq)
	var s Side
	switch {
	case p.side[South]&bit != 0:
		s = South
	case p.side[North]&bit != 0:
		s = North
	default:
		return 0, 0, false
	}
	return p.kindOn(bit), s, true
}

// kindOn returns the kind of the piece on the square of bit, which must hold
// a piece.
func (p *position) kindOn(bit uint64) Kind {
	for k := Ninja; k < numKinds; k++ {
		if p.kind[k]&bit != 0 {
			return k
		}
	}
	return King
}

// put places a piece of side s and kind k on the empty square sq. The
// caller computes the hash when the position is complete.
func (p *position) put(s Side, k Kind, sq int) {
	bit := uint64(1) << uint(sq)
	p.kind[k] |= bit
	p.side[s] |= bit
}

// zobristKeys are the hash keys of each piece on each square, by side, kind
// (room for 8, so that any 3-bit kind indexes it without a check) and
// square.
type zobristKeys [2][8][64]uint64

// newZobristKeys computes the keys with a pure function (the SplitMix64
// finaliser, a bijection, over a distinct number for each piece and square):
// every game computes the same keys and there is no global table.
func newZobristKeys() *zobristKeys {
	var z zobristKeys
	for s := range z {
		for k := range z[s] {
			for sq := range z[s][k] {
				z[s][k][sq] = mix64(uint64(s)<<9 | uint64(k)<<6 | uint64(sq))
			}
		}
	}
	return &z
}

// sideKey is hashed in when North is to move.
const sideKey uint64 = 0x6A09E667F3BCC909

// mix64 spreads a distinct number over 64 bits: an odd multiplier, then the
// SplitMix64 finaliser, both bijections.
func mix64(x uint64) uint64 { return rules.Mix64((x + 1) * 0x9E3779B97F4A7C15) }

// computeHash returns the hash of p from scratch.
func (p *position) computeHash(z *zobristKeys) uint64 {
	var h uint64
	for s := South; s <= North; s++ {
		for k := King; k < numKinds; k++ {
			for b := p.kind[k] & p.side[s]; b != 0; b &= b - 1 {
				h ^= z[s][k][bits.TrailingZeros64(b)]
			}
		}
	}
	if p.toMove == North {
		h ^= sideKey
	}
	return h
}

// startPosition returns the start of the rules file with first to move,
// without its hash.
func startPosition(first Side) position {
	var p position
	for c := 1; c <= 3; c++ {
		p.put(South, Samurai, square(c, 2))
		p.put(South, MiniNinja, square(c, 3))
		p.put(South, Ninja, square(c+4, 2))
		p.put(South, MiniSamurai, square(c+4, 3))
		p.put(North, Ninja, square(c, 7))
		p.put(North, MiniSamurai, square(c, 6))
		p.put(North, Samurai, square(c+4, 7))
		p.put(North, MiniNinja, square(c+4, 6))
	}
	p.put(South, King, square(4, 1))
	p.put(North, King, square(4, 8))
	p.toMove = first
	return p
}
