package engine

import (
	"arbiter/sandbox"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"arbiter/rules"
)

// Player chooses moves for one side of a game: Arbiter's engine at a level,
// a yardstick, or an outside program.
type Player interface {
	// Choose returns a legal move for the player to move in g within lim
	// and ctx. g is not changed. An outside program that fails returns a
	// *ForfeitError: it loses the game with that reason.
	Choose(ctx context.Context, g rules.Game, lim Limits) (rules.Move, Info, error)
	// End tells the player that g is over (or abandoned) and releases what
	// it holds for that game (an outside program is told the result and
	// stopped).
	End(g rules.Game)
	// String returns the player's spec, e.g. "arbiter:3".
	String() string
}

// ForfeitError is a player's failure that loses the game: a program that
// crashed, hung, overran its time, printed garbage or played an illegal
// move.
type ForfeitError struct {
	Reason string // in words, e.g. "timed out: no move within 100ms"
}

// Error returns the reason.
func (e *ForfeitError) Error() string { return e.Reason }

// PlayerOptions tune the players NewPlayer makes.
type PlayerOptions struct {
	// Registry holds the games the players may be asked to play: their
	// class move times are the default move times.
	Registry *rules.Registry
	// Seed makes the players' random choices repeatable.
	Seed uint64
	// TableMB is the transposition table size of an arbiter player
	// (DefaultTableMB when 0).
	TableMB int
	// Stderr, when set, receives an outside program's standard error.
	Stderr io.Writer
	// Grace is the time an outside program may take beyond its move time
	// before it loses on time (DefaultGrace when 0).
	Grace time.Duration
	// Sandbox is the box an outside program runs in (nil: a box with the
	// default policy, see package sandbox).
	Sandbox *sandbox.Sandbox
}

// Box returns the sandbox a player of these options runs its program in:
// Sandbox, or the default one.
func (o PlayerOptions) Box() *sandbox.Sandbox {
	if o.Sandbox != nil {
		return o.Sandbox
	}
	return sandbox.New(sandbox.Policy{})
}

// Specs describes the player specs NewPlayer reads, for help texts.
const Specs = "arbiter[:LEVEL] (LEVEL 1..5, default 5), random, greedy, alphabeta:N (N 1..8), exec:COMMAND"

// NewPlayer returns the player a spec names:
//
//	arbiter[:LEVEL]  Arbiter's engine at LEVEL 1..5 (default 5; see Level)
//	random           a uniformly random legal move
//	greedy           the move with the best evaluation one move ahead
//	alphabeta:N      plain fixed-depth alpha-beta over Material, N plies
//	exec:COMMAND     an outside program speaking the engine protocol
//	                 (COMMAND runs under /bin/sh -c; cmd.exe /c on Windows),
//	                 in opt's sandbox
func NewPlayer(spec string, opt PlayerOptions) (Player, error) {
	spec = strings.TrimSpace(spec)
	kind, arg, hasArg := strings.Cut(spec, ":")
	kind = strings.ToLower(kind)
	rng := rand.New(rand.NewPCG(opt.Seed, 0x5eed))
	switch kind {
	case "arbiter":
		level := 5
		if hasArg {
			n, err := strconv.Atoi(arg)
			if err != nil || n < 1 || n > 5 {
				return nil, fmt.Errorf("player %q: the level must be 1 to 5", spec)
			}
			level = n
		}
		return NewArbiter(opt.Registry, Level(level), opt.TableMB, rng), nil
	case "random", "greedy":
		if hasArg {
			return nil, fmt.Errorf("player %q: %s takes no argument", spec, kind)
		}
		if kind == "random" {
			return &randomPlayer{rng: rng}, nil
		}
		return &greedyPlayer{rng: rng}, nil
	case "alphabeta":
		n, err := strconv.Atoi(arg)
		if !hasArg || err != nil || n < 1 || n > 8 {
			return nil, fmt.Errorf("player %q: write alphabeta:N with a depth N from 1 to 8", spec)
		}
		return &alphaBetaPlayer{depth: n, rng: rng}, nil
	case "exec":
		if strings.TrimSpace(arg) == "" {
			return nil, fmt.Errorf("player %q: write exec:COMMAND, e.g. exec:\"./myprog --fast\"", spec)
		}
		return NewExecPlayer(opt.Registry, arg, opt.Stderr, opt.Grace).InBox(opt.Box()), nil
	}
	return nil, fmt.Errorf("unknown player %q: a player is %s", spec, Specs)
}

// Level is the strength of Arbiter's engine as a bot opponent, 1 to 5:
//
//	1  beginner: a 1-ply search (with its capture search), then a random
//	   pick among the moves near the best; about even with greedy
//	2  novice: a search capped at 280-500 positions
//	3  club: a search capped at 1200-3500 positions
//	4  strong: a search capped at 6500-18000 positions
//	5  full strength: the full search in the whole move time
//
// Levels 1-4 are capped by positions visited, so they play the same at any
// move time and on any machine, once the move time is not the binding
// limit (at 10 ms a move it seldom is): each scores 65-85% against the one
// below at every move time. Level 5 grows stronger with the time: the step from level 4 is
// even at 10 ms a move and larger at the class's time.
//
// The exact settings are per game (ladderOf, engine/levels.go), measured
// with `arbiter match` for even steps (docs/explanation/levels.md). Level 1's random
// pick is among the moves within a share (its margin) of the typical loss:
// the mean amount by which the position's root moves score below the best
// one (forced wins and losses left out), so the margin follows the
// evaluation's spread whatever the game's scale.
//
// Every level takes a win it sees (a win in one at least) and avoids a loss
// in one when it can; the random choice is never among losing moves. With
// no limit given, the move time is the class's per-move limit of the game
// (rules.Definition.MoveTime).
type Level int

// Arbiter is Arbiter's engine as a player at a level.
type Arbiter struct {
	level Level
	eng   *Engine
	rng   *rand.Rand
	reg   *rules.Registry
}

// NewArbiter returns Arbiter's engine playing at level (clamped to 1..5)
// with a table of tableMB megabytes; rng drives the lower levels' random
// choices (nil: a fixed seed). reg gives the class move time of a game
// searched with no limits (nil: 5 s).
func NewArbiter(reg *rules.Registry, level Level, tableMB int, rng *rand.Rand) *Arbiter {
	level = max(1, min(5, level))
	if rng == nil {
		rng = rand.New(rand.NewPCG(1, 2))
	}
	return &Arbiter{level: level, eng: NewEngine(tableMB), rng: rng, reg: reg}
}

// String returns "arbiter:LEVEL".
func (a *Arbiter) String() string { return fmt.Sprintf("arbiter:%d", a.level) }

// End does nothing: the engine keeps its table for the next game.
func (a *Arbiter) End(rules.Game) {}

// Limits returns the limits the level searches with, given the caller's:
// the class's move time when none is given, then the level's node and
// depth caps.
func (a *Arbiter) Limits(g rules.Game, lim Limits) Limits {
	if lim.MoveTime == 0 && lim.Depth == 0 && lim.Nodes == 0 {
		lim.MoveTime = ClassMoveTime(a.reg, g.Name())
	}
	set := a.level.settings(g.Name())
	if set.nodes > 0 && (lim.Nodes == 0 || lim.Nodes > set.nodes) {
		lim.Nodes = set.nodes
	}
	if set.depth > 0 && (lim.Depth == 0 || lim.Depth > set.depth) {
		lim.Depth = set.depth
	}
	return lim
}

// Choose searches g at the player's level and returns its move.
func (a *Arbiter) Choose(ctx context.Context, g rules.Game, lim Limits) (rules.Move, Info, error) {
	lim = a.Limits(g, lim)
	margin := a.level.settings(g.Name()).margin
	if margin == 0 {
		info := a.eng.Search(ctx, g, lim)
		return a.result(info)
	}
	info, scores := a.eng.search(ctx, g, lim, true)
	if len(scores) > 0 {
		best := -inf
		for _, s := range scores {
			best = max(best, s.Score)
		}
		if best > MateBound {
			margin = 0 // a win: take the quickest
		}
		margin = margin * typicalLoss(scores, best) / 100
		var near []rootScore
		for _, s := range scores {
			if s.Score >= best-margin && (s.Score > -MateBound || best <= -MateBound) {
				near = append(near, s)
			}
		}
		pick := near[a.rng.IntN(len(near))]
		info.Move, info.Score, info.PV = pick.Move, pick.Score, []rules.Move{pick.Move}
	}
	return a.result(info)
}

// result turns a search's info into Choose's answer.
func (a *Arbiter) result(info Info) (rules.Move, Info, error) {
	if info.Move == rules.NoMove {
		return rules.NoMove, info, errNoMove
	}
	return info.Move, info, nil
}

// errNoMove is Choose's error for a finished game.
var errNoMove = errors.New("no legal move: the game is over")

// typicalLoss is the mean amount by which the root moves that neither win
// nor lose by force score below the best: the evaluation's spread in this
// position, whatever the game's scale. A level's margin is a share of it.
func typicalLoss(scores []rootScore, best int) int {
	sum, n := 0, 0
	for _, s := range scores {
		if abs(s.Score) < MateBound {
			sum += best - s.Score
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / n
}
