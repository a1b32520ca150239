package hique

import (
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"

	"arbiter/rules"
)

func TestDefinition(t *testing.T) {
	d := Definition()
	if d.Name != "hique" || d.Title != "HiQUE" || d.Players != [2]string{"Black", "White"} || d.MoveTime.Seconds() != 20 {
		t.Fatalf("definition %+v", d)
	}
	if len(d.Options) != 1 || d.Options[0].Key != "turns" || d.Options[0].Default != "300" {
		t.Fatalf("options %+v", d.Options)
	}
	g, err := d.New(rules.Options{"turns": "300"})
	if err != nil || g.Name() != "hique" {
		t.Fatalf("New: %v %v", g, err)
	}
	if g, err := d.New(rules.Options{"turns": "x"}); err == nil || g != nil {
		t.Fatalf("New(turns=x) = %v, %v; want a nil game and an error", g, err)
	}
}

func TestSetupDiagram(t *testing.T) {
	// Cells may be written together, and blank lines are skipped.
	compact := strings.ReplaceAll(StartDiagram, " ", "")
	g, err := Setup(nil, "\n\n"+compact+"\n\n", rules.P1)
	if err != nil {
		t.Fatal(err)
	}
	if g.Diagram() != strings.TrimLeft(StartDiagram, "\n") {
		t.Fatalf("compact start reads as\n%s", g.Diagram())
	}
	if rules.Perft(g, 3) != perftCounts[3] {
		t.Fatal("the set-up start has another perft")
	}
	// White to move from the start pieces.
	g, err = Setup(nil, StartDiagram, rules.P2)
	if err != nil || g.ToMove() != rules.P2 || len(sortedMoves(g)) != 25 {
		t.Fatalf("white to move: %v %v", g, err)
	}
	// A finished position is accepted, and says so.
	g = setup(t, nil, rules.P2, "b 7 13", "w 3 13", "B 2 2", "W 12 12")
	if out := g.Outcome(); out.Result != rules.P1Wins || out.Reason != "runner reached the far side" {
		t.Fatalf("finished set-up: %+v", out)
	}
}

func TestSetupErrors(t *testing.T) {
	row := ". . . . . . . . . . . . .\n"
	tests := []struct {
		name    string
		diagram string
		toMove  rules.Player
		want    string
	}{
		{"too few rows", strings.Repeat(row, 12), rules.P1, "the diagram has 12 rows, want 13"},
		{"too many rows", strings.Repeat(row, 14), rules.P1, "the diagram has 14 rows, want 13"},
		{"short row", strings.Repeat(row, 12) + ". .\n", rules.P1, "row y = 13 has 2 cells, want 13"},
		{"bad cell", "x" + strings.Repeat(row, 13)[1:], rules.P1, `unknown cell 'x' at 1 1`},
		{"runner on a point", diagramOf("b 2 2"), rules.P1, "runner 'b' at 2 2: runners stand only where x and y are both odd"},
		{"guard on a square", diagramOf("W 3 3"), rules.P1, "guard 'W' at 3 3: guards stand only where x and y are both even"},
		{"guard on a mixed place", diagramOf("B 2 3"), rules.P1, "guard 'B' at 2 3"},
		{"six runners", diagramOf("b 1 1", "b 3 1", "b 5 1", "b 7 1", "b 9 1", "b 11 1"), rules.P1, "Black has 6 runners, at most 5"},
		{"five guards", diagramOf("W 2 2", "W 4 2", "W 6 2", "W 8 2", "W 10 2"), rules.P1, "White has 5 guards, at most 4"},
		{"runner that would be gone", diagramOf("b 5 5", "W 4 4", "W 6 6", "w 1 13"), rules.P1,
			"the Black runner on 5 5 is touched by two White guards and would have been removed"},
		{"mover already home", diagramOf("b 5 13", "w 1 13"), rules.P1, "the Black runner on 5 13 already stands on its far row"},
		{"bad player", StartDiagram, rules.Player(2), "no player 2 to move"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Setup(nil, tt.diagram, tt.toMove)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Setup error %v, want %q", err, tt.want)
			}
		})
	}
}

func TestAccessorsOffBoard(t *testing.T) {
	g := start(t, nil)
	for _, xy := range [][2]int{{0, 0}, {-1, 1}, {15, 1}, {1, 15}, {1, 2}, {14, 14}, {0, 2}} {
		if _, ok := g.RunnerAt(xy[0], xy[1]); ok {
			t.Errorf("RunnerAt(%v) ok", xy)
		}
		if _, ok := g.GuardAt(xy[0], xy[1]); ok {
			t.Errorf("GuardAt(%v) ok", xy)
		}
	}
	if g.Runners(rules.P1) != 5 {
		t.Error("runners")
	}
}

func TestUndo(t *testing.T) {
	g := start(t, nil)
	before := g.Hash()
	playAll(t, g, "4 2 4 10", "6 12 6 4")
	g.Undo()
	g.Undo()
	if g.Hash() != before || g.Ply() != 0 || g.Diagram() != strings.TrimLeft(StartDiagram, "\n") {
		t.Fatal("undo did not restore the start")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Undo with no move did not panic")
		}
	}()
	g.Undo()
}

