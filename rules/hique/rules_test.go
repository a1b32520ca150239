package hique

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"arbiter/rules"
)

// Tests taken from the sentences of docs/rules/hique.md, section by
// section.

// "Light squares (runners live here): both coordinates odd, 1..13.
// Dark points (guards live here): both coordinates even, 2..12. Any other
// pair (one odd, one even) is not a place on the board."
func TestBoardPlaces(t *testing.T) {
	g := start(t, nil)
	for _, tt := range []struct {
		x, y          int
		square, point bool
	}{
		{1, 1, true, false}, {13, 13, true, false}, {7, 7, true, false},
		{2, 2, false, true}, {12, 12, false, true}, {6, 8, false, true},
		{1, 2, false, false}, {2, 1, false, false}, {3, 12, false, false},
		{14, 14, false, false}, {0, 0, false, false}, {13, 14, false, false},
	} {
		if isSquare(tt.x, tt.y) != tt.square || isPoint(tt.x, tt.y) != tt.point {
			t.Errorf("%d %d: square %v point %v, want %v %v", tt.x, tt.y, isSquare(tt.x, tt.y), isPoint(tt.x, tt.y), tt.square, tt.point)
		}
	}
	if _, err := g.ParseMove("3 2 3 4"); !errors.Is(err, rules.ErrNotAPlace) {
		t.Errorf("3 2 3 4: %v, want not a place", err)
	}
}

// "Black runners: 3 1, 5 1, 7 1, 9 1, 11 1; Black guards: 4 2, 6 2, 8 2,
// 10 2; White runners: 3 13 ... 11 13; White guards: 4 12 ... 10 12."
// "Black (player 1) sits at the top and moves first."
func TestStartPosition(t *testing.T) {
	g := start(t, nil)
	if g.Diagram() != strings.TrimLeft(StartDiagram, "\n") {
		t.Fatalf("start:\n%s\nwant\n%s", g.Diagram(), StartDiagram)
	}
	for _, x := range []int{3, 5, 7, 9, 11} {
		if p, ok := g.RunnerAt(x, 1); !ok || p != rules.P1 {
			t.Errorf("RunnerAt(%d, 1) = %v %v, want Black", x, p, ok)
		}
		if p, ok := g.RunnerAt(x, 13); !ok || p != rules.P2 {
			t.Errorf("RunnerAt(%d, 13) = %v %v, want White", x, p, ok)
		}
	}
	for _, x := range []int{4, 6, 8, 10} {
		if p, ok := g.GuardAt(x, 2); !ok || p != rules.P1 {
			t.Errorf("GuardAt(%d, 2) = %v %v, want Black", x, p, ok)
		}
		if p, ok := g.GuardAt(x, 12); !ok || p != rules.P2 {
			t.Errorf("GuardAt(%d, 12) = %v %v, want White", x, p, ok)
		}
	}
	if _, ok := g.RunnerAt(1, 1); ok {
		t.Error("RunnerAt(1, 1) should be empty")
	}
	if _, ok := g.RunnerAt(4, 2); ok {
		t.Error("RunnerAt(4, 2) is not a square")
	}
	if _, ok := g.GuardAt(3, 1); ok {
		t.Error("GuardAt(3, 1) is not a point")
	}
	if g.ToMove() != rules.P1 || g.PlayerName(rules.P1) != "Black" || g.PlayerName(rules.P2) != "White" {
		t.Errorf("to move %v (%s, %s), want Black first", g.ToMove(), g.PlayerName(rules.P1), g.PlayerName(rules.P2))
	}
	if g.Runners(rules.P1) != 5 || g.Runners(rules.P2) != 5 {
		t.Errorf("runners %d %d, want 5 5", g.Runners(rules.P1), g.Runners(rules.P2))
	}
	if g.TimingScores() != [2]int{5, 5} || g.Repetitions() != 1 || g.Status() != rules.Ongoing {
		t.Errorf("start: scores %v repetitions %d status %v", g.TimingScores(), g.Repetitions(), g.Status())
	}
}

// moveSet returns the sorted legal moves of the piece on x, y.
func moveSet(g *Game, x, y int) []string {
	prefix := itoa(x) + " " + itoa(y) + " "
	var out []string
	for _, m := range sortedMoves(g) {
		if strings.HasPrefix(m, prefix) {
			out = append(out, m)
		}
	}
	return out
}

