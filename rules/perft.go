package rules

// Perft counts the move sequences of length depth from g's position. A
// finished game has no moves. It plays every move above the last ply and
// counts the moves at the last ply without playing them (bulk counting), so
// it checks move generation everywhere and Play and Undo at every ply but
// the last. g is left as it was. It allocates once, for the move lists of
// all plies, however deep it goes. A game that is a Perfter counts itself.
func Perft[G Game](g G, depth int) uint64 {
	if p, ok := any(g).(Perfter); ok {
		return p.Perft(depth)
	}
	if depth <= 0 {
		return 1
	}
	lists := make([]MoveList, depth)
	return perft(g, lists)
}

// Perfter is a game with a perft walk of its own: on its concrete type, with
// direct calls the compiler can inline, and free to count the last ply
// without listing it. Perft(depth) returns what the generic walk returns,
// allocates at most once and leaves the game as it was.
type Perfter interface {
	Perft(depth int) uint64
}

// perft counts with lists[len(lists)-1] as this ply's move list.
func perft[G Game](g G, lists []MoveList) uint64 {
	list := &lists[len(lists)-1]
	g.Moves(list)
	if len(lists) == 1 {
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
