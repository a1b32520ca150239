package hiya

import (
	"testing"

	"arbiter/rules"
)

// BenchmarkPerft measures rules.Perft (the last ply counted, not played)
// from the start at depth 5 and reports nodes per second. Its one allocation an op is
// rules.Perft's move lists.
func BenchmarkPerft(b *testing.B) {
	g := newGame(b, nil)
	const depth = 5
	var nodes uint64
	b.ReportAllocs()
	for b.Loop() {
		nodes += rules.Perft(g, depth)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkMoves measures move generation in the start position.
func BenchmarkMoves(b *testing.B) {
	g := newGame(b, nil)
	play(b, g, "E2B5", "C7F4", "E3E4")
	var list rules.MoveList
	b.ReportAllocs()
	for b.Loop() {
		g.Moves(&list)
	}
}

// BenchmarkPlayUndo measures playing and taking back every legal move of a
// position.
func BenchmarkPlayUndo(b *testing.B) {
	g := newGame(b, nil)
	play(b, g, "E2B5", "C7F4", "E3E4")
	var list rules.MoveList
	g.Moves(&list)
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range list.Slice() {
			g.Play(m)
			g.Undo()
		}
	}
	b.ReportMetric(float64(list.N), "moves/op")
}

// BenchmarkEvaluate measures the evaluation.
func BenchmarkEvaluate(b *testing.B) {
	g := newGame(b, nil)
	play(b, g, "E2B5", "C7F4", "E3E4")
	b.ReportAllocs()
	sum := 0
	for b.Loop() {
		sum += g.Evaluate()
	}
	_ = sum
}
