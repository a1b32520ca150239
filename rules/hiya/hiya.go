// Package hiya plays Hi-Ya!, the CSC 180 (Fall 2017) game of Ninjas and
// Samurai on a board of 7 columns and 8 rows, exactly as
// docs/rules/hiya.md states it.
//
// Pieces move only onto empty squares and attack by landing directly in
// front of an opposing piece, which is hurt: a Ninja or Samurai becomes a
// mini, a mini is removed, and a King removed loses the game. A player with
// no legal move on their turn loses too; there are no draws.
//
// The position is kept in bitboards on an 8x8 grid (square = (row-1)*8 +
// (col-1), the eighth column always empty), so that sliding off a side of
// the board lands on that padding column and stops. Play keeps what Undo
// needs (the hash before the move and the kind of piece it hurt) in storage
// reserved at creation, so Moves, Play, Undo, Status and Hash allocate
// nothing.
//
// Invariants a change must keep: the perft counts of the rules file; the
// notation and the packing of a move (stored records depend on them); Moves,
// Play, Undo, Status and Hash allocate nothing.
package hiya

import (
	"fmt"
	"time"

	"arbiter/rules"
)

// Side is South (the bottom side, moving up) or North (the top side,
// moving down).
type Side uint8

// The two sides.
const (
	South Side = iota
	North
)

// String returns "South" or "North".
func (s Side) String() string {
	if s == South {
		return "South"
	}
	return "North"
}

// Kind is a kind of piece.
type Kind uint8

// The kinds of pieces.
const (
	King Kind = iota
	Ninja
	Samurai
	MiniNinja
	MiniSamurai
	numKinds = 5
)

// Letter returns the kind's letter in the rules file: 'K', 'J', 'S', 'j' or
// 's'.
func (k Kind) Letter() byte {
	return "KJSjs?"[min(int(k), numKinds)]
}

// String returns the kind's name: "King", "Ninja", "Samurai", "mini-Ninja"
// or "mini-Samurai".
func (k Kind) String() string {
	switch k {
	case King:
		return "King"
	case Ninja:
		return "Ninja"
	case Samurai:
		return "Samurai"
	case MiniNinja:
		return "mini-Ninja"
	case MiniSamurai:
		return "mini-Samurai"
	}
	return "unknown piece"
}

// gameName is the registry name.
const gameName = "hiya"

// optionSpecs are the Variants of the rules file.
func optionSpecs() []rules.OptionSpec {
	return []rules.OptionSpec{{
		Key:     "first",
		Default: "south",
		Values:  []string{"south", "north"},
		Help:    "which side moves first (player 1 is the side that moves first)",
	}}
}

// Definition describes Hi-Ya! to the registry. Players are named for the
// default first=south; with first=north player 1 is North (see PlayerName).
func Definition() rules.Definition {
	return rules.Definition{
		Name:     gameName,
		Title:    "Hi-Ya!",
		Players:  [2]string{"South", "North"},
		Options:  optionSpecs(),
		MoveTime: 5 * time.Second,
		Summary:  "A 7x8 board, columns A..G and rows 1..8; South moves up, North down. Ninjas slide diagonally forward, Samurai straight forward; mini-Ninjas and mini-Samurai step one square. A move attacks when it lands right in front of an enemy piece: that piece is hurt (a Ninja or Samurai becomes a mini, a mini is removed, a King is removed and its side loses). Backward (Ninja) and sideways (Samurai) moves are allowed only when they attack. Kings never move. A player with no legal move loses. Moves: \"E2B5\" (with \"Hi-YA!\" after an attack).",
		NoDraws:  true,
		New:      rules.NewFunc(New),
	}
}

// historyCap is the history reserved at creation. A game from the start
// cannot be longer. A move that does not attack goes forward, so a piece's
// forward moves number at most the rows ahead of it at the start plus 7 for
// each of its backward attacks; a side's pieces start with 66 rows ahead of
// them and the side attacks at most 19 times (3 Ninjas and 3 Samurai twice,
// 6 minis, the King), so a game lasts at most 2 x (66 + 7x19 + 19) = 436
// moves. (A longer game from a Setup position grows the history.)
const historyCap = 512

// Game is a game of Hi-Ya! in progress. The zero value is not usable; make
// one with New or Setup.
type Game struct {
	opts    rules.FixedOptions
	first   Side          // the side that moves first: player 1
	keys    *zobristKeys  // shared by clones: never changed
	squares *squareValues // shared by clones: never changed
	pos     position
	undo    []undoInfo // for each move played, what Undo needs
	hist    []rules.Move
}

var _ rules.Game = (*Game)(nil)

