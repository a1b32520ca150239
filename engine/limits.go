package engine

import (
	"fmt"
	"strings"
	"time"

	"arbiter/rules"
)

// Limits bound one search. A zero field sets no bound; a search with no
// bound at all stops at MaxDepth.
type Limits struct {
	MoveTime time.Duration // the time for the move: the answer comes back within it
	Depth    int           // the deepest iteration, in plies
	Nodes    uint64        // the most positions to visit
}

// String writes the limits as "movetime 100ms depth 6 nodes 10000",
// leaving out the unset ones.
func (l Limits) String() string {
	var parts []string
	if l.MoveTime > 0 {
		parts = append(parts, "movetime "+l.MoveTime.String())
	}
	if l.Depth > 0 {
		parts = append(parts, fmt.Sprintf("depth %d", l.Depth))
	}
	if l.Nodes > 0 {
		parts = append(parts, fmt.Sprintf("nodes %d", l.Nodes))
	}
	if len(parts) == 0 {
		return "no limit"
	}
	return strings.Join(parts, " ")
}

// Info reports what a search found and what it cost.
type Info struct {
	Move    rules.Move    // the chosen move; rules.NoMove only when there is no legal move
	Score   int           // for the player to move, in hundredths of a piece or a mate score
	Depth   int           // the last iteration completed
	Nodes   uint64        // positions visited, quiescence included
	Elapsed time.Duration // wall time of the search
	CPU     time.Duration // processor time of an outside program's move, 0 when unknown
	PV      []rules.Move  // the expected line, starting with Move
	Drawn   bool          // the move was drawn at random for the opening, not chosen: its time is not the player's
}

// Mate is the score of a won game at the root; a game won at ply p scores
// Mate-p, lost -(Mate-p). Scores beyond ±MateBound are such wins and losses.
const (
	Mate      = 30000
	MateBound = Mate - MaxPly
)

// MaxPly bounds the depth of the search, quiescence included.
const MaxPly = 128

// MaxDepth is the deepest iteration a search without a depth limit makes.
const MaxDepth = MaxPly - 32

// MateIn returns, for a mate score, the number of moves (of the winner) to
// the end and true; false for any other score. A negative count means the
// player to move is the one mated.
func MateIn(score int) (int, bool) {
	switch {
	case score > MateBound:
		return (Mate - score + 1) / 2, true
	case score < -MateBound:
		return -(Mate + score + 1) / 2, true
	}
	return 0, false
}

// ScoreString writes a score as "+0.35", or as "win in 3" or "loss in 2" for
// a forced result.
func ScoreString(score int) string {
	if n, ok := MateIn(score); ok {
		if n >= 0 {
			return fmt.Sprintf("win in %d", n)
		}
		return fmt.Sprintf("loss in %d", -n)
	}
	sign := "+"
	if score < 0 {
		sign = "-"
		score = -score
	}
	return fmt.Sprintf("%s%d.%02d", sign, score/100, score%100)
}

// ClassMoveTime returns the class's per-move limit of the game name
// (rules.Definition.MoveTime), or 5 s for a game that sets none or that
// reg (which may be nil) does not hold.
func ClassMoveTime(reg *rules.Registry, name string) time.Duration {
	if reg == nil {
		return 5 * time.Second
	}
	if def, err := reg.Lookup(name); err == nil && def.MoveTime > 0 {
		return def.MoveTime
	}
	return 5 * time.Second
}
