package described

import (
	"math/bits"

	"arbiter/rules"
)

// Wins in one move of the games whose lines are judged after the move,
// anywhere on the board (Pentago): their moves are never tactical, so a
// search lists no moves at its leaves, yet a leaf whose player to move can
// complete a line is won. WinningMove finds such a move where one is
// likeliest, without trying every move.

// maxFinishTries bounds the moves WinningMove plays out: a block's turns
// for a few completing squares.
const maxFinishTries = 128

// WinningMove returns a move with which the player to move wins at once by
// completing a line of an in-a-row ending judged anywhere (Pentago's), or
// rules.NoMove. Where the player's one move rule places a piece and turns
// a block, on a board of 64 squares or fewer, it finds every such win,
// the turn's included; elsewhere it tries only the moves that place a
// piece on a square completing a line before any turn, and so misses a
// win that a turn makes. A move it returns is legal and wins
// (rules.Finisher).
func (g *Game) WinningMove() rules.Move {
	if !g.c.finishes || g.Status() != rules.Ongoing {
		return rules.NoMove
	}
	p := g.toMove
	if turns := g.c.blockTurns[p]; turns != nil {
		return g.winningTurn(p, turns)
	}
	cells, some := g.completing(p)
	if !some {
		return rules.NoMove
	}
	// Play needs g.scratch (Status may ask for a move), so the tries are
	// copied out first.
	var tries [maxFinishTries]rules.Move
	n := 0
	g.generate(p, &g.scratch, false)
	for _, m := range g.scratch.Moves[:g.scratch.N] {
		if m == movePass {
			continue
		}
		if _, to, _ := unpack(m); cells[to>>6]&(1<<(to&63)) != 0 && n < len(tries) {
			tries[n] = m
			n++
		}
	}
	for _, m := range tries[:n] {
		if g.winsAtOnce(m, p) {
			return m
		}
	}
	return rules.NoMove
}

// winsAtOnce reports whether the legal move m wins the game at once for p.
func (g *Game) winsAtOnce(m rules.Move, p rules.Player) bool {
	g.Play(m)
	w, won := g.Status().Winner()
	g.Undo()
	return won && w == p
}

// blockTurn is one turn of one block of a board in one word, for a move
// rule that places a piece and then turns a block: the block's squares,
// and where the turn takes each of them.
type blockTurn struct {
	block    int
	left     bool
	squares  uint64
	from, to []uint8
	rule     uint8 // the move rule's
}

// buildBlockTurns lists each player's block turns when its one move rule
// places a piece and turns a block, on a board of rows in one word, in a
// game whose wins in one WinningMove finds.
func (c *compiled) buildBlockTurns() {
	if !c.finishes || c.words > 1 || c.graph {
		return
	}
	for p := range 2 {
		if len(c.gens[p]) != 1 {
			continue
		}
		gn := &c.gens[p][0]
		k := gn.rotate
		if gn.kind != kindPlace || k == 0 || gn.off || gn.turn != 0 || gn.must || c.hand > 0 {
			continue
		}
		perRow := c.w / k
		for b := range perRow * (c.h / k) {
			x0, y0 := b%perRow*k, b/perRow*k
			for _, left := range []bool{false, true} {
				t := blockTurn{block: b, left: left, rule: gn.rule}
				for j := range k {
					for i := range k {
						// As turnBlock: clockwise, (i, j) goes to (k-1-j, i).
						ni, nj := k-1-j, i
						if left {
							ni, nj = j, k-1-i
						}
						from := (y0+j)*c.w + x0 + i
						t.squares |= 1 << from
						t.from = append(t.from, uint8(from))
						t.to = append(t.to, uint8((y0+nj)*c.w+x0+ni))
					}
				}
				c.blockTurns[p] = append(c.blockTurns[p], t)
			}
		}
	}
}

// apply returns the squares of x after the turn.
func (t *blockTurn) apply(x uint64) uint64 {
	out := x &^ t.squares
	for i, f := range t.from {
		out |= (x >> f & 1) << t.to[i]
	}
	return out
}

// before returns the square that the turn takes to sq.
func (t *blockTurn) before(sq int) int {
	for i, to := range t.to {
		if int(to) == sq {
			return int(t.from[i])
		}
	}
	return sq
}

