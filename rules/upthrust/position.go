package upthrust

import (
	"math/bits"

	"arbiter/rules"
)

// statusUnknown marks a position whose result is not computed yet; the
// other values of position.status are rules.Result values.
const statusUnknown = 0xFF

// Board masks: the first column (bit 0 of every row's nibble), the rows
// below the scoring zone (1..6), and the bits above the board.
const (
	column1Mask = 0x11111111111
	lowMask     = 1<<(4*(FirstScoringRow-1)) - 1
	offBoard    = ^uint64(1<<(4*Rows) - 1) // the squares above row 11
)

// sideKey is mixed into the hash when player 2 is to move.
const sideKey = 0x6A09E667F3BCC908

// nibbleCount holds, in nibble i, the number of bits set in i: the number
// of pieces in a row is nibbleCount >> (4*row's nibble) & 0xF.
const nibbleCount = 0x4332322132212110

// position is everything the rules look at: where the pieces stand and who
// is to move, with the cached result.
//
// rows packs the 0-based row of every piece in the nibble colour*4 +
// column-1, the same number as the piece's packed move; since every column
// holds exactly one piece of each colour, rows alone determines the
// position, and a move adds its row count to one nibble.
type position struct {
	boards [4]uint64 // one per colour, bit (row-1)*4 + (column-1)
	occ    uint64    // the union of boards
	rows   uint64    // the row of each piece, a nibble each
	toMove rules.Player
	status uint8 // statusUnknown or a rules.Result
}

// square returns the bit index of column col and row row, both 0-based.
func square(col, row int) int { return row*4 + col }

// colMask returns the squares of column col (0-based).
func colMask(col int) uint64 { return column1Mask << col }

// finish sets the union, rows, side to move and an unknown status from the
// boards.
func (p *position) finish(toMove rules.Player) {
	p.occ = p.boards[0] | p.boards[1] | p.boards[2] | p.boards[3]
	p.rows = 0
	for c := Green; c <= Yellow; c++ {
		for col := 0; col < Columns; col++ {
			row := bits.TrailingZeros64(p.boards[c]&colMask(col)) >> 2
			p.rows |= uint64(row) << (4 * (uint(c)*4 + uint(col)))
		}
	}
	p.toMove = toMove
	p.status = statusUnknown
}

// hash mixes rows, which determines the pieces exactly, with a bijective
// mixer, so two positions with the same side to move never share a hash.
func (p *position) hash() uint64 {
	h := splitmix64(p.rows)
	if p.toMove == rules.P2 {
		h ^= sideKey
	}
	return h
}

// rowOf returns the 0-based row of colour c's piece in column col (0-based).
func (p *position) rowOf(c Colour, col int) int {
	return int(p.rows >> (4 * (uint(c)*4 + uint(col))) & 0xF)
}

// rowCount returns the number of pieces in row row (0-based).
func (p *position) rowCount(row int) int {
	return int(nibbleCount >> (4 * (p.occ >> (uint(row) * 4) & 0xF)) & 0xF)
}

// lowCount returns the number of pieces below the scoring zone.
func (p *position) lowCount() int { return bits.OnesCount64(p.occ & lowMask) }

// nibbleLow holds bit 0 of every nibble.
const nibbleLow = 0x1111111111111111

// rowClasses splits the board by the number of pieces in a row: k[n-1]
// holds every square of the rows holding n pieces, n = 1..4. A piece moves
// up as many rows as its row holds pieces, so a piece on k[n-1] moves n rows.
type rowClasses [4]uint64

// classes returns the rows of the position by their piece counts, with
// whole-board bit arithmetic: the pieces of each row (a nibble of occ) are
// counted in place, and each count's bits are spread over its nibble.
func (p *position) classes() rowClasses {
	x := p.occ
	x -= x >> 1 & 0x5555555555555555
	x = x&0x3333333333333333 + x>>2&0x3333333333333333 // a row's count, 0..4, in its nibble
	b0, b1, b2 := x&nibbleLow, x>>1&nibbleLow, x>>2&nibbleLow
	return rowClasses{(b0 &^ b1) * 0xF, (b1 &^ b0) * 0xF, (b0 & b1) * 0xF, b2 * 0xF}
}

// targets returns the squares that colour c's movable pieces land on, at
// most one per column: a piece whose row holds n pieces moves up exactly n
// rows, and
//  1. the landing square must be on the board and empty;
//  2. a one-row move needs another piece of c in a higher row;
//  3. a landing row of 1..6 must hold no other piece of c.
//
// k is p.classes(). It is branch-free: the squares above row 11 count as
// taken, and only the pieces of c below the scoring zone mark rows for
// condition 3.
func (p *position) targets(c Colour, k *rowClasses) uint64 {
	own := p.boards[c&3]
	one := own & k[0]
	to := one<<4 | own&k[1]<<8 | own&k[2]<<12 | own&k[3]<<16
	// Condition 2: the pieces in the highest row of c have none higher.
	top := uint(bits.Len64(own)-1) &^ 3
	to &^= one & (0xF << (top & 63)) << 4
	// Condition 3: the low rows holding a piece of c, whole nibbles.
	low := own & lowMask
	low |= low >> 1
	low |= low >> 2
	return to &^ (p.occ | offBoard | low&nibbleLow*0xF)
}

// columnsOf folds squares onto their columns: bit col-1 is set when a
// square of column col is.
func columnsOf(squares uint64) uint8 {
	squares |= squares >> 32
	squares |= squares >> 16
	squares |= squares >> 8
	squares |= squares >> 4
	return uint8(squares & 0xF)
}

// anyMovable reports whether any piece of any colour has a legal move, that
// is whether either player has one.
func (p *position) anyMovable() bool {
	k := p.classes()
	return p.targets(Green, &k)|p.targets(Red, &k)|p.targets(Blue, &k)|p.targets(Yellow, &k) != 0
}

// points returns the row points of the pieces of two colours.
func (p *position) points(cs [2]Colour) int {
	b := p.boards[cs[0]] | p.boards[cs[1]]
	total := 0
	for row := FirstScoringRow - 1; row < Rows; row++ {
		total += bits.OnesCount64(b>>(uint(row)*4)&0xF) * RowValue(row+1)
	}
	return total
}
