package sixes

import "math/bits"

// The board is a bitboard of 36 bits, one a square: square index
// 6*row + col with row 0 (a) at the top and col 0 (column 1) at the left,
// so a1 is bit 0, a6 bit 5, b1 bit 6 and f6 bit 35.
const (
	size    = 6
	squares = size * size

	full uint64 = 1<<squares - 1
	col1 uint64 = 0x41041041 // the left column, 1
	col6 uint64 = col1 << 5  // the right column, 6
	rowA uint64 = 0x3F       // the top row, a
	rowF uint64 = rowA << 30 // the bottom row, f
)

// The four shifts move every square of b one square in a direction,
// dropping what falls off the board.
func east(b uint64) uint64  { return (b &^ col6) << 1 }
func west(b uint64) uint64  { return (b &^ col1) >> 1 }
func south(b uint64) uint64 { return (b << size) & full }
func north(b uint64) uint64 { return b >> size }

// edgeMasks are the squares whose neighbour in each direction counts as an
// opponent although it is off the board: all zero unless the edges variant
// is on.
type edgeMasks struct {
	n, s, w, e uint64
}

func newEdgeMasks(edges bool) edgeMasks {
	if !edges {
		return edgeMasks{}
	}
	return edgeMasks{n: rowA, s: rowF, w: col1, e: col6}
}

// surrounded returns the pieces of target whose four neighbours are all
// pieces of attackers (or, with the edges variant, the board's edge).
func (em edgeMasks) surrounded(target, attackers uint64) uint64 {
	return target &
		(south(attackers) | em.n) & // the neighbour above is an attacker
		(north(attackers) | em.s) & // the neighbour below
		(east(attackers) | em.w) & // the neighbour to the left
		(west(attackers) | em.e) // the neighbour to the right
}

// atRisk returns the pieces of target that have three attacker neighbours
// (edges included where they count) and an empty fourth neighbour: one
// attacker move onto it removes them.
func (em edgeMasks) atRisk(target, attackers, empty uint64) uint64 {
	an, as := south(attackers)|em.n, north(attackers)|em.s
	aw, ae := east(attackers)|em.w, west(attackers)|em.e
	en, es, ew, ee := south(empty), north(empty), east(empty), west(empty)
	return target & (as&aw&ae&en | an&aw&ae&es | an&as&ae&ew | an&as&aw&ee)
}

// moveCount is the number of step and jump moves own has on a board with
// the given occupancy, before the no-return rule.
func moveCount(own, occ uint64) int {
	empty := full &^ occ
	n := bits.OnesCount64(east(own)&empty) + bits.OnesCount64(east(east(own)&occ)&empty)
	n += bits.OnesCount64(west(own)&empty) + bits.OnesCount64(west(west(own)&occ)&empty)
	n += bits.OnesCount64(south(own)&empty) + bits.OnesCount64(south(south(own)&occ)&empty)
	n += bits.OnesCount64(north(own)&empty) + bits.OnesCount64(north(north(own)&occ)&empty)
	return n
}

// Move packing: bits 0-5 hold the from square and bits 6-11 the to square,
// each as the square index above (6*row + col, 0-based). Every real move
// is below 1<<12; the packing is stable because stored games keep it.
func pack(from, to int) uint32 { return uint32(from) | uint32(to)<<6 }

func unpack(m uint32) (from, to int) { return int(m & 63), int(m >> 6 & 63) }

// shapeOK reports whether a packed value is a step or a jump on the board:
// both squares on it, one or two squares apart along a row or a column.
func shapeOK(m uint32) bool {
	if m >= 1<<12 {
		return false
	}
	from, to := unpack(m)
	if from >= squares || to >= squares {
		return false
	}
	fr, fc, tr, tc := from/size, from%size, to/size, to%size
	switch {
	case fr == tr:
		d := fc - tc
		return d == 1 || d == -1 || d == 2 || d == -2
	case fc == tc:
		d := fr - tr
		return d == 1 || d == -1 || d == 2 || d == -2
	}
	return false
}
