package upthrust

import (
	"testing"

	"arbiter/rules"
)

// perftDepth keeps one benchmark run short: about 130 thousand nodes.
const perftDepth = 7

// BenchmarkPerft measures rules.Perft from the start (colours=gb), which is
// Game.Perft: the last ply counted, not played, in nodes a second.
func BenchmarkPerft(b *testing.B) {
	g := newGB(b)
	var nodes uint64
	b.ReportAllocs()
	for b.Loop() {
		nodes += rules.Perft(g, perftDepth)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// perft is the plain perft walk on the concrete type with a list per ply:
// it lists and plays every move, the leaves too, as the reference for
// Game.Perft.
func perft(g *Game, depth int, lists []rules.MoveList) uint64 {
	list := &lists[0]
	g.Moves(list)
	if depth == 1 {
		for _, m := range list.Slice() {
			g.Play(m)
			g.Undo()
		}
		return uint64(list.N)
	}
	var n uint64
	for _, m := range list.Slice() {
		g.Play(m)
		n += perft(g, depth-1, lists[1:])
		g.Undo()
	}
	return n
}

// TestPerftHelper checks Game.Perft, which rules.Perft calls, against the
// plain walk.
func TestPerftHelper(t *testing.T) {
	g := newGB(t)
	lists := make([]rules.MoveList, 6)
	for depth := 1; depth <= 6; depth++ {
		if got, want := perft(g, depth, lists), rules.Perft(g, depth); got != want {
			t.Errorf("perft helper depth %d: %d, rules.Perft %d", depth, got, want)
		}
	}
}

// BenchmarkMoves measures move generation in a middle-game position.
func BenchmarkMoves(b *testing.B) {
	g := setup(b, mixedDiagram, rules.P1)
	var list rules.MoveList
	b.ReportAllocs()
	for b.Loop() {
		g.pos.status = statusUnknown
		g.Moves(&list)
	}
}

// BenchmarkPlayUndo measures playing and taking back each start move.
func BenchmarkPlayUndo(b *testing.B) {
	g := newGB(b)
	var list rules.MoveList
	g.Moves(&list)
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range list.Slice() {
			g.Play(m)
			g.Undo()
		}
	}
}

// BenchmarkEvaluate measures the evaluation of a middle-game position.
func BenchmarkEvaluate(b *testing.B) {
	g := setup(b, mixedDiagram, rules.P1)
	sink := 0
	b.ReportAllocs()
	for b.Loop() {
		sink += g.Evaluate()
	}
	_ = sink
}
