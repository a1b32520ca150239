package hique

import (
	"math/bits"

	"arbiter/rules"
)

// The board in bitboards.
//
// Both kinds of place share one 7-wide layout, so that a guard and the four
// squares it touches are a fixed shift apart:
//
//   - a light square (runner) at x, y (both odd) is bit (y-1)/2*7 + (x-1)/2:
//     column c = (x-1)/2 and row r = (y-1)/2, both 0..6, bits 0..48;
//   - a dark point (guard) at x, y (both even) is bit (y/2-1)*7 + (x/2-1):
//     column c = x/2-1 and row r = y/2-1, both 0..5, bits 0..40 (column 6 of
//     each row is never a point).
//
// The guard at bit i touches the squares at bits i, i+1, i+7 and i+8.

const (
	width = 7 // bits per row in both layouts

	// squareMask holds the 49 light squares.
	squareMask uint64 = 1<<49 - 1
	// col0 and col6 are the left and right columns of squares.
	col0 uint64 = 1 | 1<<7 | 1<<14 | 1<<21 | 1<<28 | 1<<35 | 1<<42
	col6 uint64 = col0 << 6
	// row0 and row6 are the top (Black's home, White's far row) and bottom
	// (White's home, Black's far row) rows of squares.
	row0 uint64 = 0x7f
	row6 uint64 = row0 << 42

	// pointMask holds the 36 dark points: rows 0..5, columns 0..5.
	pointMask uint64 = 0x3f | 0x3f<<7 | 0x3f<<14 | 0x3f<<21 | 0x3f<<28 | 0x3f<<35

	// rowBit0, rowBit1 and rowBit2 hold the squares whose row number has
	// bit 0, 1 or 2 set, so a sum of rows is three popcounts.
	rowBit0 uint64 = row0<<7 | row0<<21 | row0<<35
	rowBit1 uint64 = row0<<14 | row0<<21 | row0<<42
	rowBit2 uint64 = row0<<28 | row0<<35 | row0<<42
)

// touchedTwice returns the squares touched by at least two of the guards in
// g (a guard bitboard).
func touchedTwice(g uint64) uint64 {
	a, b, c, d := g, g<<1, g<<width, g<<(width+1)
	return a&b | c&d | (a|b)&(c|d)
}

// touchedAny returns the squares touched by at least one of the guards in g.
func touchedAny(g uint64) uint64 {
	return g | g<<1 | g<<width | g<<(width+1)
}

// rowSum returns the sum of the row numbers (0..6) of the squares in b.
func rowSum(b uint64) int {
	return bits.OnesCount64(b&rowBit0) + 2*bits.OnesCount64(b&rowBit1) + 4*bits.OnesCount64(b&rowBit2)
}

// farRow returns the row of squares that player p's runners race to.
func farRow(p rules.Player) uint64 {
	if p == rules.P1 {
		return row6
	}
	return row0
}

// squareBit returns the bit of the light square at x, y (both odd, 1..13).
func squareBit(x, y int) int { return (y-1)/2*width + (x-1)/2 }

// pointBit returns the bit of the dark point at x, y (both even, 2..12).
func pointBit(x, y int) int { return (y/2-1)*width + (x/2 - 1) }

// squareXY returns the coordinates of the light square at bit i.
func squareXY(i int) (x, y int) { return i%width*2 + 1, i/width*2 + 1 }

// pointXY returns the coordinates of the dark point at bit i.
func pointXY(i int) (x, y int) { return i%width*2 + 2, i/width*2 + 2 }

// isSquare reports whether x, y is a light square.
func isSquare(x, y int) bool { return x >= 1 && x <= 13 && y >= 1 && y <= 13 && x%2 == 1 && y%2 == 1 }

// isPoint reports whether x, y is a dark point.
func isPoint(x, y int) bool { return x >= 2 && x <= 12 && y >= 2 && y <= 12 && x%2 == 0 && y%2 == 0 }