// "A runner moves one square (two coordinate units) forward, left or
// right, onto an empty light square. Never backward, never a jump."
// "Forward is down (y grows) for Black and up for White."
func TestRunnerMoves(t *testing.T) {
	tests := []struct {
		name  string
		side  rules.Player
		specs []string
		x, y  int
		want  []string
	}{
		{"black in the open", rules.P1, []string{"b 7 7", "w 3 13", "B 2 2", "W 12 12"}, 7, 7,
			[]string{"7 7 5 7", "7 7 7 9", "7 7 9 7"}},
		{"white in the open", rules.P2, []string{"b 3 1", "w 7 7", "B 2 2", "W 12 12"}, 7, 7,
			[]string{"7 7 5 7", "7 7 7 5", "7 7 9 7"}},
		{"left edge", rules.P1, []string{"b 1 7", "w 3 13", "B 2 2", "W 12 12"}, 1, 7,
			[]string{"1 7 1 9", "1 7 3 7"}},
		{"right edge", rules.P2, []string{"b 3 1", "w 13 7", "B 2 2", "W 12 12"}, 13, 7,
			[]string{"13 7 11 7", "13 7 13 5"}},
		{"blocked ahead by an enemy runner, no jump", rules.P1, []string{"b 7 7", "w 7 9", "B 2 2", "W 12 12"}, 7, 7,
			[]string{"7 7 5 7", "7 7 9 7"}},
		{"blocked sideways by own runners", rules.P1, []string{"b 7 7", "b 5 7", "b 9 7", "w 3 13", "B 2 2", "W 12 12"}, 7, 7,
			[]string{"7 7 7 9"}},
		{"guards never block runners", rules.P1, []string{"b 7 7", "w 3 13", "B 6 8", "W 8 8"}, 7, 7,
			[]string{"7 7 5 7", "7 7 7 9", "7 7 9 7"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := setup(t, nil, tt.side, tt.specs...)
			if got := moveSet(g, tt.x, tt.y); !slices.Equal(got, tt.want) {
				t.Errorf("moves of %d %d = %v, want %v", tt.x, tt.y, got, tt.want)
			}
		})
	}
}

// "A guard moves any number of points (steps of two units) up, down, left
// or right along the dark points, and may not pass through or land on
// another guard of either colour. Runners never block guards."
func TestGuardMoves(t *testing.T) {
	tests := []struct {
		name  string
		specs []string
		x, y  int
		want  []string
	}{
		{"open board: every point in line", []string{"b 1 1", "w 13 13", "B 6 6", "W 12 2"}, 6, 6,
			[]string{"6 6 10 6", "6 6 12 6", "6 6 2 6", "6 6 4 6", "6 6 6 10", "6 6 6 12", "6 6 6 2", "6 6 6 4", "6 6 6 8", "6 6 8 6"}},
		{"stopped by guards of both colours", []string{"b 1 1", "w 13 13", "B 6 6", "B 6 10", "W 10 6", "W 6 2"}, 6, 6,
			[]string{"6 6 2 6", "6 6 4 6", "6 6 6 4", "6 6 6 8", "6 6 8 6"}},
		{"runners all around do not block", []string{"b 5 5", "b 7 5", "w 5 7", "w 7 7", "w 9 13", "B 6 6", "W 12 2"}, 6, 6,
			[]string{"6 6 10 6", "6 6 12 6", "6 6 2 6", "6 6 4 6", "6 6 6 10", "6 6 6 12", "6 6 6 2", "6 6 6 4", "6 6 6 8", "6 6 8 6"}},
		{"corner, boxed in", []string{"b 1 1", "w 13 13", "B 2 2", "B 4 2", "W 2 4", "W 6 6"}, 2, 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := setup(t, nil, rules.P1, tt.specs...)
			if got := moveSet(g, tt.x, tt.y); !slices.Equal(got, tt.want) {
				t.Errorf("moves of %d %d = %v, want %v", tt.x, tt.y, got, tt.want)
			}
		})
	}
}

