package rules

import "context"

// perftLeafDepth is the depth below which PerftContext hands a subtree to
// Perft without looking at ctx again: a few plies, whose count takes a
// small fraction of a second in every game (Gomoku's 225 × 224 leaves
// the most).
const perftLeafDepth = 2

// PerftContext is Perft that stops when ctx ends: it walks the plies above
// the last perftLeafDepth itself, looking at ctx before each move, and
// returns ctx's error (and no count) once ctx is done. g is left as it was.
func PerftContext[G Game](ctx context.Context, g G, depth int) (uint64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if depth <= perftLeafDepth {
		return Perft(g, depth), nil
	}
	// One allocation for every ply's move list: a move list is large
	// (MaxMoves moves), too large to make afresh for each subtree.
	return perftContext(ctx, g, make([]MoveList, depth))
}

// perftContext is PerftContext with lists[len(lists)-1] as this ply's move
// list and the rest for the plies below.
func perftContext[G Game](ctx context.Context, g G, lists []MoveList) (uint64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	depth := len(lists)
	if depth <= perftLeafDepth {
		if _, ok := any(g).(Perfter); ok || depth == 0 {
			return Perft(g, depth), nil
		}
		return perft(g, lists), nil
	}
	list := &lists[depth-1]
	g.Moves(list)
	var n uint64
	for _, m := range list.Slice() {
		g.Play(m)
		c, err := perftContext(ctx, g, lists[:depth-1])
		g.Undo()
		if err != nil {
			return 0, err
		}
		n += c
	}
	return n, nil
}

// DivideContext is Divide that stops when ctx ends, as PerftContext does.
func DivideContext[G Game](ctx context.Context, g G, depth int) ([]Move, []uint64, error) {
	var list MoveList
	g.Moves(&list)
	moves := append([]Move(nil), list.Slice()...)
	counts := make([]uint64, len(moves))
	var lists []MoveList
	if depth-1 > perftLeafDepth {
		lists = make([]MoveList, depth-1)
	}
	for i, m := range moves {
		g.Play(m)
		var c uint64
		var err error
		if lists != nil {
			c, err = perftContext(ctx, g, lists)
		} else {
			c, err = PerftContext(ctx, g, depth-1)
		}
		g.Undo()
		if err != nil {
			return nil, nil, err
		}
		counts[i] = c
	}
	return moves, counts, nil
}
