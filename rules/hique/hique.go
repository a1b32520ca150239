// Package hique is HiQUE (Gregg Steven Blasingame, 1998) as the CS 405 class
// plays it and as docs/rules/hique.md states it: five runners and four
// guards a side on a 13x13 coordinate grid, automatic removal of a runner
// touched by two enemy guards, a race to the far row, and the timing option
// for repetition, the turn limit and a player without a move.
//
// Coordinates are the game's own: x is the column, 1..13 from left to right,
// y the row, 1..13 from top to bottom. Runners stand on the light squares
// (both coordinates odd), guards on the dark points (both even, 2..12).
// Black is player 1: it sits at the top, moves first, and its forward is
// down (y grows).
//
// Invariants a change must keep: the perft counts of the rules file; the
// notation and the packing of a move (stored records depend on them); Moves,
// Play and Undo allocate nothing.
package hique

import (
	"fmt"
	"math/bits"
	"strconv"
	"time"

	"arbiter/rules"
)

// Name is the game's registry name.
const Name = "hique"

// DefaultTurns is the default turn limit (the `turns` option).
const DefaultTurns = 300

// MaxTurns bounds the `turns` option; the history storage is reserved for
// that many moves when a game starts.
const MaxTurns = 10000

// MoveTime is the class's per-move limit, the engine's default.
const MoveTime = 20 * time.Second

var (
	_ rules.Game   = (*Game)(nil)
	_ rules.Scorer = (*Game)(nil)
)

// optionSpecs returns the rules file's Variants.
func optionSpecs() []rules.OptionSpec {
	return []rules.OptionSpec{{
		Key:     "turns",
		Default: strconv.Itoa(DefaultTurns),
		Min:     1,
		Max:     MaxTurns,
		Help:    "single moves of both players together before the timing option decides the game",
	}}
}

// Definition describes HiQUE to the registry.
func Definition() rules.Definition {
	return rules.Definition{
		Name:     Name,
		Title:    "HiQUE",
		Players:  [2]string{"Black", "White"},
		Options:  optionSpecs(),
		MoveTime: MoveTime,
		Summary:  "Runners (5 a side) stand on the 7x7 light squares (odd x and y), guards (4 a side) on the 6x6 dark points between them (even x and y); a point is \"x y\", x the column 1..13, y the row 1..13 from the top. Black starts at the top and moves first. A runner steps one square (2 units) forward, left or right; a guard slides any distance along the dark points, never past another guard. After every move, any runner touched by two enemy guards is removed. A runner on the far row wins; so does taking all enemy runners. A third repetition, the turn limit or no legal move ends the game by the timing option: 1 point per runner plus 1 per row advanced. Moves: \"4 2 4 10\".",
		New:      rules.NewFunc(New),
	}
}

// endReason says why a game ended; endUnknown means not yet worked out for
// the current position.
type endReason uint8

const (
	endUnknown     endReason = iota
	endNone                  // ongoing
	endFarSide               // a runner of the mover reached its far row
	endNoRunnersP1           // Black has no runners left
	endNoRunnersP2           // White has no runners left
	endRepetition            // third occurrence, timing option
	endTurnLimit             // turn limit, timing option
	endNoMove                // player to move has no legal move, timing option
)

// position is everything the rules need about one position. Play pushes a
// copy of it and Undo pops it back (copy-make).
type position struct {
	runners [2]uint64    // light squares, per player (see board.go)
	guards  [2]uint64    // dark points, per player
	quiet   int32        // plies since the last forward runner move, removal or the start
	side    rules.Player // player to move
	end     endReason    // the end, worked out lazily by settle
	result  rules.Result // valid when end != endUnknown
	_       [5]byte      // pads the size to 48 bytes: whole 16-byte copies, no overlapping ones
}

// Game is a game of HiQUE in progress.
type Game struct {
	pos     position
	ply     int                // moves played
	stack   []position         // stack[i] is the position before move i; turns long, reserved at New
	history []Move             // history[i] is move i; turns long, reserved at New
	turns   int                // the turn limit
	opts    rules.FixedOptions // complete options
}

// Move is rules.Move; the alias keeps signatures short.
type Move = rules.Move