// The "Removal (class change 1)" section.
func TestRemoval(t *testing.T) {
	tests := []struct {
		name     string
		side     rules.Player
		specs    []string
		move     string
		tactical bool
		after    []string // pieces expected after the move (all of them)
	}{
		{
			// Figure 2: a guard moving next to a runner that another guard
			// already touches removes it.
			name:     "two enemy guards remove a runner",
			side:     rules.P1,
			specs:    []string{"b 3 1", "w 7 7", "w 11 13", "B 6 6", "B 8 2", "W 12 12"},
			move:     "8 2 8 6",
			tactical: true,
			after:    []string{"b 3 1", "w 11 13", "B 6 6", "B 8 6", "W 12 12"},
		},
		{
			name:     "one enemy guard is not enough",
			side:     rules.P1,
			specs:    []string{"b 3 1", "w 7 7", "w 11 13", "B 8 2", "W 12 12"},
			move:     "8 2 8 6",
			tactical: false,
			after:    []string{"b 3 1", "w 7 7", "w 11 13", "B 8 6", "W 12 12"},
		},
		{
			name:     "a friendly guard does not count",
			side:     rules.P1,
			specs:    []string{"b 3 1", "w 7 7", "w 11 13", "B 8 2", "W 6 6"},
			move:     "8 2 8 6",
			tactical: false,
			after:    []string{"b 3 1", "w 7 7", "w 11 13", "B 8 6", "W 6 6"},
		},
		{
			// Figure 2, guard C to D: two runners at once.
			name:     "two runners at once",
			side:     rules.P1,
			specs:    []string{"b 3 1", "w 5 5", "w 7 5", "w 11 13", "B 4 4", "B 8 4", "B 6 10", "W 12 12"},
			move:     "6 10 6 6",
			tactical: true,
			after:    []string{"b 3 1", "w 11 13", "B 4 4", "B 8 4", "B 6 6", "W 12 12"},
		},
		{
			// Figure 3: "up to four runners can go in one move".
			name:     "four runners at once",
			side:     rules.P2,
			specs:    []string{"b 5 5", "b 7 5", "b 5 7", "b 7 7", "b 1 1", "w 11 13", "W 6 4", "W 6 8", "W 2 6", "B 12 2"},
			move:     "2 6 6 6",
			tactical: true,
			after:    []string{"b 1 1", "w 11 13", "W 6 4", "W 6 8", "W 6 6", "B 12 2"},
		},
		{
			// Decision: a runner that steps between two enemy guards is
			// removed too, though its own side moved.
			name:     "runner stepping between two enemy guards",
			side:     rules.P1,
			specs:    []string{"b 5 5", "b 3 1", "w 11 13", "W 4 8", "W 6 8", "B 12 2"},
			move:     "5 5 5 7",
			tactical: true,
			after:    []string{"b 3 1", "w 11 13", "W 4 8", "W 6 8", "B 12 2"},
		},
		{
			name:     "runner stepping sideways between two enemy guards",
			side:     rules.P2,
			specs:    []string{"w 3 7", "w 11 13", "b 3 1", "B 4 6", "B 6 8", "W 12 12"},
			move:     "3 7 5 7",
			tactical: true,
			after:    []string{"w 11 13", "b 3 1", "B 4 6", "B 6 8", "W 12 12"},
		},
		{
			// "Guards are never removed."
			name:     "a guard between enemy guards stays",
			side:     rules.P1,
			specs:    []string{"b 3 1", "w 11 13", "W 4 6", "W 8 6", "B 6 2"},
			move:     "6 2 6 6",
			tactical: false,
			after:    []string{"b 3 1", "w 11 13", "W 4 6", "W 8 6", "B 6 6"},
		},
		{
			// Moving a guard away removes nothing of the mover's.
			name:     "moving away removes nothing",
			side:     rules.P1,
			specs:    []string{"b 5 5", "b 3 1", "w 11 13", "W 4 4", "B 6 6", "W 12 12"},
			move:     "6 6 6 10",
			tactical: false,
			after:    []string{"b 5 5", "b 3 1", "w 11 13", "W 4 4", "B 6 10", "W 12 12"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := setup(t, nil, tt.side, tt.specs...)
			m, err := g.ParseMove(tt.move)
			if err != nil {
				t.Fatalf("ParseMove(%q): %v", tt.move, err)
			}
			if got := g.Tactical(m); got != tt.tactical {
				t.Errorf("Tactical = %v, want %v", got, tt.tactical)
			}
			g.Play(m)
			if want := diagramOf(tt.after...); g.Diagram() != spaced(want) {
				t.Errorf("after %s:\n%s\nwant\n%s", tt.move, g.Diagram(), spaced(want))
			}
			// "Removal is automatic; it is not a separate turn."
			if g.ToMove() != tt.side.Other() || g.Ply() != 1 {
				t.Errorf("after the move: %v to move at ply %d, want %v at 1", g.ToMove(), g.Ply(), tt.side.Other())
			}
		})
	}
}

