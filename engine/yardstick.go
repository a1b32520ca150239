package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"arbiter/rules"
)

// The yardstick players measure the engine. They ignore the move time:
// random and greedy need none, and alphabeta:N always searches its N plies
// (it stops only when ctx is done, with the best move so far).

// randomPlayer plays a uniformly random legal move.
type randomPlayer struct{ rng *rand.Rand }

func (p *randomPlayer) String() string   { return "random" }
func (p *randomPlayer) End(g rules.Game) {}

func (p *randomPlayer) Choose(ctx context.Context, g rules.Game, lim Limits) (rules.Move, Info, error) {
	start := time.Now()
	var list rules.MoveList
	g.Moves(&list)
	if list.N == 0 {
		return rules.NoMove, Info{Move: rules.NoMove}, errNoMove
	}
	m := list.Moves[p.rng.IntN(list.N)]
	return m, Info{Move: m, Nodes: 1, Elapsed: time.Since(start)}, nil
}

// greedyPlayer plays the move after which the evaluation is best for it: a
// win at once first, a loss at once last, ties broken at random.
type greedyPlayer struct{ rng *rand.Rand }

func (p *greedyPlayer) String() string   { return "greedy" }
func (p *greedyPlayer) End(g rules.Game) {}

func (p *greedyPlayer) Choose(ctx context.Context, g rules.Game, lim Limits) (rules.Move, Info, error) {
	start := time.Now()
	g = g.Clone()
	var list rules.MoveList
	g.Moves(&list)
	if list.N == 0 {
		return rules.NoMove, Info{Move: rules.NoMove}, errNoMove
	}
	me := g.ToMove()
	best, ties := -inf-1, 0
	choice := list.Moves[0]
	for _, m := range list.Slice() {
		g.Play(m)
		score := -clampEval(g.Evaluate())
		if g.ToMove() == me { // a move again: the evaluation is the mover's
			score = -score
		}
		if r := g.Status(); r != rules.Ongoing {
			score = resultScore(r, me, 1)
		}
		g.Undo()
		switch {
		case score > best:
			best, choice, ties = score, m, 1
		case score == best:
			ties++
			if p.rng.IntN(ties) == 0 {
				choice = m
			}
		}
	}
	return choice, Info{Move: choice, Score: best, Depth: 1, Nodes: uint64(list.N), Elapsed: time.Since(start)}, nil
}

// resultScore scores a finished game for player me at ply.
func resultScore(r rules.Result, me rules.Player, ply int) int {
	w, ok := r.Winner()
	switch {
	case !ok:
		return 0
	case w == me:
		return Mate - ply
	}
	return -(Mate - ply)
}

// alphaBetaPlayer is plain fixed-depth negamax alpha-beta over the game's
// Material, with mate-distance scores, moves in generation order, no table
// and no quiescence; equal best moves at the root are chosen at random.
type alphaBetaPlayer struct {
	depth int
	rng   *rand.Rand
	nodes uint64
	ctx   context.Context
	lists [16]rules.MoveList
}

func (p *alphaBetaPlayer) String() string   { return fmt.Sprintf("alphabeta:%d", p.depth) }
func (p *alphaBetaPlayer) End(g rules.Game) {}

func (p *alphaBetaPlayer) Choose(ctx context.Context, g rules.Game, lim Limits) (rules.Move, Info, error) {
	start := time.Now()
	g = g.Clone()
	p.nodes, p.ctx = 0, ctx
	defer func() { p.ctx = nil }()
	var list rules.MoveList
	g.Moves(&list)
	if list.N == 0 {
		return rules.NoMove, Info{Move: rules.NoMove}, errNoMove
	}
	me := g.ToMove()
	best, ties := -inf, 0
	choice := list.Moves[0]
	for _, m := range list.Slice() {
		g.Play(m)
		// A window just below the best so far tells equal moves apart.
		var score int
		if g.ToMove() == me { // a move again
			score = p.negamax(g, p.depth-1, 1, best-1, inf)
		} else {
			score = -p.negamax(g, p.depth-1, 1, -inf, -(best - 1))
		}
		g.Undo()
		if ctx.Err() != nil {
			break
		}
		switch {
		case score > best:
			best, choice, ties = score, m, 1
		case score == best:
			ties++
			if p.rng.IntN(ties) == 0 {
				choice = m
			}
		}
	}
	return choice, Info{Move: choice, Score: best, Depth: p.depth, Nodes: p.nodes, Elapsed: time.Since(start)}, nil
}

func (p *alphaBetaPlayer) negamax(g rules.Game, depth, ply, alpha, beta int) int {
	p.nodes++
	if r := g.Status(); r != rules.Ongoing {
		return resultScore(r, g.ToMove(), ply)
	}
	if depth == 0 || (p.nodes&1023 == 0 && p.ctx.Err() != nil) {
		return clampEval(g.Material())
	}
	list := &p.lists[ply]
	g.Moves(list)
	best := -inf
	for i := 0; i < list.N; i++ {
		mover := g.ToMove()
		g.Play(list.Moves[i])
		var score int
		if g.ToMove() == mover { // a move again
			score = p.negamax(g, depth-1, ply+1, alpha, beta)
		} else {
			score = -p.negamax(g, depth-1, ply+1, -beta, -alpha)
		}
		g.Undo()
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}
