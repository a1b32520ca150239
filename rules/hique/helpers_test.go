package hique

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"arbiter/rules"
)

// diagramOf returns a Setup diagram holding the pieces listed in specs,
// each "c x y" with c one of b, w, B, W; for example "b 5 5", "W 4 8".
func diagramOf(specs ...string) string {
	var grid [13][13]byte
	for y := range grid {
		for x := range grid[y] {
			grid[y][x] = '.'
		}
	}
	for _, s := range specs {
		var c string
		var x, y int
		if _, err := fmt.Sscanf(s, "%s %d %d", &c, &x, &y); err != nil {
			panic(fmt.Sprintf("diagramOf(%q): %v", s, err))
		}
		grid[y-1][x-1] = c[0]
	}
	var b strings.Builder
	for y := range grid {
		b.Write(grid[y][:])
		b.WriteByte('\n')
	}
	return b.String()
}

// setup builds a position or fails the test.
func setup(t testing.TB, opts rules.Options, toMove rules.Player, specs ...string) *Game {
	t.Helper()
	g, err := Setup(opts, diagramOf(specs...), toMove)
	if err != nil {
		t.Fatalf("Setup(%v): %v", specs, err)
	}
	return g
}

// start returns a new game from the start with the given options.
func start(t testing.TB, opts rules.Options) *Game {
	t.Helper()
	g, err := New(opts)
	if err != nil {
		t.Fatalf("New(%v): %v", opts, err)
	}
	return g
}

// playAll parses and plays each move, failing the test on an error.
func playAll(t testing.TB, g *Game, moves ...string) {
	t.Helper()
	for _, text := range moves {
		m, err := g.ParseMove(text)
		if err != nil {
			t.Fatalf("after %d moves, ParseMove(%q): %v", g.Ply(), text, err)
		}
		g.Play(m)
	}
}

// sortedMoves returns the legal moves in canonical text, sorted.
func sortedMoves(g *Game) []string {
	var list rules.MoveList
	g.Moves(&list)
	out := make([]string, 0, list.N)
	for _, m := range list.Slice() {
		out = append(out, g.FormatMove(m))
	}
	slices.Sort(out)
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }
