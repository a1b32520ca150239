package described

import (
	"math/bits"

	"arbiter/rules"
)

// Move packing: bits 0-8 hold the from square plus one (0 for a move that
// puts a new piece on the board), bits 9-16 the to square's low eight bits
// and bit 24 its ninth (boards of more than 256 squares), bits 17-21 the
// index of the move rule in the description. A pass is movePass. Stored
// games keep moves packed, so a description that reorders its moves
// changes what its stored games mean.
const (
	movePass  rules.Move = 1 << 23
	fromMask             = 0x1FF
	toShift              = 9
	ruleShift            = 17
	toHighBit            = 24
	// A placement that turns a block after it: bits 25-30 hold the block
	// plus one, bit 22 is set for a turn anticlockwise.
	blockShift = 25
	leftBit    = 22
	maxBlocks  = 62
	// moveBits are the bits a move other than a pass may use.
	moveBits rules.Move = 1<<23 - 1 | 1<<toHighBit | 63<<blockShift
)

// packTurn adds to m the turn of block b (from 0), anticlockwise if left.
func packTurn(m rules.Move, b int, left bool) rules.Move {
	m |= rules.Move(b+1) << blockShift
	if left {
		m |= 1 << leftBit
	}
	return m
}

// turnOf returns the block a move turns (from 0; -1 for none) and whether
// anticlockwise.
func turnOf(m rules.Move) (block int, left bool) {
	return int(m>>blockShift&63) - 1, m>>leftBit&1 != 0
}

func pack(from, to int, rule uint8) rules.Move {
	return rules.Move(uint32(from+1) | uint32(to&0xFF)<<toShift | uint32(to>>8)<<toHighBit | uint32(rule)<<ruleShift)
}

func unpack(m rules.Move) (from, to int, rule int) {
	return int(m&fromMask) - 1, int(m>>toShift&0xFF | m>>toHighBit&1<<8), int(m >> ruleShift & 31)
}

// Why a game ended, for Outcome's reason.
const (
	whyNone uint8 = iota
	whyReach
	whyInARow
	whyNoPieces
	whyNoMoves
	whyNeither
	whyFull
	whyTurns
	whyBothInARow
	whyNoProgress
	whyConnect
	whyOneGroup
	whyFewer
)

// endState is how the game stands after the last move. known is false
// while the no-moves ending is still to be checked (Status does it when
// asked).
type endState struct {
	res   rules.Result
	why   uint8
	who   rules.Player // the player the ending is about
	known bool
}

// savedState is what Undo restores besides the cells.
type savedState struct {
	hash     uint64
	end      endState
	undoLen  int32
	progress int32
}

// Game is a described game in progress.
type Game struct {
	spec *Spec
	c    *compiled
	opts rules.FixedOptions

	cells   [maxCells]uint8
	occ     [2][maxWords]uint64
	blocked [maxWords]uint64 // the squares holding a blocker
	count   [2][maxKinds]int16
	total   [2]int16
	empties int
	toMove  rules.Player
	hash    uint64
	end     endState
	// quiet is the moves in a row without progress, for the no-progress
	// ending.
	quiet int32

	hist     []rules.Move
	saved    []savedState
	undo     []uint16 // changed cells: square<<4 | old value
	scratch  rules.MoveList
	overflow bool // a position had more moves than a move list holds
	// probing is set while moves are generated only to learn whether there
	// is one (hasMove): a generator may then stop at its first move.
	probing bool
	// twoDist is the connection term's working memory (twodistance.go),
	// made on first use; a clone makes its own.
	twoDist *twoDistScratch
}

var (
	_ rules.Game     = (*Game)(nil)
	_ rules.Passer   = (*Game)(nil)
	_ rules.Calm     = (*Game)(nil)
	_ rules.Finisher = (*Game)(nil)
	_ rules.Scorer   = Scored{}
)

// Scored is a game whose description scores by pieces (score: pieces): a
// rules.Scorer, so that a game on time can be adjudicated by its pieces.
type Scored struct{ *Game }

