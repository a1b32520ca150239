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
// rules.NoMove. It tries only the moves that place a piece on a square
// completing a line before any turn, so it misses a win that a turn alone
// makes; a move it returns is legal and wins (rules.Finisher).
func (g *Game) WinningMove() rules.Move {
	if !g.c.finishes || g.Status() != rules.Ongoing {
		return rules.NoMove
	}
	p := g.toMove
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
		g.Play(m)
		w, won := g.Status().Winner()
		g.Undo()
		if won && w == p {
			return m
		}
	}
	return rules.NoMove
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
