package sixes

import (
	"slices"
	"testing"

	"arbiter/rules"
)

// TestPerftFromStart checks the rules file's counts and its list of X's 16
// first moves, and our own deeper counts (checked against the reference
// implementation in naive_test.go) as regression tests.
func TestPerftFromStart(t *testing.T) {
	tests := []struct {
		edges  string
		counts []uint64
	}{
		{"off", []uint64{1, 16, 256, 4448, 76488, 1401872}},
		{"on", []uint64{1, 16, 256, 4448, 76504, 1402392}},
	}
	for _, tc := range tests {
		g, err := New(rules.Options{"edges": tc.edges})
		if err != nil {
			t.Fatal(err)
		}
		for depth, want := range tc.counts {
			if got := rules.Perft(g, depth); got != want {
				t.Errorf("edges=%s: perft(%d) = %d, want %d", tc.edges, depth, got, want)
			}
		}
	}
	g, _ := New(nil)
	first := []string{"a1 c1", "a1 a3", "a2 c2", "a2 a3", "b1 c1", "b1 b3", "b2 c2", "b2 b3",
		"e5 d5", "e5 e4", "e6 d6", "e6 e4", "f5 d5", "f5 f4", "f6 d6", "f6 f4"}
	slices.Sort(first)
	if got := moveTexts(g); !slices.Equal(got, first) {
		t.Errorf("X's first moves %v, want %v", got, first)
	}
}

// TestPerftFromPositions checks the fast perft against the reference from
// random positions, with both variants.
func TestPerftFromPositions(t *testing.T) {
	rng := newTestRand(5)
	for i := range 40 {
		edges := []string{"off", "on"}[i%2]
		diagram := randomDiagram(rng, 4+rng.IntN(8))
		toMove := rules.Player(rng.IntN(2))
		g, err := Setup(rules.Options{"edges": edges, "turns": "50"}, joinRows(diagram), toMove)
		if err != nil {
			t.Fatal(err)
		}
		n := newNaive(diagram, int(toMove)+1, 50, edges == "on")
		if got, want := rules.Perft(g, 3), n.perft(3); got != want {
			t.Errorf("position %d (edges=%s, %v to move):\n%s perft(3) = %d, reference %d", i, edges, toMove, g.Diagram(), got, want)
		}
	}
}

// perft is rules.Perft written for *Game directly, so that the compiler
// sees the concrete methods: it measures the package without the generic
// function's indirect calls.
func perft(g *Game, depth int, lists []rules.MoveList) uint64 {
	list := &lists[depth]
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

// BenchmarkPerft measures rules.Perft(g, 5) from the start, the last ply
// counted without being played, in nodes a second.
func BenchmarkPerft(b *testing.B) {
	g, _ := New(nil)
	var nodes uint64
	for b.Loop() {
		nodes += rules.Perft(g, 5)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkPerftDirect measures the walk that plays every leaf move too,
// through direct calls.
func BenchmarkPerftDirect(b *testing.B) {
	g, _ := New(nil)
	lists := make([]rules.MoveList, 6)
	var nodes uint64
	for b.Loop() {
		nodes += perft(g, 5, lists)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// benchPosition is a middle-game position reached by moves from the start.
func benchPosition(b *testing.B) *Game {
	g, _ := New(nil)
	for _, text := range []string{"e5 d5", "a5 a4", "b2 c2", "b5 c5", "d5 d4", "e2 e3", "c2 c3", "a4 b4"} {
		m, err := g.ParseMove(text)
		if err != nil {
			b.Fatal(err)
		}
		g.Play(m)
	}
	return g
}

func BenchmarkMoves(b *testing.B) {
	g := benchPosition(b)
	var list rules.MoveList
	for b.Loop() {
		g.Moves(&list)
	}
}

func BenchmarkPlayUndo(b *testing.B) {
	g := benchPosition(b)
	var list rules.MoveList
	g.Moves(&list)
	moves := list.Slice()
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

func BenchmarkStatusHash(b *testing.B) {
	g := benchPosition(b)
	var sink uint64
	for b.Loop() {
		sink += uint64(g.Status()) + g.Hash()
	}
	_ = sink
}

func BenchmarkEvaluate(b *testing.B) {
	g := benchPosition(b)
	sink := 0
	for b.Loop() {
		sink += g.Evaluate()
	}
	_ = sink
}

// TestNoAllocations proves that the inner-loop methods never allocate.
func TestNoAllocations(t *testing.T) {
	g, _ := New(rules.Options{"edges": "on"})
	var list rules.MoveList
	g.Moves(&list)
	m := list.Moves[3]
	allocs := testing.AllocsPerRun(200, func() {
		g.Moves(&list)
		g.Play(m)
		_ = g.Status()
		_ = g.Hash()
		_ = g.Evaluate()
		_ = g.Tactical(list.Moves[0])
		_ = g.MoveCount(rules.P1)
		g.Undo()
	})
	if allocs != 0 {
		t.Errorf("Moves/Play/Status/Hash/Evaluate/Tactical/Undo allocate %.1f times a run", allocs)
	}
}
