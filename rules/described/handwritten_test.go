package described_test

// Hand-written Go implementations of the three shipped games, for the
// tests and benchmarks only: the described games must agree with them move
// for move, and are measured against them.

import (
	"fmt"
	"math/bits"

	"arbiter/rules"
)

// refGame is what the tests ask of a game, described or hand-written.
type refGame interface {
	Moves(list *rules.MoveList)
	Play(m rules.Move)
	Undo()
	Status() rules.Result
	FormatMove(m rules.Move) string
}

// perft counts move sequences as rules.Perft does, over either kind of
// game, so that both are measured by the same code.
func perft[G refGame](g G, lists []rules.MoveList) uint64 {
	list := &lists[len(lists)-1]
	g.Moves(list)
	if len(lists) == 1 {
		for _, m := range list.Slice() {
			g.Play(m)
			g.Undo()
		}
		return uint64(list.N)
	}
	var n uint64
	for _, m := range list.Slice() {
		g.Play(m)
		n += perft(g, lists[:len(lists)-1])
		g.Undo()
	}
	return n
}

func perftN[G refGame](g G, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	return perft(g, make([]rules.MoveList, depth))
}

// squareText writes column col (0 from the left) and a row label.
func squareText(col, row int) string { return fmt.Sprintf("%c%d", 'a'+col, row) }

// ---- Breakthrough: bitboards, square = (rank-1)*size + file.

type btState struct {
	pieces [2]uint64
	toMove int
}

type breakthrough struct {
	size     int
	full     uint64
	notFirst uint64 // every file but a
	notLast  uint64 // every file but the last
	lastRank [2]uint64
	st       btState
	saved    []btState
	scratch  rules.MoveList
}

func newBreakthrough(size int) *breakthrough {
	g := &breakthrough{size: size}
	n := size * size
	g.full = 1<<n - 1
	var fileA, fileLast uint64
	for r := range size {
		fileA |= 1 << (r * size)
		fileLast |= 1 << (r*size + size - 1)
	}
	g.notFirst, g.notLast = g.full&^fileA, g.full&^fileLast
	rank := uint64(1)<<size - 1
	g.lastRank = [2]uint64{rank << ((size - 1) * size), rank}
	g.st.pieces[0] = 1<<(2*size) - 1
	g.st.pieces[1] = (1<<(2*size) - 1) << ((size - 2) * size)
	return g
}

func (g *breakthrough) add(list *rules.MoveList, targets uint64, delta int) {
	for targets != 0 {
		to := bits.TrailingZeros64(targets)
		targets &= targets - 1
		list.Moves[list.N] = rules.Move(to-delta) | rules.Move(to)<<8
		list.N++
	}
}

func (g *breakthrough) gen(p int, list *rules.MoveList) {
	list.N = 0
	own, opp := g.st.pieces[p], g.st.pieces[p^1]
	empty := g.full &^ (own | opp)
	s := g.size
	if p == 0 {
		g.add(list, own<<s&empty, s)
		g.add(list, (own&g.notFirst)<<(s-1)&g.full&^own, s-1)
		g.add(list, (own&g.notLast)<<(s+1)&g.full&^own, s+1)
		return
	}
	g.add(list, own>>s&empty, -s)
	g.add(list, (own&g.notLast)>>(s-1)&^own, -(s - 1))
	g.add(list, (own&g.notFirst)>>(s+1)&^own, -(s + 1))
}

func (g *breakthrough) Status() rules.Result {
	switch {
	case g.st.pieces[0]&g.lastRank[0] != 0 || g.st.pieces[1] == 0:
		return rules.P1Wins
	case g.st.pieces[1]&g.lastRank[1] != 0 || g.st.pieces[0] == 0:
		return rules.P2Wins
	}
	g.gen(g.st.toMove, &g.scratch)
	if g.scratch.N == 0 {
		return rules.Win(rules.Player(g.st.toMove ^ 1))
	}
	return rules.Ongoing
}

func (g *breakthrough) Moves(list *rules.MoveList) {
	if g.st.pieces[0]&g.lastRank[0] != 0 || g.st.pieces[1]&g.lastRank[1] != 0 || g.st.pieces[0] == 0 || g.st.pieces[1] == 0 {
		list.N = 0
		return
	}
	g.gen(g.st.toMove, list)
}

func (g *breakthrough) Play(m rules.Move) {
	g.saved = append(g.saved, g.st)
	from, to := uint(m&0xFF), uint(m>>8)
	p := g.st.toMove
	g.st.pieces[p] = g.st.pieces[p]&^(1<<from) | 1<<to
	g.st.pieces[p^1] &^= 1 << to
	g.st.toMove = p ^ 1
}

func (g *breakthrough) Undo() {
	g.st = g.saved[len(g.saved)-1]
	g.saved = g.saved[:len(g.saved)-1]
}

func (g *breakthrough) FormatMove(m rules.Move) string {
	from, to := int(m&0xFF), int(m>>8)
	return squareText(from%g.size, from/g.size+1) + " " + squareText(to%g.size, to/g.size+1)
}

// ---- Othello: bitboards on an 8-wide layout, square = row*8 + col, row 0
// at the top; sizes 4, 6 and 8 use the top-left corner.

type otState struct {
	discs  [2]uint64
	toMove int
}

type othello struct {
	size  int
	board uint64
	st    otState
	saved []otState
}