func TestHash(t *testing.T) {
	g := start(t, nil)
	white, err := Setup(nil, StartDiagram, rules.P2)
	if err != nil {
		t.Fatal(err)
	}
	if g.Hash() == white.Hash() {
		t.Error("the side to move does not change the hash")
	}
	seen := map[uint64]string{}
	var list rules.MoveList
	g.Moves(&list)
	for _, m := range list.Slice() {
		g.Play(m)
		h := g.Hash()
		if other, dup := seen[h]; dup {
			t.Errorf("%s and %s hash alike", other, g.FormatMove(m))
		}
		seen[h] = g.FormatMove(m)
		g.Undo()
	}
	// The same position by two move orders has the same hash.
	a, b := start(t, nil), start(t, nil)
	playAll(t, a, "4 2 4 4", "4 12 4 10", "6 2 6 4")
	playAll(t, b, "6 2 6 4", "4 12 4 10", "4 2 4 4")
	if a.Hash() != b.Hash() {
		t.Error("transposed positions hash differently")
	}
}

func TestClone(t *testing.T) {
	g := start(t, nil)
	playAll(t, g, "4 2 4 10", "6 12 6 4")
	history := slices.Clone(g.History())
	c := g.Clone().(*Game)
	playAll(t, c, "3 1 3 3")
	if g.Ply() != 2 || c.Ply() != 3 || g.Hash() == c.Hash() {
		t.Fatal("clone shares state")
	}
	c.Undo()
	c.Undo()
	c.Undo()
	if !slices.Equal(g.History(), history) || g.Ply() != 2 {
		t.Fatal("undo on the clone changed the original")
	}
	c.Options()["turns"] = "5"
	if g.Options()["turns"] != "300" || c.Options()["turns"] != "300" {
		t.Fatal("options are shared")
	}
}

func TestEncodingRoundTrip(t *testing.T) {
	reg := rules.NewRegistry(Definition())
	g := start(t, rules.Options{"turns": "40"})
	playAll(t, g, "4 2 2 2", "4 12 2 12", "2 2 4 2", "2 12 4 12", "3 1 3 3")
	back, err := reg.Decode(rules.Encode(g))
	if err != nil {
		t.Fatal(err)
	}
	h := back.(*Game)
	if h.Diagram() != g.Diagram() || h.Hash() != g.Hash() || h.TurnLimit() != 40 || h.Ply() != 5 || h.Repetitions() != g.Repetitions() {
		t.Fatal("decoded game differs")
	}
	// The repetition history comes back too.
	r := start(t, nil)
	playAll(t, r, "4 2 2 2", "4 12 2 12", "2 2 4 2", "2 12 4 12")
	back, err = reg.Decode(rules.Encode(r))
	if err != nil || back.(*Game).Repetitions() != 2 {
		t.Fatalf("decoded repetitions: %v", err)
	}
	// An illegal packed move is refused.
	bad := rules.Encode(start(t, nil))
	bad = binary.AppendUvarint(append(bad[:len(bad)-1], 1), uint64(packRunner(squareBit(3, 1), squareBit(3, 5))))
	if _, err := reg.Decode(bad); !errors.Is(err, rules.ErrCorrupt) {
		t.Fatalf("illegal move decoded: %v", err)
	}
}

func TestEvaluate(t *testing.T) {
	g := start(t, nil)
	if g.Evaluate() != 0 || g.Material() != 0 {
		t.Fatalf("start: evaluate %d material %d, want 0 0", g.Evaluate(), g.Material())
	}
	// A runner up: positive for its owner, negative for the other side.
	black := setup(t, nil, rules.P1, "b 3 1", "b 5 1", "w 3 13", "B 2 2", "W 12 12")
	white := setup(t, nil, rules.P2, "b 3 1", "b 5 1", "w 3 13", "B 2 2", "W 12 12")
	if black.Material() != runnerValue || white.Material() != -runnerValue || black.Evaluate() <= 0 || white.Evaluate() != -black.Evaluate() {
		t.Fatalf("material %d %d evaluate %d %d", black.Material(), white.Material(), black.Evaluate(), white.Evaluate())
	}
	// Advance and the race count.
	near := setup(t, nil, rules.P1, "b 3 11", "w 3 13", "B 2 2", "W 12 12")
	far := setup(t, nil, rules.P1, "b 3 3", "w 3 13", "B 2 2", "W 12 12")
	if near.Evaluate() <= far.Evaluate() {
		t.Fatalf("a runner near the far row (%d) is not better than one near home (%d)", near.Evaluate(), far.Evaluate())
	}
	// A runner touched by one enemy guard is worse off.
	safe := setup(t, nil, rules.P1, "b 7 7", "w 3 13", "B 2 2", "W 12 12")
	exposed := setup(t, nil, rules.P1, "b 7 7", "w 3 13", "B 2 2", "W 8 8")
	if exposed.Evaluate() >= safe.Evaluate() {
		t.Fatalf("exposed %d, safe %d", exposed.Evaluate(), safe.Evaluate())
	}
	if g.Announce(packRunner(squareBit(3, 1), squareBit(3, 3))) != "" {
		t.Fatal("HiQUE announces nothing")
	}
}

// TestNoAllocations checks that the hot path allocates nothing.
func TestNoAllocations(t *testing.T) {
	g := start(t, nil)
	playAll(t, g, "4 2 4 8", "6 12 6 6", "3 1 3 3")
	var list rules.MoveList
	g.Moves(&list)
	m := list.Moves[list.N/2]
	var lists [2]rules.MoveList
	checks := map[string]func(){
		"Moves":     func() { g.Moves(&list) },
		"Play+Undo": func() { g.Play(m); g.Undo() },
		"Status":    func() { g.Play(m); _ = g.Status(); g.Undo() },
		"Hash":      func() { _ = g.Hash() },
		"Evaluate":  func() { _ = g.Evaluate() + g.Material() },
		"Tactical":  func() { _ = g.Tactical(m) },
		"perft":     func() { _ = perft(g, 2, lists[:]) },
	}
	for name, f := range checks {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", name, n)
		}
	}
}