// New starts a game from the start position. opts may be partial (even nil):
// missing options take their defaults, and bad values are an error that says
// what is allowed.
func New(opts rules.Options) (*Game, error) {
	full, err := rules.Resolve(gameName, optionSpecs(), opts)
	if err != nil {
		return nil, err
	}
	first := South
	switch full["first"] {
	case "south":
	case "north":
		first = North
	default:
		return nil, fmt.Errorf("first=%s: first must be south or north", full["first"])
	}
	g := &Game{
		opts:    rules.Fix(full),
		first:   first,
		keys:    newZobristKeys(),
		squares: newSquareValues(),
		undo:    make([]undoInfo, 0, historyCap),
		hist:    make([]rules.Move, 0, historyCap),
	}
	g.pos = startPosition(first)
	g.pos.hash = g.pos.computeHash(g.keys)
	g.pos.placed = g.pos.placement(g.squares)
	return g, nil
}

// Name returns "hiya".
func (g *Game) Name() string { return gameName }

// Options returns the complete options the game was created with.
func (g *Game) Options() rules.Options { return g.opts.Options() }

// OptionsString returns Options().String() without copying the options.
func (g *Game) OptionsString() string { return g.opts.String() }

// ToMove returns the player whose turn it is.
func (g *Game) ToMove() rules.Player { return g.PlayerOf(g.pos.toMove) }

// PlayerOf returns the player that plays side s: player 1 is the side that
// moves first (option first).
func (g *Game) PlayerOf(s Side) rules.Player {
	if s == g.first {
		return rules.P1
	}
	return rules.P2
}

// SideOf returns the side that player p plays.
func (g *Game) SideOf(p rules.Player) Side {
	if p == rules.P1 {
		return g.first
	}
	return g.first ^ 1
}

// SideToMove returns the side whose turn it is.
func (g *Game) SideToMove() Side { return g.pos.toMove }

// PlayerName returns "South" or "North", the side player p plays.
func (g *Game) PlayerName(p rules.Player) string { return g.SideOf(p).String() }

// Ply returns the number of moves played.
func (g *Game) Ply() int { return len(g.hist) }

// History returns the moves played, oldest first. The slice is the game's
// own; callers must not change it.
func (g *Game) History() []rules.Move { return g.hist[:len(g.hist):len(g.hist)] }

// PieceAt returns the piece on column col (1..7 = A..G) and row row (1..8),
// and false when the square is empty or off the board.
func (g *Game) PieceAt(col, row int) (Kind, Side, bool) {
	if col < 1 || col > cols || row < 1 || row > rows {
		return 0, 0, false
	}
	return g.pos.pieceOn(square(col, row))
}

// PieceBefore is PieceAt in the position before the last move (the current
// one when no move was played), worked out from the game's record of the
// move: what a board needs to show the piece the last move hurt, without a
// copy of the game.
func (g *Game) PieceBefore(col, row int) (Kind, Side, bool) {
	if col < 1 || col > cols || row < 1 || row > rows {
		return 0, 0, false
	}
	p := g.pos
	if n := len(g.hist); n > 0 {
		p.unplay(g.hist[n-1], g.undo[n-1])
	}
	return p.pieceOn(square(col, row))
}

// Pieces returns the number of pieces side s has left, its King included.
func (g *Game) Pieces(s Side) int { return popcount(g.pos.side[s]) }

// Status returns the result so far: Ongoing until a King is attacked or
// the player to move has no legal move.
func (g *Game) Status() rules.Result {
	over, winner := g.pos.state()
	if over == notOver {
		return rules.Ongoing
	}
	return rules.Win(g.PlayerOf(winner))
}

// Outcome returns the result with its reason: "king attacked" or "no legal
// move". Hi-Ya! has no scores and no draws.
func (g *Game) Outcome() rules.Outcome {
	o := rules.Outcome{Result: g.Status()}
	switch over, _ := g.pos.state(); over {
	case overKing:
		o.Reason = "king attacked"
	case overNoMove:
		o.Reason = "no legal move"
	}
	return o
}

// Hash returns the position's Zobrist hash: pieces and side to move.
func (g *Game) Hash() uint64 { return g.pos.hash }

// Clone returns an independent copy of the game, with the same reserved
// history capacity.
func (g *Game) Clone() rules.Game { return g.clone() }

func (g *Game) clone() *Game {
	c := &Game{
		opts:    g.opts,
		first:   g.first,
		keys:    g.keys,
		squares: g.squares,
		pos:     g.pos,
		undo:    make([]undoInfo, len(g.undo), max(cap(g.undo), historyCap)),
		hist:    make([]rules.Move, len(g.hist), max(cap(g.hist), historyCap)),
	}
	copy(c.undo, g.undo)
	copy(c.hist, g.hist)
	return c
}