// Standing returns each player's pieces on the board.
func (g Scored) Standing() ([2]int, string) {
	return [2]int{int(g.total[0]), int(g.total[1])}, "pieces"
}

// Clone returns an independent copy, scored too.
func (g Scored) Clone() rules.Game { return Scored{g.Game.Clone().(*Game)} }

// Of returns the described game inside g, and false if g is no described
// game.
func Of(g rules.Game) (*Game, bool) {
	switch g := g.(type) {
	case *Game:
		return g, true
	case Scored:
		return g.Game, true
	}
	return nil, false
}

// Name returns the description's name.
func (g *Game) Name() string { return g.spec.Name }

// Options returns the complete options.
func (g *Game) Options() rules.Options { return g.opts.Options() }

// OptionsString returns Options().String() without copying the options.
func (g *Game) OptionsString() string { return g.opts.String() }

// ToMove returns the player whose turn it is.
func (g *Game) ToMove() rules.Player { return g.toMove }

// PlayerName returns the description's name for p.
func (g *Game) PlayerName(p rules.Player) string { return g.spec.players[p&1].Name }

// Ply returns the number of moves played.
func (g *Game) Ply() int { return len(g.hist) }

// History returns the moves played, oldest first.
func (g *Game) History() []rules.Move { return g.hist[:len(g.hist):len(g.hist)] }

// Spec returns the description the game was started from.
func (g *Game) Spec() *Spec { return g.spec }

// IsPass reports whether m is a pass.
func (g *Game) IsPass(m rules.Move) bool { return m == movePass }

// Clone returns an independent copy.
func (g *Game) Clone() rules.Game {
	c := *g
	c.hist = append(make([]rules.Move, 0, cap(g.hist)), g.hist...)
	c.saved = append(make([]savedState, 0, cap(g.saved)), g.saved...)
	c.undo = append(make([]uint16, 0, cap(g.undo)), g.undo...)
	c.twoDist = nil
	return &c
}

// put sets a cell, keeping the piece sets and counts; it leaves the hash
// and the undo log alone.
func (g *Game) put(sq int, v uint8) {
	old := g.cells[sq]
	bit := uint64(1) << (sq & 63)
	if old == blocker || v == blocker {
		// A blocker is no player's: only the empty and blocked squares
		// change.
		if old != 0 && v == 0 {
			g.empties++
		} else if old == 0 && v != 0 {
			g.empties--
		}
		if v == blocker {
			g.blocked[sq>>6] |= bit
		} else {
			g.blocked[sq>>6] &^= bit
		}
		g.cells[sq] = v
		return
	}
	if old != 0 {
		p := (old - 1) & 1
		g.occ[p][sq>>6] &^= bit
		g.count[p][(old-1)>>1]--
		g.total[p]--
		g.empties++
	}
	if v != 0 {
		p := (v - 1) & 1
		g.occ[p][sq>>6] |= bit
		g.count[p][(v-1)>>1]++
		g.total[p]++
		g.empties--
	}
	g.cells[sq] = v
}

// set changes a cell during Play, logging it for Undo and keeping the hash.
func (g *Game) set(sq int, v uint8) {
	old := g.cells[sq]
	g.undo = append(g.undo, uint16(sq)<<4|uint16(old))
	g.hash ^= g.c.zob[old][sq] ^ g.c.zob[v][sq]
	g.put(sq, v)
}

