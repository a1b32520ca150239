// Package sixes is Sixes, the 6x6 game of the CSE 462 handout, as
// docs/rules/sixes.md states it: X and O each start with eight
// pieces; a move steps a piece one square up, down, left or right onto an
// empty square, or jumps it over one neighbouring piece onto the empty
// square behind; a piece whose four neighbours are opponents is removed; a
// player may not move the piece they moved last straight back; the game ends
// when a side has no pieces or no move, or at the turn limit.
//
// The position is two 36-bit bitboards and each player's last move; the
// game keeps a copy of every earlier position in storage reserved at New,
// so Play and Undo never allocate.
//
// Invariants a change must keep: the perft counts of the rules file; the
// notation and the packing of a move (stored records depend on them); Play
// and Undo allocate nothing.
package sixes

import (
	"fmt"
	"math/bits"
	"strconv"
	"time"

	"arbiter/rules"
)

// Option keys and their defaults: the rules file's Variants.
const (
	// OptionEdges makes the board's edge count as an opponent piece for
	// removal ("on" or "off").
	OptionEdges = "edges"
	// OptionTurns is the turn limit: moves (plies) of both players
	// together before the game is scored.
	OptionTurns = "turns"

	// DefaultTurns is the turn limit when none is given.
	DefaultTurns = 100
	// MaxTurns is the largest turn limit a game takes.
	MaxTurns = 10000
)

// moveTime is the engine's default time a move. The handout sets no limit
// ("set by the class"); five seconds, as Hi-Ya!'s class allowed.
const moveTime = 5 * time.Second

// optionSpecs are the Variants of the rules file.
func optionSpecs() []rules.OptionSpec {
	return []rules.OptionSpec{
		{Key: OptionEdges, Default: "off", Values: []string{"on", "off"},
			Help: "the board's edge counts as an opponent piece, so edge and corner pieces can be surrounded"},
		{Key: OptionTurns, Default: strconv.Itoa(DefaultTurns), Min: 1, Max: MaxTurns,
			Help: "moves of both players together before the game is scored"},
	}
}

// Definition describes Sixes to the registry.
func Definition() rules.Definition {
	return rules.Definition{
		Name:     "sixes",
		Title:    "Sixes",
		Players:  [2]string{"X", "O"},
		Options:  optionSpecs(),
		MoveTime: moveTime,
		Summary:  "A 6x6 board, rows a..f from the top, columns 1..6. X moves first. A piece steps one square orthogonally or jumps over one adjacent piece onto the empty square behind; you may not move the piece you just moved straight back. A piece whose four neighbours are all enemy pieces is removed (edge pieces are safe unless edges=on). You win by taking all enemy pieces or leaving the opponent without a move; at the turn limit the player with more pieces wins, then the one with more legal moves. Moves: \"c4 d4\".",
		New:      rules.NewFunc(New),
	}
}

// position is everything the rules need to know about the board: each
// player's pieces and each player's last move (rules.NoMove before their
// first), which the no-return rule looks at.
type position struct {
	pieces [2]uint64
	last   [2]rules.Move
}

// Game is a game of Sixes in progress.
type Game struct {
	opts   rules.FixedOptions
	edges  edgeMasks
	limit  int
	pos    position
	toMove rules.Player
	ply    int          // moves played since the start or Setup
	saved  []position   // saved[i] is the position before move i, for Undo
	hist   []rules.Move // hist[i] is move i; both reserved at New for the turn limit
}

var (
	_ rules.Game   = (*Game)(nil)
	_ rules.Scorer = (*Game)(nil)
)

// New starts a game from the start position. opts may be partial or nil:
// missing options take their defaults; a bad value is an error that says
// what is allowed.
func New(opts rules.Options) (*Game, error) {
	full, err := rules.Resolve("sixes", optionSpecs(), opts)
	if err != nil {
		return nil, err
	}
	limit, err := strconv.Atoi(full[OptionTurns])
	if err != nil || limit < 1 || limit > MaxTurns {
		return nil, fmt.Errorf("turns=%s: turns must be a whole number from 1 to %d", full[OptionTurns], MaxTurns)
	}
	g := &Game{opts: rules.Fix(full), edges: newEdgeMasks(full[OptionEdges] == "on"), limit: limit}
	g.saved = make([]position, g.limit)
	g.hist = make([]rules.Move, g.limit)
	g.pos.last = [2]rules.Move{rules.NoMove, rules.NoMove}
	// X: a1 a2 b1 b2 e5 e6 f5 f6. O: a5 a6 b5 b6 e1 e2 f1 f2.
	g.pos.pieces[rules.P1] = bit(0, 0) | bit(0, 1) | bit(1, 0) | bit(1, 1) | bit(4, 4) | bit(4, 5) | bit(5, 4) | bit(5, 5)
	g.pos.pieces[rules.P2] = bit(0, 4) | bit(0, 5) | bit(1, 4) | bit(1, 5) | bit(4, 0) | bit(4, 1) | bit(5, 0) | bit(5, 1)
	return g, nil
}

// bit is the bitboard of the square at 0-based row r and column c.
func bit(r, c int) uint64 { return 1 << (r*size + c) }

// Name returns "sixes".
func (g *Game) Name() string { return "sixes" }

// Options returns the complete options, so that New(Options()) starts the
// same game (from the start position, also for a game made by Setup).
func (g *Game) Options() rules.Options { return g.opts.Options() }

// OptionsString returns Options().String() without copying the options.
func (g *Game) OptionsString() string { return g.opts.String() }

// ToMove returns the player whose turn it is.
func (g *Game) ToMove() rules.Player { return g.toMove }

// PlayerName returns "X" for player 1 and "O" for player 2.
func (g *Game) PlayerName(p rules.Player) string {
	if p == rules.P1 {
		return "X"
	}
	return "O"
}

// Ply returns the number of moves played since the start (or since Setup).
func (g *Game) Ply() int { return g.ply }

// History returns the moves played, oldest first; callers must not change it.
func (g *Game) History() []rules.Move { return g.hist[:g.ply:g.ply] }

// TurnLimit returns the number of moves of both players after which the
// game is scored (the turns option).
func (g *Game) TurnLimit() int { return g.limit }

// TurnsLeft returns how many moves remain before the turn limit.
func (g *Game) TurnsLeft() int { return g.limit - g.ply }

// Edges reports whether the edges variant is on: the board's edge counts as
// an opponent piece for removal.
func (g *Game) Edges() bool { return g.edges.n != 0 }

// PieceAt returns the owner of the piece on row (1..6 for a..f) and column
// (1..6), and false for an empty square or one off the board.
func (g *Game) PieceAt(row, col int) (rules.Player, bool) { return g.pos.pieceAt(row, col) }

// PieceBefore is PieceAt in the position before the last move (the current
// one when no move was played), read from the game's own record of it: what
// a board needs to show what the last move removed, without a copy of the
// game.
func (g *Game) PieceBefore(row, col int) (rules.Player, bool) {
	if g.ply == 0 {
		return g.pos.pieceAt(row, col)
	}
	return g.saved[g.ply-1].pieceAt(row, col)
}

// pieceAt is PieceAt in p.
func (p *position) pieceAt(row, col int) (rules.Player, bool) {
	if row < 1 || row > size || col < 1 || col > size {
		return rules.P1, false
	}
	b := bit(row-1, col-1)
	switch {
	case p.pieces[rules.P1]&b != 0:
		return rules.P1, true
	case p.pieces[rules.P2]&b != 0:
		return rules.P2, true
	}
	return rules.P1, false
}

// Pieces returns how many pieces p has on the board.
func (g *Game) Pieces(p rules.Player) int { return bits.OnesCount64(g.pos.pieces[p&1]) }

// LastMove returns p's previous move, the one the no-return rule looks at,
// and false if p has not moved (and none was given with SetLastMove).
func (g *Game) LastMove(p rules.Player) (rules.Move, bool) {
	m := g.pos.last[p&1]
	return m, m != rules.NoMove
}

// MoveCount returns the number of legal moves p would have if it were p's
// turn, with p's own no-return restriction: the count the turn-limit
// tie-break compares. It ignores whether the game is over.
func (g *Game) MoveCount(p rules.Player) int {
	p &= 1
	occ := g.pos.pieces[0] | g.pos.pieces[1]
	n := moveCount(g.pos.pieces[p], occ)
	if g.returnPossible(p, occ) {
		n--
	}
	return n
}

// returnPossible reports whether the move that takes p's last moved piece
// straight back would be a step or jump now, so that the no-return rule
// actually forbids something.
func (g *Game) returnPossible(p rules.Player, occ uint64) bool {
	m := g.pos.last[p]
	if m == rules.NoMove {
		return false
	}
	from, to := unpack(uint32(m))
	if g.pos.pieces[p]&(1<<to) == 0 || occ&(1<<from) != 0 {
		return false
	}
	d := from - to
	if d == 1 || d == -1 || d == size || d == -size {
		return true
	}
	return occ&(1<<((from+to)/2)) != 0
}

// MoveSquares returns a move's from and to squares as rows 1..6 (a..f) and
// columns 1..6.
func MoveSquares(m rules.Move) (fromRow, fromCol, toRow, toCol int) {
	from, to := unpack(uint32(m))
	return from/size + 1, from%size + 1, to/size + 1, to%size + 1
}

// NewMove packs the move from (fromRow, fromCol) to (toRow, toCol), rows
// 1..6 for a..f and columns 1..6. It returns rules.NoMove unless both
// squares are on the board and one or two squares apart along a row or a
// column. Whether the move is legal is for Moves or ParseMove to say.
func NewMove(fromRow, fromCol, toRow, toCol int) rules.Move {
	if fromRow < 1 || fromRow > size || fromCol < 1 || fromCol > size ||
		toRow < 1 || toRow > size || toCol < 1 || toCol > size {
		return rules.NoMove
	}
	m := pack((fromRow-1)*size+fromCol-1, (toRow-1)*size+toCol-1)
	if !shapeOK(m) {
		return rules.NoMove
	}
	return rules.Move(m)
}

// reverse returns the move that undoes m's step or jump, or NoMove for
// NoMove.
func reverse(m rules.Move) rules.Move {
	if m == rules.NoMove {
		return rules.NoMove
	}
	from, to := unpack(uint32(m))
	return rules.Move(pack(to, from))
}

// Moves fills list with the legal moves of the player to move: none once
// the game is over.
func (g *Game) Moves(list *rules.MoveList) {
	list.N = 0
	x, o := g.pos.pieces[0], g.pos.pieces[1]
	if x == 0 || o == 0 || g.ply >= g.limit {
		return
	}
	own := g.pos.pieces[g.toMove]
	occ := x | o
	empty := full &^ occ
	forbid := reverse(g.pos.last[g.toMove])
	addMoves(list, east(own)&empty, 1, forbid)
	addMoves(list, east(east(own)&occ)&empty, 2, forbid)
	addMoves(list, west(own)&empty, -1, forbid)
	addMoves(list, west(west(own)&occ)&empty, -2, forbid)
	addMoves(list, south(own)&empty, size, forbid)
	addMoves(list, south(south(own)&occ)&empty, 2*size, forbid)
	addMoves(list, north(own)&empty, -size, forbid)
	addMoves(list, north(north(own)&occ)&empty, -2*size, forbid)
}

// addMoves adds a move to each square of targets from the square delta
// before it, except forbid.
func addMoves(list *rules.MoveList, targets uint64, delta int, forbid rules.Move) {
	for targets != 0 {
		to := bits.TrailingZeros64(targets)
		targets &= targets - 1
		m := rules.Move(uint32(to-delta) | uint32(to)<<6)
		if m != forbid {
			list.Moves[list.N] = m
			list.N++
		}
	}
}

// Play plays m, which must be one of the moves Moves returns: the piece
// moves, then the opponent's surrounded pieces are removed, then any of the
// mover's own that are still surrounded.
func (g *Game) Play(m rules.Move) {
	n := g.ply
	if n >= len(g.saved) {
		g.grow()
	}
	g.saved[n] = g.pos
	g.hist[n] = m
	g.ply = n + 1
	p := g.toMove
	from, to := unpack(uint32(m))
	own := g.pos.pieces[p]&^(1<<from) | 1<<to
	opp := g.pos.pieces[p^1]
	opp &^= g.edges.surrounded(opp, own)
	own &^= g.edges.surrounded(own, opp)
	g.pos.pieces[p], g.pos.pieces[p^1] = own, opp
	g.pos.last[p] = m
	g.toMove = p ^ 1
}

// grow makes room for moves past the turn limit, which Moves never
// offers; it keeps Play safe for a caller that plays on regardless.
func (g *Game) grow() {
	g.saved = append(g.saved, position{})
	g.saved = g.saved[:cap(g.saved)]
	g.hist = append(g.hist, 0)
	g.hist = g.hist[:cap(g.hist)]
}

// Undo takes back the last move played. It panics if none was played.
func (g *Game) Undo() {
	n := g.ply - 1
	if n < 0 {
		panic("sixes: Undo with no move played")
	}
	g.pos = g.saved[n]
	g.ply = n
	g.toMove ^= 1
}

// Status returns the result so far, checking the end conditions in the
// rules' order: a player without pieces loses; then a player to move
// without a legal move loses; then at the turn limit more pieces win, then
// more legal moves, else a draw.
func (g *Game) Status() rules.Result {
	r, _ := g.status()
	return r
}

// The reasons a game ends.
const (
	endNone = iota
	endNoPieces
	endNoMove
	endTurnLimit
)

