package described_test

import (
	"slices"
	"strings"
	"testing"

	"arbiter/rules"
	"arbiter/rules/described"
)

// TestShapeFeatureErrors: each new key's mistakes are reported at the
// value at fault, in words.
func TestShapeFeatureErrors(t *testing.T) {
	hex := func(old, new string) string {
		return strings.Replace(tictactoe, old, new, 1)
	}
	for _, tc := range []struct{ file, want string }{
		{hex("  rows: side\n", "  rows: side\n  cells: hexes\n"), "t.yaml:12:10: cells \"hexes\": write one of squares, hexagons"},
		{hex("  - {when: board-full, result: draw}", "  - {when: connect, edges: [south, up], result: win}"),
			"t.yaml:19:36: edge \"up\": write one of north, east, south, west"},
		{hex("  - {when: board-full, result: draw}", "  - {when: connect, edges: [south, south], result: win}"),
			"t.yaml:19:28: edges names two different edges"},
		{hex("  - {when: board-full, result: draw}", "  - {when: connect, edges: [south], result: win}"),
			"t.yaml:19:28: edges names the two edges a group joins"},
		{hex("  - {when: board-full, result: draw}", "  - {when: connect, result: win}"),
			"t.yaml:19:5: when: connect needs the key \"edges\""},
		{hex("  - {when: board-full, result: draw}", "  - {when: board-full, player: 1, result: draw}"),
			"t.yaml:19:24: player belongs to when: connect"},
		{hex("  - {kind: place}", "  - {kind: step, directions: all, distance: line}"),
			"t.yaml:16:35: distance belongs to slide moves, not step moves"},
		{hex("  - {kind: place}", "  - {kind: slide, directions: all, distance: far}"),
			"t.yaml:16:46: distance \"far\": write one of line"},
		{hex("  - {kind: place}", "  - {kind: place}\n  - {kind: swap, directions: all}"),
			"t.yaml:17:18: a swap move has no directions"},
		{hex("  - {kind: place}", "  - {kind: place, if: swapping}"),
			"t.yaml:16:23: if: swapping is not an option or a let"},
		{hex("  - {key: side, default: 3, min: 3, max: 5}", "  - {key: side, default: 3, min: 3, max: 5}\n  - {key: swap, default: yes, values: [on, off]}"),
			"t.yaml:9:26: default \"yes\": write one of on, off"},
		{hex("  - {key: side, default: 3, min: 3, max: 5}", "  - {key: side, default: 3, min: 3, max: 5}\n  - {key: swap, default: on, values: [on, on]}"),
			"t.yaml:9:38: an on/off option lists both values once"},
		{hex("end:", "evaluation: {connection: 5}\nend:"),
			"t.yaml:17:14: connection weighs the way to a connect ending"},
		{hex("end:", "evaluation: {groups: 5}\nend:"),
			"t.yaml:17:14: groups weighs the way to a one-group ending"},
		{hex("end:", "evaluation: {houses: 5}\nend:"),
			"t.yaml:17:14: houses weighs the seeds in a pits board's houses"},
	} {
		_, err := described.Load("t.yaml", []byte(tc.file))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v\nwant %s", err, tc.want)
		}
	}
	// A swap needs a square board: refused when the file is read.
	rect := strings.Replace(strings.Replace(tictactoe, "  rows: side", "  rows: 3", 1), "  - {kind: place}", "  - {kind: place}\n  - {kind: swap}", 1)
	if _, err := described.Load("t.yaml", []byte(rect)); err == nil || !strings.Contains(err.Error(), "the board must be square, not 5 columns by 3 rows") {
		t.Errorf("swap on 5×3: %v", err)
	}
}