// Play plays m, which must be one of the moves Moves returns.
func (g *Game) Play(m rules.Move) {
	c := g.c
	g.saved = append(g.saved, savedState{hash: g.hash, end: g.end, undoLen: int32(len(g.undo)), progress: g.quiet})
	g.hist = append(g.hist, m)
	p := g.toMove
	g.toMove = p ^ 1
	g.hash ^= c.side
	if c.turns > 0 {
		g.hash ^= c.turnKey(len(g.hist)-1) ^ c.turnKey(len(g.hist))
	}
	if n := len(g.hist); n <= c.openingPlies {
		g.hash ^= c.openingKey(n-1) ^ c.openingKey(n)
	}
	if m == movePass {
		g.end = g.endAfter(p, -1)
		return
	}
	from, to, rule := unpack(m)
	gn := &c.gens[p][rule]
	if gn.kind == kindSwap {
		g.end = g.endAfter(p, g.playSwap(p, m))
		return
	}
	if c.progress > 0 {
		g.countProgress(m, gn, from, to)
	}
	if gn.route {
		to = g.playRoute(m, gn, from)
		g.end = g.endAfter(p, to)
		return
	}
	var v uint8
	switch gn.kind {
	case kindRemove:
		g.set(to, 0)
		g.end = g.endAfter(p, -1)
		return
	case kindPlace, kindDrop:
		v = cellValue(int(gn.piece), p)
	case kindJump:
		v = g.cells[from]
		g.set(from, 0)
		if gn.capture {
			d := dirBetween(c, from, to)
			o := int(c.nb[d][from])
			for {
				g.set(o, 0)
				l := int(c.nb[d][o])
				if l == to {
					break
				}
				o = int(c.nb[d][l])
			}
		}
	default:
		v = g.cells[from]
		g.set(from, 0)
	}
	if gn.promoteRow >= 0 && int(c.rowOf[to]) == gn.promoteRow {
		v = gn.promoteTo
	}
	g.set(to, v)
	if gn.outflank != outflankNone {
		g.outflank(to, p, gn.outflank)
	}
	if gn.rotate > 0 {
		b, left := turnOf(m)
		g.turnBlock(gn.rotate, b, left)
	}
	if r := removalOf(m); gn.mill && r >= 0 {
		g.set(r, 0)
	}
	if len(gn.shoot) > 0 {
		g.set(c.shotSquare(m, to), blocker)
	}
	g.end = g.endAfter(p, to)
}

// turnBlock turns block b (from 0, left to right and top to bottom as
// drawn) of k × k squares a quarter: clockwise as drawn, or anticlockwise
// if left.
func (g *Game) turnBlock(k, b int, left bool) {
	c := g.c
	perRow := c.w / k
	x0, y0 := b%perRow*k, b/perRow*k
	var old [maxSide * maxSide]uint8
	for j := range k {
		for i := range k {
			old[j*k+i] = g.cells[(y0+j)*c.w+x0+i]
		}
	}
	for j := range k {
		for i := range k {
			// Clockwise, the square at (i, j) goes to (k-1-j, i).
			ni, nj := k-1-j, i
			if left {
				ni, nj = j, k-1-i
			}
			if sq := (y0+nj)*c.w + x0 + ni; g.cells[sq] != old[j*k+i] {
				g.set(sq, old[j*k+i])
			}
		}
	}
}