// winningTurn is WinningMove for a player whose moves place a piece and
// then turn a block (turns). A placement then a turn puts the piece where
// the turn takes its square, so for each turn the winning squares are
// those completing a line of the turned board; the turn must not complete
// one of the opponent's as well.
func (g *Game) winningTurn(p rules.Player, turns []blockTurn) rules.Move {
	for i := range turns {
		t := &turns[i]
		for wins := g.turnWins(p, t); wins != 0; wins &= wins - 1 {
			sq := t.before(bits.TrailingZeros64(wins))
			if m := packTurn(pack(-1, sq, t.rule), t.block, t.left); g.winsAtOnce(m, p) {
				return m
			}
		}
	}
	return rules.NoMove
}

// turnWins returns the squares of the board after turn t on which p's
// piece makes p a line and the opponent none.
func (g *Game) turnWins(p rules.Player, t *blockTurn) uint64 {
	c := g.c
	own, theirs, blocked := g.occ[p][0], g.occ[p^1][0], g.blocked[0]
	o, x := t.apply(own), t.apply(theirs)
	e := t.apply(c.mask[0] &^ (own | theirs | blocked))
	switch {
	case c.lineInWord(x):
		return 0
	case c.lineInWord(o):
		return e
	}
	return c.completingWord(o, x|blocked) & e
}

// completingWord returns, on a board of rows in one word, the squares
// that complete a line of the in-a-row length holding in-a-row − 1 of
// own's squares and none of others'.
func (c *compiled) completingWord(own, others uint64) uint64 {
	n := c.inARow
	var cells uint64
	for a := range 4 {
		back := dir(a + 4)
		ok := c.lineStarts[a][0]
		var one, two uint64 // lines with at least one, and two, squares not own's
		x, bad := own, others
		for i := range n {
			if i > 0 {
				x, bad = c.stepWord(x, back), c.stepWord(bad, back)
			}
			ok &^= bad
			miss := ^x
			two |= one & miss
			one |= miss
		}
		short := ok &^ two
		for i := 0; i < n && short != 0; i++ {
			cells |= short &^ own
			short = c.stepWord(short, dir(a))
		}
	}
	return cells
}

// Finishes reports whether the game has lines judged anywhere that win,
// which WinningMove looks for (rules.Finisher).
func (g *Game) Finishes() bool { return g.c.finishes }

// completing returns the empty squares on which a piece of p completes a
// line of the in-a-row length: the missing square of each line that holds
// in-a-row − 1 of p's pieces and no other piece or blocker. some reports
// whether there is one.
func (g *Game) completing(p rules.Player) (cells [maxWords]uint64, some bool) {
	c := g.c
	n := c.inARow
	empty := g.emptySquares()
	// own[i] and bad[i] are, square by square, whether p's piece, or
	// anything else, stands i squares on along the axis.
	var own, bad [maxSide][maxWords]uint64
	own[0] = g.occ[p]
	for w := range c.words {
		bad[0][w] = g.occ[p^1][w] | g.blocked[w]
	}
	for a := range 4 {
		back := dir(a + 4)
		for i := 1; i < n; i++ {
			own[i] = c.step(&own[i-1], back)
			bad[i] = c.step(&bad[i-1], back)
		}
		var lines [maxWords]uint64 // the first squares of the lines missing one piece
		found := false
		for w := range c.words {
			ok := c.lineStarts[a][w]
			var one, two uint64 // lines with at least one, and two, squares not p's
			for i := range n {
				ok &^= bad[i][w]
				miss := ^own[i][w]
				two |= one & miss
				one |= miss
			}
			lines[w] = ok &^ two
			found = found || lines[w] != 0
		}
		if !found {
			continue
		}
		for range n {
			for w := range c.words {
				cells[w] |= lines[w] & empty[w]
			}
			c.stepIn(&lines, dir(a))
		}
		some = true
	}
	return cells, some
}

// doubleThreat returns what p's threats to complete a line weigh, in a
// game whose wins in one WinningMove finds, when p is not to move: with two
// squares or more that each complete a line, the player to move can seldom
// stop both, and the threat weighs four times a line one piece short; with
// fewer, or in another game, nothing more than the open lines say.
func (g *Game) doubleThreat(p rules.Player) int {
	if !g.c.finishes {
		return 0
	}
	cells, some := g.completing(p)
	if !some {
		return 0
	}
	n := 0
	for w := range g.c.words {
		n += bits.OnesCount64(cells[w])
	}
	if n < 2 {
		return 0
	}
	return g.c.doubleThreat
}