// spaced rewrites a compact diagram as Diagram writes it.
func spaced(diagram string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(diagram), "\n") {
		cells := strings.Join(strings.Fields(line), "")
		for i := 0; i < len(cells); i++ {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteByte(cells[i])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// The "End" section, each rule and the order between them.
func TestEnd(t *testing.T) {
	tests := []struct {
		name   string
		opts   rules.Options
		side   rules.Player
		specs  []string // nil: the start position
		moves  []string
		result rules.Result
		reason string
		scores [2]int // checked when the reason has a timing option
	}{
		{
			name:   "1. Black runner reaches row 13",
			side:   rules.P1,
			specs:  []string{"b 7 11", "b 3 1", "w 3 13", "B 2 2", "W 12 12"},
			moves:  []string{"7 11 7 13"},
			result: rules.P1Wins, reason: "runner reached the far side",
		},
		{
			name:   "1. White runner reaches row 1",
			side:   rules.P2,
			specs:  []string{"w 7 3", "b 3 1", "w 3 13", "B 12 12", "W 2 2"},
			moves:  []string{"7 3 7 1"},
			result: rules.P2Wins, reason: "runner reached the far side",
		},
		{
			name:   "2. the opponent has no runners: the mover wins",
			side:   rules.P1,
			specs:  []string{"b 3 1", "w 7 7", "B 6 6", "B 8 2", "W 12 12"},
			moves:  []string{"8 2 8 6"},
			result: rules.P1Wins, reason: "White has no runners left",
		},
		{
			name:   "2. the mover has no runners: the opponent wins",
			side:   rules.P1,
			specs:  []string{"b 5 5", "w 11 13", "W 4 8", "W 6 8", "B 12 2"},
			moves:  []string{"5 5 5 7"},
			result: rules.P2Wins, reason: "Black has no runners left",
		},
		{
			// Decision: the third occurrence ends the game; the start
			// counts as the first.
			name:   "3. third occurrence of the start",
			moves:  []string{"4 2 2 2", "4 12 2 12", "2 2 4 2", "2 12 4 12", "4 2 2 2", "4 12 2 12", "2 2 4 2", "2 12 4 12"},
			result: rules.Draw, reason: "threefold repetition, timing option 5 to 5", scores: [2]int{5, 5},
		},
		{
			name: "3. third occurrence decided by the timing option",
			moves: []string{"3 1 3 3", "4 12 2 12", "4 2 2 2", "2 12 4 12", "2 2 4 2",
				"4 12 2 12", "4 2 2 2", "2 12 4 12", "2 2 4 2"},
			result: rules.P1Wins, reason: "threefold repetition, timing option 6 to 5", scores: [2]int{6, 5},
		},
		{
			name:   "3 before 4: repetition on the last allowed move",
			opts:   rules.Options{"turns": "8"},
			moves:  []string{"4 2 2 2", "4 12 2 12", "2 2 4 2", "2 12 4 12", "4 2 2 2", "4 12 2 12", "2 2 4 2", "2 12 4 12"},
			result: rules.Draw, reason: "threefold repetition, timing option 5 to 5", scores: [2]int{5, 5},
		},
		{
			name:   "4. turn limit (Variant turns=1)",
			opts:   rules.Options{"turns": "1"},
			moves:  []string{"3 1 3 3"},
			result: rules.P1Wins, reason: "turn limit reached, timing option 6 to 5", scores: [2]int{6, 5},
		},
		{
			name:   "4. turn limit, equal totals are a draw",
			opts:   rules.Options{"turns": "2"},
			moves:  []string{"3 1 3 3", "3 13 3 11"},
			result: rules.Draw, reason: "turn limit reached, timing option 6 to 6", scores: [2]int{6, 6},
		},
		{
			name:   "4. turn limit, White ahead",
			opts:   rules.Options{"turns": "3"},
			moves:  []string{"3 1 1 1", "3 13 3 11", "4 2 4 4"},
			result: rules.P2Wins, reason: "turn limit reached, timing option 5 to 6", scores: [2]int{5, 6},
		},
		{
			name:   "1 before 4: far row on the last allowed move",
			opts:   rules.Options{"turns": "1"},
			side:   rules.P1,
			specs:  []string{"b 7 11", "b 3 1", "w 3 13", "B 2 2", "W 12 12"},
			moves:  []string{"7 11 7 13"},
			result: rules.P1Wins, reason: "runner reached the far side",
		},
		{
			name:   "2 before 4: last runner removed on the last allowed move",
			opts:   rules.Options{"turns": "1"},
			side:   rules.P1,
			specs:  []string{"b 3 1", "w 7 7", "B 6 6", "B 8 2", "W 12 12"},
			moves:  []string{"8 2 8 6"},
			result: rules.P1Wins, reason: "White has no runners left",
		},
		{
			// Decision: no legal move is decided by the timing option.
			// Also the Decision on "five points": the runners on 1 11 and
			// 3 11 have come five rows and score 6 each.
			name: "5. no legal move",
			side: rules.P2,
			specs: []string{"b 1 11", "b 3 11", "w 1 13", "w 3 13", "w 5 11",
				"B 2 2", "B 4 2", "B 2 4", "B 4 4", "W 6 2", "W 2 6", "W 6 4", "W 12 6"},
			moves:  []string{"12 6 4 6"},
			result: rules.P1Wins, reason: "Black has no legal move, timing option 12 to 4", scores: [2]int{12, 4},
		},
		{
			name: "4 before 5: turn limit and no legal move together",
			opts: rules.Options{"turns": "1"},
			side: rules.P2,
			specs: []string{"b 1 11", "b 3 11", "w 1 13", "w 3 13", "w 5 11",
				"B 2 2", "B 4 2", "B 2 4", "B 4 4", "W 6 2", "W 2 6", "W 6 4", "W 12 6"},
			moves:  []string{"12 6 4 6"},
			result: rules.P1Wins, reason: "turn limit reached, timing option 12 to 4", scores: [2]int{12, 4},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var g *Game
			if tt.specs == nil {
				g = start(t, tt.opts)
			} else {
				g = setup(t, tt.opts, tt.side, tt.specs...)
			}
			for i, text := range tt.moves {
				if g.Status() != rules.Ongoing {
					t.Fatalf("game ended before move %d (%s): %+v", i+1, text, g.Outcome())
				}
				playAll(t, g, text)
			}
			out := g.Outcome()
			if out.Result != tt.result || g.Status() != tt.result || out.Reason != tt.reason {
				t.Fatalf("outcome %+v (status %v), want %v %q", out, g.Status(), tt.result, tt.reason)
			}
			wantScores := strings.Contains(tt.reason, "timing option")
			if out.HasScores != wantScores || (wantScores && out.Scores != tt.scores) {
				t.Errorf("scores %v (has %v), want %v (has %v)", out.Scores, out.HasScores, tt.scores, wantScores)
			}
			var list rules.MoveList
			g.Moves(&list)
			if (list.N == 0) != (tt.result != rules.Ongoing) {
				t.Errorf("%d moves in a game with status %v", list.N, tt.result)
			}
			if tt.result != rules.Ongoing {
				if _, err := g.ParseMove("3 1 3 3"); !errors.Is(err, rules.ErrGameOver) || !strings.Contains(err.Error(), tt.reason) {
					t.Errorf("ParseMove after the end: %v, want game over with the reason", err)
				}
			}
		})
	}
}

// "The position (every piece and the side to move)": the same pieces with
// the other side to move are another position.
func TestRepetitionCountsSideToMove(t *testing.T) {
	g := start(t, nil)
	// Black's guard goes round a three-move cycle on its own line while
	// White's goes out and back: after five moves the pieces stand as at
	// the start, with White to move.
	playAll(t, g, "4 2 4 6", "4 12 2 12", "4 6 4 4", "2 12 4 12", "4 4 4 2")
	if g.Diagram() != strings.TrimLeft(StartDiagram, "\n") || g.ToMove() != rules.P2 {
		t.Fatalf("not the start pieces with White to move:\n%s", g.Diagram())
	}
	if g.Repetitions() != 1 {
		t.Fatalf("repetitions %d, want 1 (the side to move differs)", g.Repetitions())
	}
	playAll(t, g, "4 12 2 12", "4 2 2 2", "2 12 4 12", "2 2 4 2")
	if g.Repetitions() != 2 || g.Status() != rules.Ongoing {
		t.Fatalf("repetitions %d status %v, want 2 ongoing", g.Repetitions(), g.Status())
	}
	// A forward move makes the earlier positions unreachable.
	playAll(t, g, "3 13 3 11")
	if g.Repetitions() != 1 {
		t.Fatalf("after a forward move: repetitions %d, want 1", g.Repetitions())
	}
}

// "Each player scores, for every runner still on the board, 1 point plus 1
// point for every row it has advanced forward from its starting row
// (sideways moves earn nothing)."
func TestTimingScores(t *testing.T) {
	tests := []struct {
		specs []string
		want  [2]int
	}{
		{[]string{"b 3 1", "w 3 13", "B 2 2", "W 12 12"}, [2]int{1, 1}},
		{[]string{"b 3 3", "b 13 1", "w 3 11", "B 2 2", "W 12 12"}, [2]int{3, 2}},
		{[]string{"b 1 11", "w 13 3", "B 2 2", "W 12 12"}, [2]int{6, 6}},
		{[]string{"b 1 7", "b 3 7", "b 5 7", "b 7 7", "b 9 7", "w 1 5", "B 2 2", "W 12 12"}, [2]int{20, 5}},
	}
	for _, tt := range tests {
		g := setup(t, nil, rules.P1, tt.specs...)
		if got := g.TimingScores(); got != tt.want {
			t.Errorf("%v: scores %v, want %v", tt.specs, got, tt.want)
		}
	}
	// Sideways earns nothing.
	g := start(t, nil)
	playAll(t, g, "3 1 1 1", "11 13 13 13")
	if got := g.TimingScores(); got != [2]int{5, 5} {
		t.Errorf("after sideways moves: %v, want 5 5", got)
	}
}

// "Variant turns, default 300." Bad values say what is allowed.
func TestOptions(t *testing.T) {
	g := start(t, nil)
	if g.TurnLimit() != 300 || g.Options()["turns"] != "300" {
		t.Fatalf("default turns: %d %v", g.TurnLimit(), g.Options())
	}
	g2 := start(t, rules.Options{"turns": "0042"})
	if g2.TurnLimit() != 42 || g2.Options().String() != "turns=42" {
		t.Fatalf("turns=0042: %d %v", g2.TurnLimit(), g2.Options())
	}
	again, err := New(g2.Options())
	if err != nil || again.TurnLimit() != 42 {
		t.Fatalf("New(Options()): %v %v", again, err)
	}
	for _, tt := range []struct{ opts, want string }{
		{"turns=abc", "turns must be a whole number from 1 to 10000"},
		{"turns=0", "turns must be a whole number from 1 to 10000"},
		{"turns=10001", "turns must be a whole number from 1 to 10000"},
		{"turns=-5", "turns must be a whole number from 1 to 10000"},
		{"edges=on", "hique has no option edges; it takes turns"},
	} {
		opts, err := rules.ParseOptions(tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := New(opts); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%s) error %v, want %q", tt.opts, err, tt.want)
		}
		if _, err := rules.NewRegistry(Definition()).New("hique", opts); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("registry New(%s) error %v, want %q", tt.opts, err, tt.want)
		}
		if _, err := Setup(opts, StartDiagram, rules.P1); err == nil {
			t.Errorf("Setup(%s) accepted bad options", tt.opts)
		}
	}
	// A turn limit holds for a game of that many moves, and the storage
	// reserved at New is enough.
	g3 := start(t, rules.Options{"turns": "10"})
	for g3.Status() == rules.Ongoing {
		var list rules.MoveList
		g3.Moves(&list)
		g3.Play(list.Moves[0])
	}
	if g3.Ply() > 10 {
		t.Fatalf("game went on to ply %d with turns=10", g3.Ply())
	}
}
