package hique

import (
	"math/bits"

	"arbiter/rules"
)

// Move packing (stable: encoded games store it):
//
//	bits 0..5   the from place's bit (see board.go)
//	bits 6..11  the to place's bit
//	bit  12     set for a guard move (both places are dark points),
//	            clear for a runner move (both are light squares)
//
// So a packed move is below 1<<13 and rules.NoMove is never one.
const (
	toShift   = 6
	placeMask = 63
	guardFlag = 1 << 12
)

func packRunner(from, to int) Move { return Move(from | to<<toShift) }
func packGuard(from, to int) Move  { return Move(from | to<<toShift | guardFlag) }

// unpack returns a move's from and to bits and whether it moves a guard.
func unpack(m Move) (from, to uint, guard bool) {
	return uint(m & placeMask), uint(m >> toShift & placeMask), m&guardFlag != 0
}

// MoveCoords returns the from and to points of m in the game's coordinates.
func MoveCoords(m Move) (x1, y1, x2, y2 int) {
	from, to, guard := unpack(m)
	if guard {
		x1, y1 = pointXY(int(from))
		x2, y2 = pointXY(int(to))
		return x1, y1, x2, y2
	}
	x1, y1 = squareXY(int(from))
	x2, y2 = squareXY(int(to))
	return x1, y1, x2, y2
}

// Moves fills list with every legal move of the player to move: guard
// moves first (guard by guard, each direction outward), then runner moves
// (forward, left, right). A finished game has none.
func (g *Game) Moves(list *rules.MoveList) {
	list.Reset()
	if g.Status() != rules.Ongoing {
		return
	}
	p := &g.pos
	s := p.side
	free := pointMask &^ (p.guards[0] | p.guards[1])
	n := 0
	mv := &list.Moves
	for gs := p.guards[s]; gs != 0; gs &= gs - 1 {
		from := bits.TrailingZeros64(gs)
		// Shifting by uint(t) turns a negative t into a huge count, which
		// yields 0: the walk stops at the board's edges without a branch.
		for t := from + width; free>>uint(t)&1 != 0; t += width {
			mv[n] = packGuard(from, t)
			n++
		}
		for t := from - width; free>>uint(t)&1 != 0; t -= width {
			mv[n] = packGuard(from, t)
			n++
		}
		for t := from + 1; free>>uint(t)&1 != 0; t++ {
			mv[n] = packGuard(from, t)
			n++
		}
		for t := from - 1; free>>uint(t)&1 != 0; t-- {
			mv[n] = packGuard(from, t)
			n++
		}
	}
	r := p.runners[s]
	empty := squareMask &^ (p.runners[0] | p.runners[1])
	if s == rules.P1 {
		for t := r << width & empty; t != 0; t &= t - 1 {
			to := bits.TrailingZeros64(t)
			mv[n] = packRunner(to-width, to)
			n++
		}
	} else {
		for t := r >> width & empty; t != 0; t &= t - 1 {
			to := bits.TrailingZeros64(t)
			mv[n] = packRunner(to+width, to)
			n++
		}
	}
	for t := (r &^ col0) >> 1 & empty; t != 0; t &= t - 1 {
		to := bits.TrailingZeros64(t)
		mv[n] = packRunner(to+1, to)
		n++
	}
	for t := (r &^ col6) << 1 & empty; t != 0; t &= t - 1 {
		to := bits.TrailingZeros64(t)
		mv[n] = packRunner(to-1, to)
		n++
	}
	list.N = n
}

// hasMove reports whether the player to move in p has a legal move
// (ignoring whether the game has ended).
func hasMove(p *position) bool {
	s := p.side
	gs := p.guards[s]
	free := pointMask &^ (p.guards[0] | p.guards[1])
	if (gs<<width|gs>>width|gs<<1|gs>>1)&free != 0 {
		return true
	}
	r := p.runners[s]
	empty := squareMask &^ (p.runners[0] | p.runners[1])
	fwd := r >> width
	if s == rules.P1 {
		fwd = r << width
	}
	return (fwd|(r&^col0)>>1|(r&^col6)<<1)&empty != 0
}

// Play plays m, which must be one of the moves Moves returns, and removes
// every runner touched by two or more enemy guards.
func (g *Game) Play(m Move) {
	g.stack[g.ply] = g.pos
	g.history[g.ply] = m
	g.ply++
	p := &g.pos
	s := p.side
	o := s ^ 1
	from, to, guard := unpack(m)
	p.quiet++
	if guard {
		p.guards[s] ^= 1<<from | 1<<to
		// Only the mover's guards changed, so only the opponent's runners
		// can fall.
		if hit := p.runners[o] & touchedTwice(p.guards[s]); hit != 0 {
			p.runners[o] &^= hit
			p.quiet = 0
		}
	} else {
		p.runners[s] ^= 1<<from | 1<<to
		// Only the moved runner can have stepped between two enemy guards.
		if touchedTwice(p.guards[o])>>to&1 != 0 {
			p.runners[s] &^= 1 << to
			p.quiet = 0
		} else if from != to+1 && to != from+1 {
			p.quiet = 0 // a forward move can never be taken back
		}
	}
	p.side = o
	p.end = endUnknown
}

// Undo takes back the last move played. It panics if none was played.
func (g *Game) Undo() {
	if g.ply == 0 {
		panic("hique: Undo with no move played")
	}
	g.ply--
	g.pos = g.stack[g.ply]
}

// Tactical reports whether m, legal in the current position, removes a
// runner (of either side: a runner stepping between two enemy guards
// counts).
func (g *Game) Tactical(m Move) bool {
	p := &g.pos
	s := p.side
	from, to, guard := unpack(m)
	if guard {
		gs := p.guards[s] ^ (1<<from | 1<<to)
		return p.runners[s^1]&touchedTwice(gs) != 0
	}
	return touchedTwice(p.guards[s^1])>>to&1 != 0
}