// TestOneGroupEnding: a move that makes both players' groups whole wins
// for the mover; a capture that makes only the opponent's whole loses.
func TestOneGroupEnding(t *testing.T) {
	body := `board: {columns: 5, rows: 1}
pieces: [{name: p}]
start:
  - {player: 1, at: [[1, 1], [3, 1]]}
  - {player: 2, at: [[2, 1], [5, 1]]}
moves:
  - {kind: slide, directions: [east, west], to: [empty, enemy]}
end:
  - {when: one-group, result: win}
`
	// A: a1 c1, B: b1 e1. A c1-d1 joins neither; A a1... only slides.
	g := game(t, body)
	play(t, g, "c1 d1") // A: a1 d1 apart; B: b1 e1 apart
	if g.Status() != rules.Ongoing {
		t.Fatalf("after c1 d1: %v", g.Status())
	}
	play(t, g, "b1 c1") // B: c1 e1 apart; A: a1 d1
	play(t, g, "a1 b1") // A: b1 d1 apart
	if g.Status() != rules.Ongoing {
		t.Fatalf("after a1 b1: %v", g.Status())
	}
	// B e1 takes d1: B c1 d1 whole, A b1 alone whole too: the mover wins.
	play(t, g, "e1 d1")
	if o := g.Outcome(); o.Result != rules.Win(rules.P2) || o.Reason != "B's pieces form one group" {
		t.Fatalf("both whole after B's move: %+v", o)
	}
}

// TestGroupsCountsTouchingPieces: on a 5×3 board, A's pieces a1 b2 (touching
// diagonally) and e1 make two groups; B's a3, c3 and e3 three. At groups 10,
// A to move: 10 × (3 − 2), and the terms name both counts.
func TestGroupsCountsTouchingPieces(t *testing.T) {
	g := game(t, `board: {columns: 5, rows: 3}
pieces: [{name: p}]
start:
  - {player: 1, at: [[1, 1], [2, 2], [5, 1]]}
  - {player: 2, at: [[1, 3], [3, 3], [5, 3]]}
moves:
  - {kind: slide, directions: all, to: [empty, enemy]}
end:
  - {when: one-group, result: win}
evaluation: {material: {p: 0}, groups: 10}
`)
	if got := g.Evaluate(); got != 10 {
		t.Errorf("Evaluate = %d, want 10", got)
	}
	terms := g.Terms()
	if i := slices.IndexFunc(terms, func(t rules.Term) bool { return t.Name == "groups" }); i < 0 || terms[i].Count != [2]int{2, 3} {
		t.Errorf("terms %+v, want groups 2 and 3", terms)
	}
}

// TestLineDistanceSlide: the distance counts both players' pieces on the
// whole line; own pieces may be passed, enemy ones not.
func TestLineDistanceSlide(t *testing.T) {
	g := game(t, `board: {columns: 6, rows: 1}
pieces: [{name: p}]
start:
  - {player: 1, at: [[1, 1], [2, 1]]}
  - {player: 2, at: [[6, 1]]}
moves:
  - {kind: slide, directions: [east, west], distance: line, over: friend, to: [empty, enemy]}
`)
	// Three pieces on the rank: a1 goes three east over b1 to d1; b1 to e1.
	if got := strings.Join(moves(g), ","); got != "a1 d1,b1 e1" {
		t.Fatalf("moves %s", got)
	}
	play(t, g, "b1 e1")
	// f1 goes three west: over e1 (enemy to it): no move; B has none.
	if got := strings.Join(moves(g), ","); got != "" {
		t.Fatalf("B's moves %s", got)
	}
}

// TestHexagonCells: on hexagons, the diagonal on which file and rank grow
// together does not touch, for moves and lines as for groups.
func TestHexagonCells(t *testing.T) {
	g := game(t, `board: {columns: 3, rows: 3, cells: hexagons}
pieces: [{name: p}]
start:
  - {player: 1, at: [[2, 2]]}
moves:
  - {kind: step, directions: all}
`)
	// b2 touches a2 c2 b1 b3 c1 a3; not a1 or c3.
	if got := strings.Join(moves(g), ","); got != "b2 a2,b2 a3,b2 b1,b2 b3,b2 c1,b2 c2" {
		t.Fatalf("moves %s", got)
	}
}