// New starts a game from the start position. opts may be partial (or nil):
// missing options take their defaults.
func New(opts rules.Options) (*Game, error) {
	g, err := newEmpty(opts)
	if err != nil {
		return nil, err
	}
	for _, x := range []int{3, 5, 7, 9, 11} {
		g.pos.runners[rules.P1] |= 1 << squareBit(x, 1)
		g.pos.runners[rules.P2] |= 1 << squareBit(x, 13)
	}
	for _, x := range []int{4, 6, 8, 10} {
		g.pos.guards[rules.P1] |= 1 << pointBit(x, 2)
		g.pos.guards[rules.P2] |= 1 << pointBit(x, 12)
	}
	return g, nil
}

// newEmpty returns a game with an empty board and Black to move.
func newEmpty(opts rules.Options) (*Game, error) {
	full, err := rules.Resolve(Name, optionSpecs(), opts)
	if err != nil {
		return nil, fmt.Errorf("hique options: %w", err)
	}
	turns, err := strconv.Atoi(full["turns"])
	if err != nil || turns < 1 || turns > MaxTurns {
		return nil, fmt.Errorf("hique options: turns=%s: turns must be a whole number from 1 to %d", full["turns"], MaxTurns)
	}
	return &Game{
		stack:   make([]position, turns),
		history: make([]Move, turns),
		turns:   turns,
		opts:    rules.Fix(full),
	}, nil
}

// Name returns "hique".
func (g *Game) Name() string { return Name }

// Options returns the complete options (a copy).
func (g *Game) Options() rules.Options { return g.opts.Options() }

// OptionsString returns Options().String() without copying the options.
func (g *Game) OptionsString() string { return g.opts.String() }

// ToMove returns the player whose turn it is.
func (g *Game) ToMove() rules.Player { return g.pos.side }

// PlayerName returns "Black" for player 1 and "White" for player 2.
func (g *Game) PlayerName(p rules.Player) string {
	if p == rules.P1 {
		return "Black"
	}
	return "White"
}

// Ply returns the number of moves played since the start (or since Setup).
func (g *Game) Ply() int { return g.ply }

// History returns the moves played, oldest first. The slice is the game's own.
func (g *Game) History() []Move { return g.history[:g.ply:g.ply] }

// TurnLimit returns the `turns` option: the number of single moves after
// which the timing option decides.
func (g *Game) TurnLimit() int { return g.turns }

// RunnerAt returns the owner of the runner on the light square x, y; ok is
// false if the square is empty or x, y is not a light square.
func (g *Game) RunnerAt(x, y int) (rules.Player, bool) { return g.pos.runnerAt(x, y) }

// RunnerBefore is RunnerAt in the position before the last move (the
// current one when no move was played), read from the game's own record of
// it: what a board needs to show what the last move removed, without a
// copy of the game.
func (g *Game) RunnerBefore(x, y int) (rules.Player, bool) {
	if g.ply == 0 {
		return g.pos.runnerAt(x, y)
	}
	return g.stack[g.ply-1].runnerAt(x, y)
}

// runnerAt is RunnerAt in p.
func (p *position) runnerAt(x, y int) (rules.Player, bool) {
	if !isSquare(x, y) {
		return rules.P1, false
	}
	b := uint64(1) << squareBit(x, y)
	switch {
	case p.runners[rules.P1]&b != 0:
		return rules.P1, true
	case p.runners[rules.P2]&b != 0:
		return rules.P2, true
	}
	return rules.P1, false
}

// GuardAt returns the owner of the guard on the dark point x, y; ok is false
// if the point is empty or x, y is not a dark point.
func (g *Game) GuardAt(x, y int) (rules.Player, bool) {
	if !isPoint(x, y) {
		return rules.P1, false
	}
	b := uint64(1) << pointBit(x, y)
	switch {
	case g.pos.guards[rules.P1]&b != 0:
		return rules.P1, true
	case g.pos.guards[rules.P2]&b != 0:
		return rules.P2, true
	}
	return rules.P1, false
}

// Runners returns the number of runners p has left.
func (g *Game) Runners(p rules.Player) int { return bits.OnesCount64(g.pos.runners[p&1]) }

// TimingScores returns the timing-option score of each player, Black
// first: for every runner on the board 1 point plus 1 point for each row it
// has advanced forward from its home row (row 1 for Black, row 13 for White).
func (g *Game) TimingScores() [2]int {
	return timingScores(&g.pos)
}

