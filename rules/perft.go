package rules

// Perft counts the move sequences of length depth from g's position,
// playing every move including those at the last ply. A finished game has
// no moves. g is left as it was.
func Perft[G Game](g G, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var list MoveList
	g.Moves(&list)
	if depth == 1 {
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
		n += Perft(g, depth-1)
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
	for i, m := range list.Slice() {
		moves[i] = m
		g.Play(m)
		counts[i] = Perft(g, depth-1)
		g.Undo()
	}
	return moves, counts
}
