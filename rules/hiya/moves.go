package hiya

import (
	"math/bits"

	"arbiter/rules"
)

// A move is packed in 16 bits (stable: encoded games store it):
//
//	bits  0..5   from square, (row-1)*8 + (col-1)
//	bits  6..11  to square, the same way
//	bits 12..14  the Kind of the piece that moves
//	bit  15      set when the move attacks
//
// Only the squares are needed to name a move; the kind and the attack flag
// are what generation already knows, kept so that Play need not look again.
const (
	toShift    = 6
	kindShift  = 12
	attackFlag = 1 << 15
	squareMask = 63
)

func packMove(from, to int, k Kind, attack uint64) rules.Move {
	return rules.Move(uint32(from) | uint32(to)<<toShift | uint32(k)<<kindShift | uint32(attack)<<15)
}

// MoveSquares returns the columns (1..7 = A..G) and rows (1..8) a move
// goes from and to.
func MoveSquares(m rules.Move) (fromCol, fromRow, toCol, toRow int) {
	from, to := int(m&squareMask), int(m>>toShift&squareMask)
	return from&7 + 1, from>>3 + 1, to&7 + 1, to>>3 + 1
}

// Moves fills list with the legal moves of the side to move, by kind
// (Ninjas, Samurai, mini-Ninjas, mini-Samurai) and square; a finished game
// has none.
func (g *Game) Moves(list *rules.MoveList) {
	list.Reset()
	if !g.pos.kingHit {
		g.pos.generate(list)
	}
}

// attackSquares returns the empty squares where a piece of side s attacks
// when it lands: those directly behind (from s's view) an opposing piece.
func (p *position) attackSquares(s Side, empty uint64) uint64 {
	return shift(p.side[s^1], -forward(s)) & empty
}

// generate adds every legal move of the side to move to list.
func (p *position) generate(list *rules.MoveList) {
	us := p.toMove
	own := p.side[us]
	empty := boardMask &^ (own | p.side[us^1])
	target := p.attackSquares(us, empty)
	f := forward(us)

	for b := p.kind[Ninja] & own; b != 0; b &= b - 1 {
		from := bits.TrailingZeros64(b)
		slide(list, from, f-1, Ninja, empty, empty, target)
		slide(list, from, f+1, Ninja, empty, empty, target)
		slide(list, from, -f-1, Ninja, empty, target, target)
		slide(list, from, -f+1, Ninja, empty, target, target)
	}
	for b := p.kind[Samurai] & own; b != 0; b &= b - 1 {
		from := bits.TrailingZeros64(b)
		slide(list, from, f, Samurai, empty, empty, target)
		slide(list, from, -1, Samurai, empty, target, target)
		slide(list, from, 1, Samurai, empty, target, target)
	}
	for b := p.kind[MiniNinja] & own; b != 0; b &= b - 1 {
		from := bits.TrailingZeros64(b)
		step(list, from, f-1, MiniNinja, empty, target)
		step(list, from, f+1, MiniNinja, empty, target)
		step(list, from, -f-1, MiniNinja, target, target)
		step(list, from, -f+1, MiniNinja, target, target)
	}
	for b := p.kind[MiniSamurai] & own; b != 0; b &= b - 1 {
		from := bits.TrailingZeros64(b)
		step(list, from, f, MiniSamurai, empty, target)
		step(list, from, -1, MiniSamurai, target, target)
		step(list, from, 1, MiniSamurai, target, target)
	}
}

// slide adds the moves of a piece on from sliding by d over empty squares,
// stopping before the first piece or the edge, on those squares in allowed.
func slide(list *rules.MoveList, from, d int, k Kind, empty, allowed, target uint64) {
	for to := from + d; uint(to) < 64 && empty>>uint(to)&1 != 0; to += d {
		if allowed>>uint(to)&1 != 0 {
			list.Add(packMove(from, to, k, target>>uint(to)&1))
		}
	}
}

// step adds the one-square move by d of a piece on from when its landing
// square is in allowed (a subset of the empty squares).
func step(list *rules.MoveList, from, d int, k Kind, allowed, target uint64) {
	to := from + d
	if uint(to) < 64 && allowed>>uint(to)&1 != 0 {
		list.Add(packMove(from, to, k, target>>uint(to)&1))
	}
}

// hasMove reports whether the side to move has a legal move: first the
// cheap question whether any piece can step forward, then the attacks that
// only backward or sideways moves make.
func (p *position) hasMove() bool {
	us := p.toMove
	own := p.side[us]
	empty := boardMask &^ (own | p.side[us^1])
	f := forward(us)
	ninja, samurai := p.kind[Ninja]&own, p.kind[Samurai]&own
	diag := ninja | p.kind[MiniNinja]&own
	straight := samurai | p.kind[MiniSamurai]&own
	if (shift(straight, f)|shift(diag, f-1)|shift(diag, f+1))&empty != 0 {
		return true
	}
	target := p.attackSquares(us, empty)
	if target == 0 {
		return false
	}
	sideways := fillDown(straight, samurai, empty, 1) | fillUp(straight, samurai, empty, 1)
	if us == South {
		return (fillDown(diag, ninja, empty, 9)|fillDown(diag, ninja, empty, 7)|sideways)&target != 0
	}
	return (fillUp(diag, ninja, empty, 7)|fillUp(diag, ninja, empty, 9)|sideways)&target != 0
}