// dirBetween returns the direction from one square to another on a line.
func dirBetween(c *compiled, from, to int) dir {
	dx := sign(to%c.w - from%c.w)
	dy := sign(to/c.w - from/c.w)
	for d := range 8 {
		if dirDX[d] == dx && dirDY[d] == dy {
			return dir(d)
		}
	}
	return dirNorth
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// outflank flips or removes the enemy lines that the piece on sq closes
// off against another of p's pieces, in all eight directions.
func (g *Game) outflank(sq int, p rules.Player, how outflank) {
	c := g.c
	if c.words == 1 {
		g.outflankSet(sq, p, how)
		return
	}
	cls := &c.cls[p]
	for d := range 8 {
		t := int(c.nb[d][sq])
		if t < 0 || cls[g.cells[t]] != toEnemy {
			continue
		}
		end := int(c.nb[d][t])
		for end >= 0 && cls[g.cells[end]] == toEnemy {
			end = int(c.nb[d][end])
		}
		if end < 0 || cls[g.cells[end]] != toFriend {
			continue
		}
		for x := t; x != end; x = int(c.nb[d][x]) {
			if how == outflankFlip {
				g.set(x, (g.cells[x]-1)^1+1)
			} else {
				g.set(x, 0)
			}
		}
	}
}

// outflankSet is outflank on a board of at most 64 squares, with square
// sets.
func (g *Game) outflankSet(sq int, p rules.Player, how outflank) {
	c := g.c
	own, opp := g.occ[p][0], g.occ[p^1][0]
	var flips uint64
	for d := range 8 {
		by, mask := c.shiftBy[d], c.shiftMask[d]
		var line uint64
		t := shiftSet(1<<sq, by, mask)
		for t&opp != 0 {
			line |= t
			t = shiftSet(t, by, mask)
		}
		if t&own != 0 {
			flips |= line
		}
	}
	for ; flips != 0; flips &= flips - 1 {
		x := bits.TrailingZeros64(flips)
		if how == outflankFlip {
			g.set(x, (g.cells[x]-1)^1+1)
		} else {
			g.set(x, 0)
		}
	}
}

// shiftSet moves every square of b one step in the direction that
// shiftBy and shiftMask describe.
func shiftSet(b uint64, by int, mask uint64) uint64 {
	if by > 0 {
		return b << by & mask
	}
	return b >> -by & mask
}

// flanks reports whether p placing on the empty square sq would close off
// at least one line of enemy pieces.
func (g *Game) flanks(sq int, p rules.Player) bool {
	c := g.c
	cls := &c.cls[p]
	for d := range 8 {
		t := int(c.nb[d][sq])
		if t < 0 || cls[g.cells[t]] != toEnemy {
			continue
		}
		for t = int(c.nb[d][t]); t >= 0; t = int(c.nb[d][t]) {
			switch cls[g.cells[t]] {
			case toEnemy:
				continue
			case toFriend:
				return true
			}
			break
		}
	}
	return false
}

// flankSet returns the empty squares where p placing would outflank, on
// a board of at most 64 squares: for each direction, the lines of enemy
// pieces that start next to one of p's, one step further, if empty.
func (g *Game) flankSet(p rules.Player) uint64 {
	c := g.c
	own, opp := g.occ[p][0], g.occ[p^1][0]
	empty := c.mask[0] &^ (own | opp)
	reach := max(c.w, c.h) - 2
	var moves uint64
	for d := range 8 {
		by, mask := c.shiftBy[d], c.shiftMask[d]
		t := shiftSet(own, by, mask) & opp
		for range reach - 1 {
			t |= shiftSet(t, by, mask) & opp
		}
		moves |= shiftSet(t, by, mask) & empty
	}
	return moves
}

// touches reports whether a piece of p stands next to sq.
func (g *Game) touches(sq int, p rules.Player) bool {
	adj := &g.c.adj[sq]
	for w := range g.c.words {
		if adj[w]&g.occ[p][w] != 0 {
			return true
		}
	}
	return false
}

// Undo takes back the last move.
func (g *Game) Undo() {
	n := len(g.saved) - 1
	if n < 0 {
		panic("described: Undo with no move played")
	}
	s := &g.saved[n]
	for i := len(g.undo) - 1; i >= int(s.undoLen); i-- {
		e := g.undo[i]
		g.put(int(e>>4), uint8(e&15))
	}
	g.undo = g.undo[:s.undoLen]
	g.hash, g.end, g.quiet = s.hash, s.end, s.progress
	g.saved = g.saved[:n]
	g.hist = g.hist[:n]
	g.toMove ^= 1
}

// endAfter checks the endings that a move decides at once, in the
// description's order of kinds: reaching a row, a line, no pieces, a full
// board, the turn limit. to is the square the move ended on (-1 for a
// pass). No-moves is left for Status.
func (g *Game) endAfter(p rules.Player, to int) endState {
	c := g.c
	if len(c.connects) > 0 || c.oneGroup {
		if e := g.shapeEnd(p, to); e.known {
			return e
		}
	}
	if to >= 0 {
		v := g.cells[to]
		if v != 0 && rules.Player((v-1)&1) == p {
			for i := range c.reach {
				re := &c.reach[i]
				if re.reachedBy(int(c.rowOf[to]), p, int8((v-1)>>1)) {
					return decide(re.result, p, whyReach)
				}
			}
			if c.inARow > 0 && !c.anywhere && g.lineThrough(to, p) >= c.inARow {
				return decide(c.inARowRes, p, whyInARow)
			}
		}
	}
	if c.anywhere {
		mine, theirs := g.lineAnywhere(p), g.lineAnywhere(p^1)
		switch {
		case mine && theirs:
			return endState{res: rules.Draw, why: whyBothInARow, known: true}
		case mine:
			return decide(c.inARowRes, p, whyInARow)
		case theirs:
			return decide(c.inARowRes, p^1, whyInARow)
		}
	}
	if c.fewer > 0 {
		if e := g.fewerEnd(p); e.known {
			return e
		}
	}
	if c.noPieces {
		if g.total[p^1] == 0 {
			return decide(c.noPieceRes, p^1, whyNoPieces)
		}
		if g.total[p] == 0 {
			return decide(c.noPieceRes, p, whyNoPieces)
		}
	}
	if c.boardFull && g.empties == 0 {
		if c.fullRes == resScore {
			return endState{res: g.byScore(), why: whyFull, known: true}
		}
		return decide(c.fullRes, p, whyFull)
	}
	if c.progress > 0 && int(g.quiet) >= c.progress {
		if c.progressRes == resScore {
			return endState{res: g.byScore(), why: whyNoProgress, known: true}
		}
		return endState{res: rules.Draw, why: whyNoProgress, known: true}
	}
	if c.turns > 0 && len(g.hist) >= c.turns {
		if c.turnsRes == resScore {
			return endState{res: g.byScore(), why: whyTurns, known: true}
		}
		return endState{res: rules.Draw, why: whyTurns, known: true}
	}
	return endState{}
}

// decide is the end state of an ending with result r for player who.
func decide(r resultKind, who rules.Player, why uint8) endState {
	e := endState{why: why, who: who, known: true}
	switch r {
	case resWin:
		e.res = rules.Win(who)
	case resLoss:
		e.res = rules.Win(who ^ 1)
	default:
		e.res = rules.Draw
	}
	return e
}

// byScore decides by pieces on the board.
func (g *Game) byScore() rules.Result { return rules.ByScore(int(g.total[0]), int(g.total[1])) }

// lineThrough returns the length of p's longest line through sq in the
// four axes.
func (g *Game) lineThrough(sq int, p rules.Player) int {
	c := g.c
	best := 0
	for d := range 4 {
		n := 1
		for t := int(c.nb[d][sq]); t >= 0 && c.cls[p][g.cells[t]] == toFriend; t = int(c.nb[d][t]) {
			n++
		}
		for t := int(c.nb[d+4][sq]); t >= 0 && c.cls[p][g.cells[t]] == toFriend; t = int(c.nb[d+4][t]) {
			n++
		}
		best = max(best, n)
	}
	return best
}

// lineAnywhere reports whether p has a line of at least in-a-row's length
// anywhere on the board.
func (g *Game) lineAnywhere(p rules.Player) bool {
	c := g.c
	if c.words == 1 && !c.graph {
		return c.lineInWord(g.occ[p][0])
	}
	for w := range c.words {
		for b := g.occ[p][w]; b != 0; b &= b - 1 {
			sq := w<<6 | bits.TrailingZeros64(b)
			// Count each line from its first square only: forward in four
			// directions from a square with no own piece behind it.
			for d := range 4 {
				back := int(c.nb[d+4][sq])
				if back >= 0 && c.cls[p][g.cells[back]] == toFriend {
					continue
				}
				n := 1
				for t := int(c.nb[d][sq]); t >= 0 && c.cls[p][g.cells[t]] == toFriend; t = int(c.nb[d][t]) {
					n++
				}
				if n >= c.inARow {
					return true
				}
			}
		}
	}
	return false
}

// resolve settles the end state when only the no-moves ending is left to
// check: the player to move has a move, or the description's no-moves
// result applies (with a pass, the game goes on if the other player has a
// move and is scored otherwise).
func (g *Game) resolve() {
	p := g.toMove
	if g.hasMove(p) {
		g.end = endState{known: true}
		return
	}
	switch g.c.noMovesRes {
	case resPass:
		if g.hasMove(p ^ 1) {
			g.end = endState{known: true}
			return
		}
		if g.spec.scoreByPieces {
			g.end = endState{res: g.byScore(), why: whyNeither, known: true}
			return
		}
		g.end = endState{res: rules.Draw, why: whyNeither, known: true}
	case resScore:
		g.end = endState{res: g.byScore(), why: whyNoMoves, who: p, known: true}
	default:
		g.end = decide(g.c.noMovesRes, p, whyNoMoves)
	}
}

// Status returns the result so far.
func (g *Game) Status() rules.Result {
	if !g.end.known {
		g.resolve()
	}
	return g.end.res
}

// hasMove reports whether p has a legal move other than a pass.
func (g *Game) hasMove(p rules.Player) bool {
	g.probing = true
	g.generate(p, &g.scratch, true)
	g.probing = false
	return g.scratch.N > 0
}

// probed reports whether a generator that is probing (see hasMove) has
// listed a move and may stop.
func (g *Game) probed(list *rules.MoveList) bool {
	return g.probing && list.N > 0
}

// Moves fills list with the legal moves of the player to move.
func (g *Game) Moves(list *rules.MoveList) {
	list.N = 0
	if g.end.known && g.end.res != rules.Ongoing {
		return
	}
	g.generate(g.toMove, list, false)
	if list.N > 0 {
		g.end.known = true
		return
	}
	if !g.end.known {
		g.resolve()
	}
	if g.end.res == rules.Ongoing && g.c.pass {
		list.Moves[0] = movePass
		list.N = 1
	}
}

// generate adds p's moves to list (emptied first); with first it stops at
// the first rule that gives any.
func (g *Game) generate(p rules.Player, list *rules.MoveList, first bool) {
	list.N = 0
	c := g.c
	turn := 0 // p's turn number, when some rules are for certain turns
	if c.turnRules[p] != 0 {
		// p's turns so far: player 1 has had the odd plies, player 2 the even.
		if t := (len(g.hist)+1-int(p))/2 + 1; t < 64 && c.turnRules[p]>>t&1 != 0 {
			turn = t
		}
	}
	pass := 1
	if c.compulsory[p] {
		pass = 0
	}
	for ; pass < 2; pass++ {
		g.generatePass(p, list, first, turn, pass == 0)
		if list.N > 0 && (first || pass == 0) {
			return
		}
	}
}

// generatePass adds p's moves by the rules that are compulsory, or by
// those that are not.
func (g *Game) generatePass(p rules.Player, list *rules.MoveList, first bool, turn int, compulsory bool) {
	c := g.c
	for i := range c.gens[p] {
		gn := &c.gens[p][i]
		if gn.off || gn.turn != turn || gn.compulsory != compulsory || g.skipRule(gn, p) {
			continue
		}
		switch gn.kind {
		case kindRemove:
			g.genRemove(gn, p, list)
		case kindPlace:
			if gn.rotate > 0 {
				g.genPlaceTurn(gn, list)
				break
			}
			g.genPlace(gn, p, list)
		case kindDrop:
			g.genDrop(gn, list)
		case kindSwap:
			g.genSwap(gn, p, list)
		case kindFly:
			g.genFly(gn, p, list)
		default:
			g.genPieces(gn, p, list)
		}
		if first && list.N > 0 {
			return
		}
	}
}

// add appends m. Past rules.MaxMoves it drops the move and records the
// overflow (see Overflowed): a description whose positions have more moves
// than Arbiter's move lists hold is refused by `arbiter games check`.
func (g *Game) add(list *rules.MoveList, m rules.Move) {
	if list.N >= rules.MaxMoves {
		g.overflow = true
		return
	}
	list.Moves[list.N] = m
	list.N++
}

// Overflowed reports whether some position of this game had more legal
// moves than rules.MaxMoves, so that moves were left out.
func (g *Game) Overflowed() bool { return g.overflow }

func (g *Game) genPlace(gn *gen, p rules.Player, list *rules.MoveList) {
	c := g.c
	if gn.must && c.words == 1 {
		for e := g.flankSet(p); e != 0 && !g.probed(list); e &= e - 1 {
			g.add(list, pack(-1, bits.TrailingZeros64(e), gn.rule))
		}
		return
	}
	for w := range c.words {
		e := c.mask[w] &^ (g.occ[0][w] | g.occ[1][w])
		for e != 0 {
			sq := w<<6 | bits.TrailingZeros64(e)
			e &= e - 1
			if gn.must && (!g.touches(sq, p^1) || !g.flanks(sq, p)) {
				continue
			}
			g.addMove(gn, p, -1, sq, list)
			if g.probed(list) {
				return
			}
		}
	}
}

// genPlaceTurn adds every placement on an empty square with every turn
// of every block, clockwise then anticlockwise.
func (g *Game) genPlaceTurn(gn *gen, list *rules.MoveList) {
	c := g.c
	blocks := (c.w / gn.rotate) * (c.h / gn.rotate)
	for w := range c.words {
		for e := c.mask[w] &^ (g.occ[0][w] | g.occ[1][w]); e != 0; e &= e - 1 {
			m := pack(-1, w<<6|bits.TrailingZeros64(e), gn.rule)
			for b := range blocks {
				g.add(list, packTurn(m, b, false))
				g.add(list, packTurn(m, b, true))
			}
			if g.probed(list) {
				return
			}
		}
	}
}

// genRemove adds the removals of p's own pieces that gn allows.
func (g *Game) genRemove(gn *gen, p rules.Player, list *rules.MoveList) {
	c := g.c
	for w := range c.words {
		own := g.occ[p][w] & gn.onMask[w]
		for own != 0 {
			sq := w<<6 | bits.TrailingZeros64(own)
			own &= own - 1
			if gn.piece >= 0 && int8((g.cells[sq]-1)>>1) != gn.piece {
				continue
			}
			if gn.nextTo && !g.nextToEmpty(sq, gn.dirs) {
				continue
			}
			g.add(list, pack(-1, sq, gn.rule))
		}
	}
}

// nextToEmpty reports whether a neighbour of sq in one of dirs is empty.
func (g *Game) nextToEmpty(sq int, dirs []dir) bool {
	for _, d := range dirs {
		if t := g.c.nb[d][sq]; t >= 0 && g.cells[t] == 0 {
			return true
		}
	}
	return false
}

func (g *Game) genDrop(gn *gen, list *rules.MoveList) {
	c := g.c
	base := c.n - c.w
	for col := range c.w {
		t := base + col
		for t >= 0 && g.cells[t] != 0 {
			t -= c.w
		}
		if t >= 0 {
			g.add(list, pack(-1, t, gn.rule))
		}
	}
}

func (g *Game) genPieces(gn *gen, p rules.Player, list *rules.MoveList) {
	c := g.c
	cls := &c.cls[p]
	for w := range c.words {
		own := g.occ[p][w]
		for own != 0 {
			sq := w<<6 | bits.TrailingZeros64(own)
			own &= own - 1
			if gn.piece >= 0 && int8((g.cells[sq]-1)>>1) != gn.piece {
				continue
			}
			if gn.route {
				g.genRoutes(gn, p, sq, list)
				continue
			}
			for _, d := range gn.dirs {
				nb := &c.nb[d]
				switch gn.kind {
				case kindStep:
					if t := nb[sq]; t >= 0 && cls[g.cells[t]]&gn.to != 0 {
						if len(gn.shoot) > 0 {
							g.addShots(gn, sq, int(t), list)
							break
						}
						g.addMove(gn, p, sq, int(t), list)
					}
				case kindSlide:
					if gn.lineDist {
						g.genLineSlide(gn, p, sq, d, list)
						break
					}
					steps := 0
					for t := nb[sq]; t >= 0 && (gn.rng == 0 || steps < gn.rng); t = nb[t] {
						steps++
						k := cls[g.cells[t]]
						if k&gn.to != 0 {
							if len(gn.shoot) > 0 {
								g.addShots(gn, sq, int(t), list)
							} else {
								g.addMove(gn, p, sq, int(t), list)
							}
							if g.probed(list) {
								return
							}
						}
						if k != toEmpty && k&gn.over == 0 {
							break
						}
					}
				case kindJump:
					for cur := nb[sq]; cur >= 0 && cls[g.cells[cur]]&gn.over != 0; {
						l := nb[cur]
						if l < 0 || g.cells[l] != 0 {
							break
						}
						g.add(list, pack(sq, int(l), gn.rule))
						if !gn.chain {
							break
						}
						cur = nb[l]
					}
				}
				if g.probed(list) {
					return
				}
			}
		}
	}
}

// Hash identifies the position: the cells, the side to move and, with a
// turn limit, the moves played.
func (g *Game) Hash() uint64 { return g.hash }

// Announce returns "": described games say nothing with a move.
func (g *Game) Announce(rules.Move) string { return "" }

// Tactical reports whether m removes an enemy piece (a step or slide onto
// one, a capturing jump, a capturing outflank) or wins at once: a step or
// slide onto the row that a reach ending makes the mover's goal, a new
// piece that completes an in-a-row ending's line.
func (g *Game) Tactical(m rules.Move) bool {
	if m == movePass {
		return false
	}
	from, to, rule := unpack(m)
	if rule >= len(g.c.gens[g.toMove]) {
		return false
	}
	gn := &g.c.gens[g.toMove][rule]
	switch {
	case gn.kind == kindJump:
		return gn.capture
	case gn.outflank == outflankCapture, gn.mill && removalOf(m) >= 0:
		return true
	case gn.kind == kindStep || gn.kind == kindSlide:
		return g.cells[to] != 0 || g.winsByReach(from, to)
	case gn.kind == kindPlace || gn.kind == kindDrop:
		return g.winsInARow(to)
	}
	return false
}

// noTactics reports whether Tactical is false for every move the rules
// make, case by case as Tactical decides.
func (c *compiled) noTactics() bool {
	for p := range 2 {
		for i := range c.gens[p] {
			gn := &c.gens[p][i]
			switch {
			case gn.kind == kindJump && gn.capture, gn.outflank == outflankCapture, gn.mill:
				return false
			case gn.kind == kindStep || gn.kind == kindSlide:
				if gn.to&^toEmpty != 0 || len(c.reach) > 0 {
					return false
				}
			case gn.kind == kindPlace || gn.kind == kindDrop:
				if c.inARow > 0 && !c.anywhere && c.inARowRes == resWin {
					return false
				}
			}
		}
	}
	return true
}

// Calm reports whether no move of the game is ever tactical (rules.Calm).
func (g *Game) Calm() bool { return g.c.calm }

// winsInARow reports whether the player to move wins at once with a new
// piece on the empty cell to: an in-a-row ending won by the line through
// it.
func (g *Game) winsInARow(to int) bool {
	c := g.c
	return c.inARow > 0 && !c.anywhere && c.inARowRes == resWin && g.lineThrough(to, g.toMove) >= c.inARow
}

// winsByReach reports whether the player to move wins at once by moving
// the piece on from to the cell to: a reach ending won on to's row.
func (g *Game) winsByReach(from, to int) bool {
	c := g.c
	for i := range c.reach {
		re := &c.reach[i]
		if re.result == resWin && from >= 0 && re.reachedBy(int(c.rowOf[to]), g.toMove, int8((g.cells[from]-1)>>1)) {
			return true
		}
	}
	return false
}

// countProgress updates the moves in a row without progress before m is
// played: a capture, or a move of the no-progress ending's kind of piece,
// starts the count again. The hash holds the count.
func (g *Game) countProgress(m rules.Move, gn *gen, from, to int) {
	c := g.c
	progress := false
	switch {
	case gn.kind == kindJump && gn.capture, gn.outflank == outflankCapture:
		progress = true
	case gn.hand > 0, gn.mill && removalOf(m) >= 0:
		// The count starts when the hands are placed, and again at a removal.
		progress = true
	case (gn.kind == kindStep || gn.kind == kindSlide) && g.cells[to] != 0:
		progress = true
	case from >= 0 && c.progressPiece >= 0 && int8((g.cells[from]-1)>>1) == c.progressPiece:
		progress = true
	}
	old := g.quiet
	if progress {
		g.quiet = 0
	} else {
		g.quiet++
	}
	g.hash ^= c.progressKey(int(old)) ^ c.progressKey(int(g.quiet))
}
