package hique

import (
	"testing"

	"arbiter/rules"
)

// BenchmarkPerft measures perft 5 from the start (the last ply counted,
// not played) in nodes per second.
func BenchmarkPerft(b *testing.B) {
	g, err := New(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var nodes uint64
	for b.Loop() {
		nodes += rules.Perft(g, 5)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// midgame returns a position with many moves on both sides.
func midgame(b *testing.B) *Game {
	g, err := New(nil)
	if err != nil {
		b.Fatal(err)
	}
	playAll(b, g, "4 2 4 8", "6 12 6 6", "3 1 3 3", "9 13 9 11", "3 3 3 5")
	return g
}

func BenchmarkMoves(b *testing.B) {
	g := midgame(b)
	var list rules.MoveList
	b.ReportAllocs()
	for b.Loop() {
		g.Moves(&list)
	}
}

func BenchmarkPlayUndo(b *testing.B) {
	g := midgame(b)
	var list rules.MoveList
	g.Moves(&list)
	moves := list.Slice()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		g.Play(moves[i])
		g.Undo()
		i++
		if i == len(moves) {
			i = 0
		}
	}
}

func BenchmarkHash(b *testing.B) {
	g := midgame(b)
	var h uint64
	for b.Loop() {
		h += g.Hash()
	}
	_ = h
}

func BenchmarkEvaluate(b *testing.B) {
	g := midgame(b)
	s := 0
	for b.Loop() {
		s += g.Evaluate()
	}
	_ = s
}

// perft is the perft walk that plays every leaf move too, on the concrete
// type with move lists from the caller (len(lists) >= depth), so that it
// allocates nothing (rules.Perft allocates its lists once a call) and makes
// direct calls (rules.Perft, generic over pointer types, calls the game
// through a dictionary).
func perft(g *Game, depth int, lists []rules.MoveList) uint64 {
	if depth == 0 {
		return 1
	}
	list := &lists[depth-1]
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
		n += perft(g, depth-1, lists)
		g.Undo()
	}
	return n
}

// BenchmarkPerftConcrete measures that walk, every leaf move played, on
// *Game with preallocated move lists.
func BenchmarkPerftConcrete(b *testing.B) {
	g, err := New(nil)
	if err != nil {
		b.Fatal(err)
	}
	var lists [5]rules.MoveList
	b.ReportAllocs()
	var nodes uint64
	for b.Loop() {
		nodes += perft(g, 5, lists[:])
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