// fillUp returns the empty squares reached n squares at a time towards
// higher squares from the pieces in stepping (one step) and sliding (any
// number of steps over empty squares; a subset of stepping).
func fillUp(stepping, sliding, empty uint64, n uint) uint64 {
	reach := stepping << (n & 63) & empty
	for x := reach & (sliding << (n & 63)); x != 0; {
		x = x << (n & 63) & empty
		reach |= x
	}
	return reach
}

// fillDown is fillUp towards lower squares.
func fillDown(stepping, sliding, empty uint64, n uint) uint64 {
	reach := stepping >> (n & 63) & empty
	for x := reach & (sliding >> (n & 63)); x != 0; {
		x = x >> (n & 63) & empty
		reach |= x
	}
	return reach
}

// undoInfo is what Undo needs beyond the move itself.
type undoInfo struct {
	hash   uint64 // the hash before the move
	placed int32  // the square values before the move
	hurt   Kind   // the kind of the piece the move attacked, when it attacked
}

// Play plays m, which must be one of the moves Moves returns.
func (g *Game) Play(m rules.Move) {
	p := &g.pos
	u := undoInfo{hash: p.hash, placed: p.placed}
	us := p.toMove
	from, to := int(m&squareMask), int(m>>toShift&squareMask)
	k := Kind(m >> kindShift & 7)
	moved := uint64(1)<<uint(from) | uint64(1)<<uint(to)
	p.kind[k] ^= moved
	p.side[us] ^= moved
	z := &g.keys[us&1][k]
	p.hash ^= z[from] ^ z[to] ^ sideKey
	v := &g.squares[us&1][k]
	p.placed += v[to] - v[from]
	p.toMove = us ^ 1
	if m&attackFlag != 0 {
		u.hurt = p.hurt(us^1, to+forward(us), g.keys, g.squares)
		p.kingHit = u.hurt == King
	}
	g.undo = append(g.undo, u)
	g.hist = append(g.hist, m)
}

// hurt hurts the piece of side s on sq, which must hold one: a Ninja or
// Samurai becomes a mini, anything else is removed. It returns the kind the
// piece was.
func (p *position) hurt(s Side, sq int, keys *zobristKeys, squares *squareValues) Kind {
	bit := uint64(1) << uint(sq)
	k := p.kindOn(bit)
	z, v := &keys[s&1], &squares[s&1]
	p.kind[k] ^= bit
	p.hash ^= z[k][sq&63]
	p.placed -= v[k][sq&63]
	switch k {
	case Ninja:
		p.kind[MiniNinja] |= bit
		p.hash ^= z[MiniNinja][sq&63]
		p.placed += v[MiniNinja][sq&63]
	case Samurai:
		p.kind[MiniSamurai] |= bit
		p.hash ^= z[MiniSamurai][sq&63]
		p.placed += v[MiniSamurai][sq&63]
	default:
		p.side[s] ^= bit
	}
	return k
}

// Undo takes back the last move played. It panics if none was played.
func (g *Game) Undo() {
	n := len(g.hist) - 1
	if n < 0 {
		panic("hiya: Undo with no move played")
	}
	g.pos.unplay(g.hist[n], g.undo[n])
	g.hist, g.undo = g.hist[:n], g.undo[:n]
}

// unplay takes back m, the last move played to reach p, with what Play
// recorded of it.
func (p *position) unplay(m rules.Move, u undoInfo) {
	them := p.toMove
	us := them ^ 1
	from, to := int(m&squareMask), int(m>>toShift&squareMask)
	moved := uint64(1)<<uint(from) | uint64(1)<<uint(to)
	p.kind[m>>kindShift&7] ^= moved
	p.side[us] ^= moved
	if m&attackFlag != 0 {
		bit := uint64(1) << uint(to+forward(us))
		switch u.hurt {
		case Ninja:
			p.kind[MiniNinja] ^= bit
			p.kind[Ninja] |= bit
		case Samurai:
			p.kind[MiniSamurai] ^= bit
			p.kind[Samurai] |= bit
		default:
			p.kind[u.hurt] |= bit
			p.side[them] |= bit
		}
	}
	p.toMove, p.kingHit, p.hash, p.placed = us, false, u.hash, u.placed
}

// IsAttack reports whether m, a legal move in the current position, attacks:
// whether its landing square is directly in front of an opposing piece.
func (g *Game) IsAttack(m rules.Move) bool {
	to := int(m >> toShift & squareMask)
	at := to + forward(g.pos.toMove)
	return uint(at) < 64 && g.pos.side[g.pos.toMove^1]>>uint(at)&1 != 0
}

// Announce returns "Hi-YA!" for a move that attacks and "" otherwise.
func (g *Game) Announce(m rules.Move) string {
	if g.IsAttack(m) {
		return Announcement
	}
	return ""
}

// Announcement is what a player says with an attacking move.
const Announcement = "Hi-YA!"

// Tactical reports whether m attacks (hurts a piece), as IsAttack.
func (g *Game) Tactical(m rules.Move) bool { return g.IsAttack(m) }
