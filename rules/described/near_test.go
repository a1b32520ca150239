package described_test

import (
	"slices"
	"strings"
	"testing"

	shipped "arbiter/games"
	"arbiter/rules"
	"arbiter/rules/described"
)

// narrowed returns the texts of the moves that Narrow leaves of g's legal
// moves, sorted.
func narrowed(g *described.Game) []string {
	var list rules.MoveList
	g.Moves(&list)
	g.Narrow(&list)
	out := make([]string, 0, list.N)
	for _, m := range list.Slice() {
		out = append(out, g.FormatMove(m))
	}
	slices.Sort(out)
	return out
}

// TestNarrowKeepsPlacementsNearThePieces: on a 9×9 board with near 1, a
// stone on e5 leaves its eight neighbours, and one more on a1 adds a1's
// three; an empty board keeps every square, and a game that weighs no near
// keeps every move.
func TestNarrowKeepsPlacementsNearThePieces(t *testing.T) {
	const body = `board: {columns: 9, rows: 9, rows-numbered: from-bottom}
pieces: [{name: stone, text: [A, B]}]
start: []
moves: [{kind: place}]
end: [{when: in-a-row, length: 5, result: win}]
evaluation: {material: {stone: 0}%s}
`
	g := game(t, strings.Replace(body, "%s", ", near: 1", 1))
	if got := len(narrowed(g)); got != 81 {
		t.Fatalf("empty board: %d moves left, want all 81", got)
	}
	g.Play(mustParse(t, g, "e5"))
	if got, want := narrowed(g), []string{"d4", "d5", "d6", "e4", "e6", "f4", "f5", "f6"}; !slices.Equal(got, want) {
		t.Fatalf("after e5: %v, want %v", got, want)
	}
	g.Play(mustParse(t, g, "a1"))
	if got := narrowed(g); len(got) != 11 || !slices.Contains(got, "b2") || !slices.Contains(got, "a2") {
		t.Fatalf("after e5 a1: %v, want e5's eight and a2, b1, b2", got)
	}
	wide := game(t, strings.Replace(body, "%s", "", 1))
	wide.Play(mustParse(t, wide, "e5"))
	if got := len(narrowed(wide)); got != 80 {
		t.Fatalf("without near: %d moves left, want all 80", got)
	}
}

// TestNarrowAtTwoStepsOnGomoku: Gomoku's file weighs near 2: a first stone
// on h8 leaves the 24 other squares of the 5×5 around it, and one in the
// corner a1 the 8 others of its 3×3.
func TestNarrowAtTwoStepsOnGomoku(t *testing.T) {
	for _, tc := range []struct {
		at   string
		want int
	}{{"h8", 24}, {"a1", 8}} {
		g := newDescribed(t, "gomoku", nil)
		g.Play(mustParse(t, g, tc.at))
		if got := len(narrowed(g)); got != tc.want {
			t.Errorf("after %s: %d moves left, want %d", tc.at, got, tc.want)
		}
	}
}

// TestNearIsOneToThreeSteps: near is refused, in words, outside 1 to 3.
func TestNearIsOneToThreeSteps(t *testing.T) {
	head := "name: t\nplayers: [{name: A}, {name: B}]\nrules: r\n"
	_, err := described.Load("t.yaml", []byte(head+`board: {columns: 5, rows: 5}
pieces: [{name: stone, text: [A, B]}]
start: []
moves: [{kind: place}]
end: [{when: in-a-row, length: 3, result: win}]
evaluation: {near: 4}
`))
	if err == nil || !strings.Contains(err.Error(), "near must be from 1 to 3 steps") {
		t.Fatalf("error %v, want the range named", err)
	}
}

// TestNarrowKeepsTheSwap: in Hex with near 1 (its file says 2), after Red's a1 Blue's moves
// are a1's two neighbouring cells (not b2, beside it on the grid but not
// touching it) and the swap.
func TestNarrowKeepsTheSwap(t *testing.T) {
	text, err := shipped.Files.ReadFile("hex" + described.Ext)
	if err != nil {
		t.Fatal(err)
	}
	one := strings.Replace(string(text), "near: 2", "near: 1", 1)
	if one == string(text) {
		t.Fatal("hex.yaml weighs no near: 2 to replace")
	}
	spec, err := described.Load("hex"+described.Ext, []byte(one))
	if err != nil {
		t.Fatal(err)
	}
	g, err := spec.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	g.Play(mustParse(t, g, "a1"))
	if got, want := narrowed(g), []string{"a2", "b1", "swap"}; !slices.Equal(got, want) {
		t.Fatalf("after a1: %v, want %v", got, want)
	}
}
