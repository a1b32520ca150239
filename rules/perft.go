package rules

// Perft counts the move sequences of length depth from g's position,
// playing every move including those at the last ply. A finished game has
// no moves. g is left as it was. It allocates once, for the move lists of
// all plies, however deep it goes.
func Perft[G Game](g G, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	lists := make([]MoveList, depth)
	return perft(g, lists)
}

// perft counts with lists[len(lists)-1] as this ply's move list.
func perft[G Game](g G, lists []MoveList) uint64 {
	list := &lists[len(lists)-1]
	g.Moves(list)
	if len(lists) == 1 {
		// Play the leaf moves too, as the perft contract asks: it checks
		// Play and Undo, not only generation.
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

// Divide returns, for each legal move in order, the perft count of depth-1
// after it.
func Divide[G Game](g G, depth int) ([]Move, []uint64) {
	var list MoveList
	g.Moves(&list)
	moves := make([]Move, list.N)
	counts := make([]uint64, list.N)
	copy(moves, list.Slice())
	for i, m := range moves {
		g.Play(m)
		counts[i] = Perft(g, depth-1)
		g.Undo()
	}
	return moves, counts
}
