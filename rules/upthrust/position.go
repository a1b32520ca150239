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

// movable returns the columns (bit col-1) whose piece of colour c has a
// legal move: its row holds n pieces and it moves up exactly n rows, so
//  1. the landing square must be on the board and empty;
//  2. a one-row move (n = 1) needs another piece of c higher up;
//  3. a landing row of 1..6 must hold no other piece of c.
//
// It is branch-free: the squares above row 11 count as taken, and the
// pieces of c below the scoring zone are the only ones condition 3 sees.
func (p *position) movable(c Colour) uint8 {
	own := p.boards[c]
	occ := p.occ | offBoard
	ownLow := own & lowMask
	rows := p.rows >> (16 * uint(c))
	var mask uint64
	for col := uint(0); col < Columns; col++ {
		// Every shift count is below 64; the &63 lets the compiler drop
		// its check for larger ones.
		row := uint(rows>>(4*col&63)) & 0xF
		n := uint(nibbleCount>>(4*(occ>>(row*4&63)&0xF)&63)) & 0xF
		to := row + n
		taken := occ >> ((to*4 + col) & 63) & 1       // 1: condition 1 fails
		higher := uint64(n-1) | own>>((row+1)*4&63)   // 0: condition 2 fails
		sameRow := (ownLow>>(to*4&63)&0xF + 0xF) >> 4 // 1: condition 3 fails
		// higher < 2^63, so the sign bit of higher | -higher is higher != 0.
		mask |= ((higher | -higher) >> 63 &^ (taken | sameRow)) << col
	}
	return uint8(mask)
}

// anyMovable reports whether any piece of any colour has a legal move, that
// is whether either player has one.
func (p *position) anyMovable() bool {
	return p.movable(Green)|p.movable(Red)|p.movable(Blue)|p.movable(Yellow) != 0
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