// status returns the result and which end condition gave it.
func (g *Game) status() (rules.Result, int) {
	switch {
	case g.pos.pieces[rules.P1] == 0:
		return rules.P2Wins, endNoPieces
	case g.pos.pieces[rules.P2] == 0:
		return rules.P1Wins, endNoPieces
	case g.MoveCount(g.toMove) == 0:
		return rules.Win(g.toMove ^ 1), endNoMove
	case g.ply < g.limit:
		return rules.Ongoing, endNone
	}
	x, o := g.Pieces(rules.P1), g.Pieces(rules.P2)
	if x == o {
		x, o = g.MoveCount(rules.P1), g.MoveCount(rules.P2)
	}
	return rules.ByScore(x, o), endTurnLimit
}

// Outcome returns the result with its reason in words ("O has no pieces
// left", "X has no legal move", "turn limit reached: 6 pieces to 5",
// "turn limit reached: 4 pieces each, 9 moves to 7") and the players'
// piece counts as scores, X first.
func (g *Game) Outcome() rules.Outcome {
	r, end := g.status()
	x, o := g.Pieces(rules.P1), g.Pieces(rules.P2)
	out := rules.Outcome{Result: r, Scores: [2]int{x, o}, HasScores: true}
	switch end {
	case endNoPieces:
		loser := rules.P1
		if o == 0 {
			loser = rules.P2
		}
		out.Reason = g.PlayerName(loser) + " has no pieces left"
	case endNoMove:
		out.Reason = g.PlayerName(g.toMove) + " has no legal move"
	case endTurnLimit:
		if x != o {
			out.Reason = fmt.Sprintf("turn limit reached: %s to %d", plural(max(x, o), "piece"), min(x, o))
			break
		}
		mx, mo := g.MoveCount(rules.P1), g.MoveCount(rules.P2)
		if mx != mo {
			out.Reason = fmt.Sprintf("turn limit reached: %s each, %s to %d", plural(x, "piece"), plural(max(mx, mo), "move"), min(mx, mo))
			break
		}
		out.Reason = fmt.Sprintf("turn limit reached: %s each, %s each", plural(x, "piece"), plural(mx, "move"))
	}
	return out
}

// plural writes n and the noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Hash identifies the position: both players' pieces, the side to move,
// the moves left before the turn limit (which decide when the game ends)
// and each player's no-return restriction where it can still matter (the
// player to move's only if it forbids a move now, the other player's only
// while the piece it moved is still on the board). It mixes these words
// with a strong 64-bit mixer; it needs no table.
func (g *Game) Hash() uint64 {
	occ := g.pos.pieces[0] | g.pos.pieces[1]
	p := g.toMove
	var mine, theirs uint64 = 0xFFFF, 0xFFFF
	if g.returnPossible(p, occ) {
		mine = uint64(g.pos.last[p])
	}
	if m := g.pos.last[p^1]; m != rules.NoMove {
		if _, to := unpack(uint32(m)); g.pos.pieces[p^1]&(1<<to) != 0 {
			theirs = uint64(m)
		}
	}
	extra := uint64(p) | mine<<1 | theirs<<17 | uint64(g.limit-g.ply)<<33
	h := mix64(g.pos.pieces[0] + 0x9E3779B97F4A7C15)
	h = mix64(h ^ g.pos.pieces[1])
	return mix64(h ^ extra)
}

// mix64 is the finaliser of MurmurHash3: a bijection that spreads every
// input bit over the whole word.
func mix64(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// Announce returns "": Sixes has nothing to say with a move.
func (g *Game) Announce(rules.Move) string { return "" }

// Tactical reports whether m, legal now, removes a piece: an opponent's
// piece it surrounds, or the moving piece itself when it walks into a trap.
func (g *Game) Tactical(m rules.Move) bool {
	p := g.toMove
	from, to := unpack(uint32(m))
	own := g.pos.pieces[p]&^(1<<from) | 1<<to
	opp := g.pos.pieces[p^1]
	taken := g.edges.surrounded(opp, own)
	return taken != 0 || g.edges.surrounded(own, opp&^taken) != 0
}

// Clone returns an independent copy of the game.
func (g *Game) Clone() rules.Game {
	c := *g
	c.saved = make([]position, len(g.saved))
	copy(c.saved, g.saved[:g.ply])
	c.hist = make([]rules.Move, len(g.hist))
	copy(c.hist, g.hist[:g.ply])
	return &c
}

// Standing returns the players' pieces now: it makes Sixes a
// rules.Scorer.
func (g *Game) Standing() ([2]int, string) {
	return [2]int{g.Pieces(rules.P1), g.Pieces(rules.P2)}, "pieces"
}