func newOthello(size int) *othello {
	g := &othello{size: size}
	for r := range size {
		for c := range size {
			g.board |= 1 << (r*8 + c)
		}
	}
	m := size / 2
	g.st.discs[1] = 1<<((m-1)*8+m-1) | 1<<(m*8+m)
	g.st.discs[0] = 1<<((m-1)*8+m) | 1<<(m*8+m-1)
	return g
}

// shift moves a set one square in direction d (0..7 as in the package:
// clockwise from north), dropping what leaves the board.
func (g *othello) shift(b uint64, d int) uint64 {
	const notA, notH = 0xFEFEFEFEFEFEFEFE, 0x7F7F7F7F7F7F7F7F
	switch d {
	case 0:
		b >>= 8
	case 1:
		b = b >> 7 & notA
	case 2:
		b = b << 1 & notA
	case 3:
		b = b << 9 & notA
	case 4:
		b <<= 8
	case 5:
		b = b << 7 & notH
	case 6:
		b = b >> 1 & notH
	case 7:
		b = b >> 9 & notH
	}
	return b & g.board
}

func (g *othello) placements(p int) uint64 {
	own, opp := g.st.discs[p], g.st.discs[p^1]
	empty := g.board &^ (own | opp)
	var moves uint64
	for d := range 8 {
		t := g.shift(own, d) & opp
		for range 5 {
			t |= g.shift(t, d) & opp
		}
		moves |= g.shift(t, d) & empty
	}
	return moves
}

const otPass = rules.Move(1 << 10)

func (g *othello) Moves(list *rules.MoveList) {
	list.N = 0
	p := g.st.toMove
	moves := g.placements(p)
	if moves == 0 {
		if g.placements(p^1) != 0 {
			list.Moves[0] = otPass
			list.N = 1
		}
		return
	}
	for moves != 0 {
		list.Moves[list.N] = rules.Move(bits.TrailingZeros64(moves))
		list.N++
		moves &= moves - 1
	}
}

func (g *othello) Play(m rules.Move) {
	g.saved = append(g.saved, g.st)
	p := g.st.toMove
	g.st.toMove = p ^ 1
	if m == otPass {
		return
	}
	sq := uint64(1) << uint(m)
	own, opp := g.st.discs[p], g.st.discs[p^1]
	var flips uint64
	for d := range 8 {
		var line uint64
		t := g.shift(sq, d)
		for t&opp != 0 {
			line |= t
			t = g.shift(t, d)
		}
		if t&own != 0 {
			flips |= line
		}
	}
	g.st.discs[p] = own | sq | flips
	g.st.discs[p^1] = opp &^ flips
}

func (g *othello) Undo() {
	g.st = g.saved[len(g.saved)-1]
	g.saved = g.saved[:len(g.saved)-1]
}

func (g *othello) Status() rules.Result {
	if g.placements(0) != 0 || g.placements(1) != 0 {
		return rules.Ongoing
	}
	return rules.ByScore(bits.OnesCount64(g.st.discs[0]), bits.OnesCount64(g.st.discs[1]))
}

func (g *othello) FormatMove(m rules.Move) string {
	if m == otPass {
		return "pass"
	}
	return squareText(int(m)%8, int(m)/8+1)
}

// ---- Connect Four: a grid of cells and column heights.

type connect4 struct {
	cols, rows, connect int
	cell                [10][10]int8 // [col][row from the bottom]: 0 empty, 1 or 2
	height              [10]int
	toMove              int
	played              []int // columns played
	result              []rules.Result
}

func newConnect4(cols, rows, connect int) *connect4 {
	return &connect4{cols: cols, rows: rows, connect: connect, result: []rules.Result{rules.Ongoing}}
}

func (g *connect4) Status() rules.Result { return g.result[len(g.result)-1] }

func (g *connect4) Moves(list *rules.MoveList) {
	list.N = 0
	if g.Status() != rules.Ongoing {
		return
	}
	for c := range g.cols {
		if g.height[c] < g.rows {
			list.Moves[list.N] = rules.Move(c)
			list.N++
		}
	}
}

func (g *connect4) Play(m rules.Move) {
	c := int(m)
	r := g.height[c]
	who := int8(g.toMove + 1)
	g.cell[c][r] = who
	g.height[c]++
	g.played = append(g.played, c)
	res := rules.Ongoing
	for _, d := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
		n := 1
		for s := -1; s <= 1; s += 2 {
			x, y := c+s*d[0], r+s*d[1]
			for x >= 0 && x < g.cols && y >= 0 && y < g.rows && g.cell[x][y] == who {
				n++
				x, y = x+s*d[0], y+s*d[1]
			}
		}
		if n >= g.connect {
			res = rules.Win(rules.Player(g.toMove))
		}
	}
	if res == rules.Ongoing && len(g.played) == g.cols*g.rows {
		res = rules.Draw
	}
	g.result = append(g.result, res)
	g.toMove ^= 1
}

func (g *connect4) Undo() {
	c := g.played[len(g.played)-1]
	g.played = g.played[:len(g.played)-1]
	g.result = g.result[:len(g.result)-1]
	g.height[c]--
	g.cell[c][g.height[c]] = 0
	g.toMove ^= 1
}

func (g *connect4) FormatMove(m rules.Move) string { return string(rune('a' + int(m))) }