func timingScores(p *position) [2]int {
	nb := bits.OnesCount64(p.runners[rules.P1])
	nw := bits.OnesCount64(p.runners[rules.P2])
	return [2]int{nb + rowSum(p.runners[rules.P1]), 7*nw - rowSum(p.runners[rules.P2])}
}

// Repetitions returns how many times the current position (every piece and
// the side to move) has occurred, this time included; the start position
// (or the Setup position) counts as its first occurrence.
func (g *Game) Repetitions() int {
	n := 1
	top := g.ply
	limit := min(int(g.pos.quiet), top)
	for k := 2; k <= limit; k += 2 {
		p := &g.stack[top-k]
		if p.runners == g.pos.runners && p.guards == g.pos.guards {
			n++
		}
	}
	return n
}

// Status returns the result so far: Ongoing until the game ends. The end
// is worked out once per position, in the order of the rules file's End
// section.
func (g *Game) Status() rules.Result {
	if g.pos.end == endUnknown {
		g.settle()
	}
	return g.pos.result
}

// settle works out whether the current position ends the game, in the
// rules' order: far row, no runners, third occurrence, turn limit, no legal
// move. The mover is the player who just moved (for a Setup position, the
// player not to move).
func (g *Game) settle() {
	p := &g.pos
	mover := p.side.Other()
	switch {
	case p.runners[mover]&farRow(mover) != 0:
		p.end, p.result = endFarSide, rules.Win(mover)
	case p.runners[p.side] == 0:
		p.end, p.result = endNoRunnersP1+endReason(p.side), rules.Win(mover)
	case p.runners[mover] == 0:
		p.end, p.result = endNoRunnersP1+endReason(mover), rules.Win(p.side)
	case g.Repetitions() >= 3:
		p.end, p.result = endRepetition, timingResult(p)
	case g.ply >= g.turns:
		p.end, p.result = endTurnLimit, timingResult(p)
	case !hasMove(p):
		p.end, p.result = endNoMove, timingResult(p)
	default:
		p.end, p.result = endNone, rules.Ongoing
	}
}

// timingResult decides a game by the timing option.
func timingResult(p *position) rules.Result {
	s := timingScores(p)
	return rules.ByScore(s[0], s[1])
}

// Outcome returns the result with its reason in words; a game decided by
// the timing option has the scores (Black first).
func (g *Game) Outcome() rules.Outcome {
	res := g.Status()
	o := rules.Outcome{Result: res}
	timing := func(what string) {
		s := timingScores(&g.pos)
		o.Scores, o.HasScores = s, true
		o.Reason = fmt.Sprintf("%s, timing option %d to %d", what, s[0], s[1])
	}
	switch g.pos.end {
	case endFarSide:
		o.Reason = "runner reached the far side"
	case endNoRunnersP1:
		o.Reason = "Black has no runners left"
	case endNoRunnersP2:
		o.Reason = "White has no runners left"
	case endRepetition:
		timing("threefold repetition")
	case endTurnLimit:
		timing("turn limit reached")
	case endNoMove:
		timing(g.PlayerName(g.pos.side) + " has no legal move")
	}
	return o
}

// Hash identifies the position: every runner and guard and the side to
// move. It is a strong mixer over the four bitboards, so it needs no key
// table.
func (g *Game) Hash() uint64 {
	p := &g.pos
	h := rules.Mix64(p.runners[0]^0x9e3779b97f4a7c15) ^
		rules.Mix64(p.runners[1]^0xc2b2ae3d27d4eb4f) ^
		rules.Mix64(p.guards[0]^0x165667b19e3779f9) ^
		rules.Mix64(p.guards[1]^0xd6e8feb86659fd93)
	if p.side == rules.P2 {
		h = rules.Mix64(h ^ 0x27d4eb2f165667c5)
	}
	return h
}

// Clone returns an independent copy of the game.
func (g *Game) Clone() rules.Game { return g.clone() }

func (g *Game) clone() *Game {
	c := *g
	c.stack = make([]position, len(g.stack))
	copy(c.stack[:g.ply], g.stack)
	c.history = make([]Move, len(g.history))
	copy(c.history[:g.ply], g.history)
	return &c
}

// Announce returns "": HiQUE has nothing to announce.
func (g *Game) Announce(m Move) string { return "" }

// Standing returns the timing-option scores now: it makes HiQUE a
// rules.Scorer.
func (g *Game) Standing() ([2]int, string) { return g.TimingScores(), "timing option" }
