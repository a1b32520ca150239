package sixes

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"arbiter/rules"
)

// setup builds a position from diagram rows (row a first) or fails the test.
func setup(t *testing.T, opts rules.Options, toMove rules.Player, rows ...string) *Game {
	t.Helper()
	g, err := Setup(opts, strings.Join(rows, "\n"), toMove)
	if err != nil {
		t.Fatalf("setup: %v", err)
	}
	return g
}

// play plays each move text, failing the test on the first that is refused.
func play(t *testing.T, g *Game, moves ...string) {
	t.Helper()
	for _, text := range moves {
		m, err := g.ParseMove(text)
		if err != nil {
			t.Fatalf("move %q: %v\n%s", text, err, g.Diagram())
		}
		g.Play(m)
	}
}

// hasMove reports whether text is among the legal moves.
func hasMove(g *Game, text string) bool { return slices.Contains(moveTexts(g), text) }

// movesFrom returns the legal moves of the piece on square, as sorted text.
func movesFrom(g *Game, square string) []string {
	var out []string
	for _, m := range moveTexts(g) {
		if strings.HasPrefix(m, square+" ") {
			out = append(out, m)
		}
	}
	return out
}

func TestStartPosition(t *testing.T) {
	g, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "XX..OO\nXX..OO\n......\n......\nOO..XX\nOO..XX\n"
	if g.Diagram() != want {
		t.Errorf("start position:\n%s\nwant\n%s", g.Diagram(), want)
	}
	if g.ToMove() != rules.P1 || g.PlayerName(rules.P1) != "X" || g.PlayerName(rules.P2) != "O" {
		t.Errorf("X (player 1) moves first: to move %v, names %s %s", g.ToMove(), g.PlayerName(rules.P1), g.PlayerName(rules.P2))
	}
	for sq, p := range map[string]rules.Player{"a1": rules.P1, "a2": rules.P1, "b1": rules.P1, "b2": rules.P1,
		"e5": rules.P1, "e6": rules.P1, "f5": rules.P1, "f6": rules.P1, "a5": rules.P2, "a6": rules.P2,
		"b5": rules.P2, "b6": rules.P2, "e1": rules.P2, "e2": rules.P2, "f1": rules.P2, "f2": rules.P2} {
		got, ok := g.PieceAt(int(sq[0]-'a'+1), int(sq[1]-'0'))
		if !ok || got != p {
			t.Errorf("%s: got %v %v, want %v", sq, got, ok, p)
		}
	}
	if g.Pieces(rules.P1) != 8 || g.Pieces(rules.P2) != 8 {
		t.Errorf("pieces %d %d, want 8 each", g.Pieces(rules.P1), g.Pieces(rules.P2))
	}
	if _, ok := g.PieceAt(0, 1); ok {
		t.Error("PieceAt off the board reports a piece")
	}
	if g.Status() != rules.Ongoing || g.TurnLimit() != 100 || g.TurnsLeft() != 100 {
		t.Errorf("status %v, limit %d, left %d", g.Status(), g.TurnLimit(), g.TurnsLeft())
	}
	d := Definition()
	if d.Name != "sixes" || d.Title != "Sixes" || d.Players != [2]string{"X", "O"} || d.MoveTime <= 0 {
		t.Errorf("definition %+v", d)
	}
	if g.Announce(0) != "" {
		t.Error("Sixes announces nothing")
	}
}

// TestMoves checks the move rules: steps onto empty squares, jumps over
// one neighbouring piece of either colour onto the empty square behind,
// nothing else.
func TestMoves(t *testing.T) {
	tests := []struct {
		name   string
		rows   []string
		square string
		want   []string
	}{
		{"a piece steps one square up, down, left or right onto an empty square",
			[]string{"......", "......", "..X...", "......", "......", ".....O"},
			"c3", []string{"c3 b3", "c3 c2", "c3 c4", "c3 d3"}},
		{"it jumps over its own piece or an opponent's onto the empty square behind",
			[]string{"......", "......", "..XX..", "..O...", "......", ".....O"},
			"c3", []string{"c3 b3", "c3 c2", "c3 c5", "c3 e3"}},
		{"it never steps onto a piece nor jumps onto one, and no chains",
			[]string{"......", "..O...", ".XXXO.", "..X...", "..X...", ".....O"},
			"c3", []string{"c3 a3", "c3 c1"}},
		{"it never leaves the board",
			[]string{"XX....", "......", "......", "......", "......", ".....O"},
			"a1", []string{"a1 a3", "a1 b1"}},
		{"a piece with neither step nor jump has no move",
			[]string{"XXO...", "XX....", "O.....", "......", "......", ".....O"},
			"a1", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := setup(t, nil, rules.P1, tc.rows...)
			if got := movesFrom(g, tc.square); !slices.Equal(got, tc.want) {
				t.Errorf("moves from %s: %v, want %v", tc.square, got, tc.want)
			}
		})
	}
}

func TestJumpLeavesJumpedPiece(t *testing.T) {
	g := setup(t, nil, rules.P1, "......", "......", "..XX..", "..O...", "......", ".....O")
	play(t, g, "c3 e3", "f6 f5")
	for sq, want := range map[[2]int]rules.Player{{3, 4}: rules.P1, {4, 3}: rules.P2, {5, 3}: rules.P1} {
		if p, ok := g.PieceAt(sq[0], sq[1]); !ok || p != want {
			t.Errorf("row %d col %d: %v %v, want %v", sq[0], sq[1], p, ok, want)
		}
	}
	if g.Pieces(rules.P1) != 2 || g.Pieces(rules.P2) != 2 {
		t.Errorf("a jump removes nothing by itself: pieces %d %d", g.Pieces(rules.P1), g.Pieces(rules.P2))
	}
}

// TestNoReturn checks the no-return rule: not straight back with the piece
// moved on the player's previous turn, any other move allowed, back again
// after one other move, and only the player's own previous move counts.
func TestNoReturn(t *testing.T) {
	g, _ := New(nil)
	play(t, g, "e5 d5", "a5 a4")
	if hasMove(g, "d5 e5") {
		t.Error("X may not move the piece from d5 straight back to e5")
	}
	for _, m := range []string{"d5 c5", "d5 d4", "d5 d6", "e6 d6"} {
		if !hasMove(g, m) {
			t.Errorf("%s: any other move of the piece or another piece is allowed", m)
		}
	}
	_, err := g.ParseMove("d5 e5")
	if !errors.Is(err, rules.ErrIllegal) || !strings.Contains(err.Error(), "straight back") {
		t.Errorf("ParseMove(d5 e5) = %v, want an illegal move that explains the no-return rule", err)
	}
	play(t, g, "b2 c2")
	if hasMove(g, "a4 a5") {
		t.Error("O's own previous move still counts after X's move")
	}
	play(t, g, "b5 c5")
	if !hasMove(g, "d5 e5") {
		t.Error("after one other move the first piece may go back")
	}
	play(t, g, "d5 e5")
	if !hasMove(g, "a4 a5") {
		t.Error("after one other move O's piece may go back")
	}

	// A jump is taken back by jumping back, and that is forbidden too.
	g, _ = New(nil)
	play(t, g, "a1 a3", "f1 d1")
	if hasMove(g, "a3 a1") {
		t.Error("X may not jump straight back from a3 to a1")
	}

	// The opponent's last move restricts nothing of the player to move.
	g = setup(t, nil, rules.P1, "......", "......", ".X.O..", "......", "......", "......")
	if err := g.SetLastMove(rules.P2, NewMove(3, 3, 3, 4)); err != nil {
		t.Fatal(err)
	}
	if !hasMove(g, "c2 c3") || !hasMove(g, "c2 c1") {
		t.Errorf("X's moves %v: O's last move c3 c4 does not restrict X", moveTexts(g))
	}
}

// TestRemoval checks the removal rule, its Decisions and the edges Variant.
func TestRemoval(t *testing.T) {
	tests := []struct {
		name       string
		edges      string
		rows       []string
		move       string
		x, o       int      // pieces after the move
		gone, stay []string // squares emptied by removal, squares still held
	}{
		{"a piece whose four neighbours are opponents is removed", "off",
			[]string{"......", "..X...", ".XOX..", "......", "..X...", "....O."},
			"e3 d3", 4, 1, []string{"c3"}, []string{"b3", "c2", "c4", "d3", "f5"}},
		{"also when the fourth opponent jumps in", "off",
			[]string{"......", "..X...", ".XOX..", "XX....", "......", "....O."},
			"d1 d3", 5, 1, []string{"c3"}, []string{"d2", "d3"}},
		{"two pieces surrounded at once are both removed", "off",
			[]string{"......", ".XXX..", "XO.OX.", ".X.X..", "......", ".....O"},
			"b3 c3", 7, 1, []string{"c2", "c4"}, []string{"c3", "f6"}},
		{"Decision: an edge piece is never removed", "off",
			[]string{".XOX..", "......", "..X...", "......", "......", ".....O"},
			"c3 b3", 3, 2, nil, []string{"a3"}},
		{"Decision: a corner piece is never removed", "off",
			[]string{"OX....", "......", "X.....", "......", "......", ".....O"},
			"c1 b1", 2, 2, nil, []string{"a1"}},
		{"Variant edges=on: the edge counts as an opponent", "on",
			[]string{".XOX..", "......", "..X...", "......", "......", ".....O"},
			"c3 b3", 3, 1, []string{"a3"}, []string{"a2", "a4", "b3"}},
		{"Variant edges=on: a corner piece falls to two", "on",
			[]string{"OX....", "......", "X.....", "......", "......", ".....O"},
			"c1 b1", 2, 1, []string{"a1"}, []string{"a2", "b1"}},
		{"Variant edges=on: a middle piece still needs four opponents", "on",
			[]string{"......", "..X...", ".XOX..", "......", "......", "X....O"},
			"f1 e1", 4, 2, nil, []string{"c3"}},
		{"Decision: the opponent's pieces go first, so a move into a trap that it breaks is safe", "off",
			[]string{"......", "......", "..OX..", ".O.OX.", "..OX..", "..X..."},
			"f3 d3", 4, 3, []string{"d4"}, []string{"d3", "c3", "d2", "e3"}},
		{"Decision: a move into a trap that it does not break loses the piece", "off",
			[]string{"......", "......", "..OX..", ".O.O..", "..OX..", "..X..."},
			"f3 d3", 2, 4, []string{"d3", "f3"}, []string{"c3", "d2", "d4", "e3"}},
		{"Decision: the mover's piece still surrounded after the opponent's removal goes too", "off",
			[]string{"....X.", "...XOX", "..OXX.", ".O.O..", "..OX..", "..X..."},
			"f3 d3", 6, 4, []string{"b5", "d3"}, []string{"c3", "d2", "d4", "e3"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := setup(t, rules.Options{"edges": tc.edges}, rules.P1, tc.rows...)
			m, err := g.ParseMove(tc.move)
			if err != nil {
				t.Fatal(err)
			}
			wantTactical := len(tc.gone) > 0
			if g.Tactical(m) != wantTactical {
				t.Errorf("Tactical(%s) = %v, want %v", tc.move, g.Tactical(m), wantTactical)
			}
			g.Play(m)
			if g.Pieces(rules.P1) != tc.x || g.Pieces(rules.P2) != tc.o {
				t.Errorf("pieces X %d O %d, want %d %d\n%s", g.Pieces(rules.P1), g.Pieces(rules.P2), tc.x, tc.o, g.Diagram())
			}
			for _, sq := range tc.gone {
				if _, ok := g.PieceAt(int(sq[0]-'a'+1), int(sq[1]-'0')); ok {
					t.Errorf("%s should be empty\n%s", sq, g.Diagram())
				}
			}
			for _, sq := range tc.stay {
				if _, ok := g.PieceAt(int(sq[0]-'a'+1), int(sq[1]-'0')); !ok {
					t.Errorf("%s should hold a piece\n%s", sq, g.Diagram())
				}
			}
		})
	}
}

func TestRemovedPiecesNeverReturn(t *testing.T) {
	g := setup(t, nil, rules.P1, "......", "..X...", ".XOX..", "......", "..X...", "....OO")
	play(t, g, "e3 d3", "f5 e5", "b3 a3", "e5 d5", "d3 e3")
	if g.Pieces(rules.P2) != 2 {
		t.Errorf("O has %d pieces, want the 2 left after c3 was removed", g.Pieces(rules.P2))
	}
	if _, ok := g.PieceAt(3, 3); ok {
		t.Errorf("c3 came back\n%s", g.Diagram())
	}
}

// TestEnd checks each end condition, the order in which they are checked,
// the turn limit's tie-breaks and the reason and scores.
func TestEnd(t *testing.T) {
	tests := []struct {
		name   string
		opts   rules.Options
		rows   []string
		toMove rules.Player
		last   map[rules.Player][4]int // SetLastMove before the moves
		moves  []string
		result rules.Result
		reason string
		scores [2]int
	}{
		{"a player with no pieces loses", nil,
			[]string{"......", "..X...", ".XOX..", "......", "..X...", "......"}, rules.P1, nil,
			[]string{"e3 d3"}, rules.P1Wins, "O has no pieces left", [2]int{4, 0}},
		{"also a mover whose last piece walks into a trap", nil,
			[]string{"......", "......", "..O...", ".O.O..", "..O...", "..X..."}, rules.P1, nil,
			[]string{"f3 d3"}, rules.P2Wins, "X has no pieces left", [2]int{0, 4}},
		{"a player to move with no legal move loses", nil,
			[]string{"OX.X..", "X.....", "X.....", "......", "......", "......"}, rules.P1, nil,
			[]string{"a4 a3"}, rules.P1Wins, "O has no legal move", [2]int{4, 1}},
		{"no legal move comes before the turn limit", rules.Options{"turns": "1"},
			[]string{"OX.X..", "X.....", "X.....", "......", "......", "......"}, rules.P1, nil,
			[]string{"a4 a3"}, rules.P1Wins, "O has no legal move", [2]int{4, 1}},
		{"no pieces comes before no legal move (edges=on takes the corner)", rules.Options{"edges": "on"},
			[]string{"OX.X..", "X.....", "X.....", "......", "......", "......"}, rules.P1, nil,
			[]string{"a4 a3"}, rules.P1Wins, "O has no pieces left", [2]int{4, 0}},
		{"the no-return rule can leave a player without a legal move", nil,
			[]string{"O.....", "X.....", "X.....", "......", "......", ".....X"}, rules.P1,
			map[rules.Player][4]int{rules.P2: {1, 2, 1, 1}},
			[]string{"f6 f5"}, rules.P1Wins, "O has no legal move", [2]int{3, 1}},
		{"at the turn limit more pieces win", rules.Options{"turns": "1"},
			[]string{"X.....", "......", "...X..", "......", "......", ".....O"}, rules.P1, nil,
			[]string{"a1 a2"}, rules.P1Wins, "turn limit reached: 2 pieces to 1", [2]int{2, 1}},
		{"at the turn limit more pieces win, for O too", rules.Options{"turns": "1"},
			[]string{"X.....", "......", "...O..", "......", "......", ".....O"}, rules.P1, nil,
			[]string{"a1 a2"}, rules.P2Wins, "turn limit reached: 2 pieces to 1", [2]int{1, 2}},
		{"with equal pieces more legal moves win", rules.Options{"turns": "1"},
			[]string{"X.....", "......", "..O...", "......", "......", "......"}, rules.P1, nil,
			[]string{"a1 a2"}, rules.P2Wins, "turn limit reached: 1 piece each, 4 moves to 2", [2]int{1, 1}},
		{"moves are counted with the mover's own no-return restriction: a draw", rules.Options{"turns": "1"},
			[]string{"X.....", "......", "......", "......", "......", ".....O"}, rules.P1, nil,
			[]string{"a1 a2"}, rules.Draw, "turn limit reached: 1 piece each, 2 moves each", [2]int{1, 1}},
		{"and with the other side's own no-return restriction", rules.Options{"turns": "1"},
			[]string{"X.....", "......", "......", "......", "......", ".....O"}, rules.P1,
			map[rules.Player][4]int{rules.P2: {6, 5, 6, 6}},
			[]string{"a1 a2"}, rules.P1Wins, "turn limit reached: 1 piece each, 2 moves to 1", [2]int{1, 1}},
		{"the limit counts the moves of both players", rules.Options{"turns": "2"},
			nil, rules.P1, nil,
			[]string{"a1 a3", "a5 a4"}, rules.P1Wins, "turn limit reached: 8 pieces each, 17 moves to 16", [2]int{8, 8}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var g *Game
			if tc.rows == nil {
				var err error
				if g, err = New(tc.opts); err != nil {
					t.Fatal(err)
				}
			} else {
				g = setup(t, tc.opts, tc.toMove, tc.rows...)
			}
			for p, sq := range tc.last {
				if err := g.SetLastMove(p, NewMove(sq[0], sq[1], sq[2], sq[3])); err != nil {
					t.Fatal(err)
				}
			}
			for i, text := range tc.moves {
				if g.Status() != rules.Ongoing {
					t.Fatalf("over before move %d: %+v", i+1, g.Outcome())
				}
				play(t, g, text)
			}
			out := g.Outcome()
			if out.Result != tc.result || out.Reason != tc.reason || out.Scores != tc.scores || !out.HasScores {
				t.Errorf("outcome %+v, want %v %q %v\n%s", out, tc.result, tc.reason, tc.scores, g.Diagram())
			}
			if g.Status() != tc.result {
				t.Errorf("Status %v, Outcome %v", g.Status(), out.Result)
			}
			var list rules.MoveList
			g.Moves(&list)
			if list.N != 0 {
				t.Errorf("a finished game has no moves, got %d", list.N)
			}
			if _, err := g.ParseMove("a1 a2"); !errors.Is(err, rules.ErrGameOver) {
				t.Errorf("ParseMove after the end: %v, want ErrGameOver", err)
			}
		})
	}
}

// TestDefaultTurnLimit plays 100 moves that remove nothing: the game goes
// on through move 99 and is scored after move 100.
func TestDefaultTurnLimit(t *testing.T) {
	g, _ := New(nil)
	cycle := []string{"e5 d5", "b5 c5", "e6 d6", "b6 c6", "d5 e5", "c5 b5", "d6 e6", "c6 b6"}
	for i := range 100 {
		if g.Status() != rules.Ongoing {
			t.Fatalf("over after %d moves: %+v", i, g.Outcome())
		}
		if g.TurnsLeft() != 100-i {
			t.Fatalf("after %d moves %d turns left", i, g.TurnsLeft())
		}
		play(t, g, cycle[i%len(cycle)])
	}
	out := g.Outcome()
	if out.Result == rules.Ongoing || !strings.HasPrefix(out.Reason, "turn limit reached: 8 pieces each") {
		t.Errorf("after 100 moves: %+v", out)
	}
}

func TestOptions(t *testing.T) {
	bad := map[string]string{
		"turns=abc":   "whole number from 1 to 10000",
		"turns=0":     "whole number from 1 to 10000",
		"turns=10001": "whole number from 1 to 10000",
		"edges=maybe": "on or off",
		"colour=red":  "it takes edges, turns",
	}
	for text, want := range bad {
		opts, err := rules.ParseOptions(text)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := New(opts); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("New(%s) = %v, want an error saying %q", text, err, want)
		}
		if _, err := rules.NewRegistry(Definition()).New("sixes", opts); err == nil {
			t.Errorf("registry New(%s) accepted it", text)
		}
	}
	g, err := New(rules.Options{"turns": "007", "edges": "ON"})
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Options().String(); got != "edges=on turns=7" {
		t.Errorf("options %q, want them complete and normalised", got)
	}
	again, err := New(g.Options())
	if err != nil || again.Options().String() != g.Options().String() || again.TurnLimit() != 7 || !again.Edges() {
		t.Errorf("New(Options()) = %v, %v", again, err)
	}
	g.Options()["turns"] = "3"
	if g.Options()["turns"] != "7" {
		t.Error("Options returns the game's own map")
	}
	def, err := rules.NewRegistry(Definition()).New("Sixes", nil)
	if err != nil || def.Options().String() != "edges=off turns=100" {
		t.Errorf("registry default options: %v %v", def, err)
	}
}

func TestSetup(t *testing.T) {
	labelled := `   1 2 3 4 5 6
a  X X . . O O
b  X X . . O O
c  . . . . . .
d  . . . . . .
e  O O . . X X
f  O O . . X X
`
	g, err := Setup(nil, labelled, rules.P2)
	if err != nil {
		t.Fatal(err)
	}
	start, _ := New(nil)
	if g.Diagram() != start.Diagram() || g.ToMove() != rules.P2 {
		t.Errorf("the rules file's diagram reads as\n%s", g.Diagram())
	}
	again, err := Setup(nil, g.Diagram(), rules.P2)
	if err != nil || again.Hash() != g.Hash() {
		t.Errorf("Setup(Diagram()) = %v, %v", again, err)
	}
	bad := map[string]string{
		"XX..OO\nXX..OO\n......":                                 "3 rows",
		"XX..OO\nXX..OO\n......\n......\nOO..XX\nOO..X":          "5 cells",
		"XX..OO\nXX..OO\n......\n......\nOO..XX\nOO..XY":         "not X, O or .",
		"XX..OO\nXX..OO\n......\n......\nOO..XX\nOO..XX\n......": "more than 6 rows",
		"......\n......\n......\n......\n......\n......":         "no pieces",
	}
	for diagram, want := range bad {
		if _, err := Setup(nil, diagram, rules.P1); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Setup(%q) = %v, want an error saying %q", diagram, err, want)
		}
	}
	if _, err := Setup(nil, labelled, 2); err == nil {
		t.Error("Setup accepted player 2 (rules.P2 is 1)")
	}
	if _, err := Setup(rules.Options{"turns": "x"}, labelled, rules.P1); err == nil {
		t.Error("Setup accepted turns=x")
	}
}

func TestSetLastMove(t *testing.T) {
	g := setup(t, nil, rules.P1, "X.....", "......", "..O...", "......", "......", "......")
	for _, tc := range []struct {
		p    rules.Player
		m    rules.Move
		want string
	}{
		{rules.P1, rules.Move(3 << 6), "not a step or a jump"},
		{rules.P1, NewMove(1, 2, 1, 1) + 1<<20, "not a step or a jump"},
		{rules.P1, NewMove(2, 1, 3, 1), "no X piece on c1"},
		{rules.P2, NewMove(3, 2, 3, 3), ""},
		{rules.P2, NewMove(3, 2, 2, 2), "no O piece on b2"},
		{rules.P1, NewMove(1, 2, 1, 1), ""},
	} {
		err := g.SetLastMove(tc.p, tc.m)
		if (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("SetLastMove(%v, %d) = %v, want %q", tc.p, tc.m, err, tc.want)
		}
	}
	if hasMove(g, "a1 a2") {
		t.Error("SetLastMove(X, a2 a1) should forbid a1 a2")
	}
	if m, ok := g.LastMove(rules.P1); !ok || g.FormatMove(m) != "a2 a1" {
		t.Errorf("LastMove = %v %v", m, ok)
	}
	// The player who moved last left its from square empty.
	h := setup(t, nil, rules.P2, "XO....", "......", "......", "......", "......", "......")
	if err := h.SetLastMove(rules.P1, NewMove(1, 2, 1, 1)); err == nil || !strings.Contains(err.Error(), "a2 must be empty") {
		t.Errorf("SetLastMove onto an occupied from square: %v", err)
	}
	play(t, g, "a1 b1")
	if err := g.SetLastMove(rules.P1, rules.NoMove); err == nil {
		t.Error("SetLastMove after a move was accepted")
	}
}

func TestMoveSquares(t *testing.T) {
	m := NewMove(3, 4, 4, 4)
	if fr, fc, tr, tc := MoveSquares(m); fr != 3 || fc != 4 || tr != 4 || tc != 4 {
		t.Errorf("MoveSquares(c4 d4) = %d %d %d %d", fr, fc, tr, tc)
	}
	g, _ := New(nil)
	if g.FormatMove(m) != "c4 d4" {
		t.Errorf("FormatMove = %q", g.FormatMove(m))
	}
	for _, bad := range [][4]int{{0, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 2, 2}, {1, 1, 1, 4}, {6, 6, 6, 7}} {
		if NewMove(bad[0], bad[1], bad[2], bad[3]) != rules.NoMove {
			t.Errorf("NewMove%v is not a move", bad)
		}
	}
	if got := g.FormatMove(rules.NoMove); !strings.HasPrefix(got, "invalid move") {
		t.Errorf("FormatMove(NoMove) = %q", got)
	}
}

func TestHashState(t *testing.T) {
	g, _ := New(nil)
	h0 := g.Hash()
	play(t, g, "e5 d5", "a5 a4")
	// The same board, side to move and turns left, but X may now take d5
	// back to e5 and may not take b2 back to c2.
	other, _ := New(rules.Options{"turns": "104"})
	play(t, other, "b2 c2", "b5 c5", "e5 d5", "a5 a4", "c2 b2", "c5 b5")
	if other.Diagram() != g.Diagram() || other.ToMove() != g.ToMove() || other.TurnsLeft() != g.TurnsLeft() {
		t.Fatal("the two games should show the same board")
	}
	if other.Hash() == g.Hash() {
		t.Error("the hash ignores the no-return restriction")
	}
	fewer, _ := New(rules.Options{"turns": "96"})
	play(t, fewer, "e5 d5", "a5 a4")
	if fewer.Hash() == g.Hash() {
		t.Error("the hash ignores the turns left")
	}
	g.Undo()
	g.Undo()
	if g.Hash() != h0 {
		t.Error("undo does not restore the hash")
	}
	x := setup(t, nil, rules.P1, "X.....", "......", "......", "......", "......", ".....O")
	o := setup(t, nil, rules.P2, "X.....", "......", "......", "......", "......", ".....O")
	if x.Hash() == o.Hash() {
		t.Error("the hash ignores the side to move")
	}
	// A restriction that forbids nothing does not change the hash; one
	// that forbids a move does.
	free := setup(t, nil, rules.P1, "XO....", "......", "......", "......", "......", ".....O")
	blocked := setup(t, nil, rules.P1, "XO....", "......", "......", "......", "......", ".....O")
	if err := blocked.SetLastMove(rules.P1, NewMove(1, 2, 1, 1)); err != nil {
		t.Fatal(err)
	}
	if free.Hash() != blocked.Hash() {
		t.Error("a restriction on an occupied square changes the hash")
	}
	open := setup(t, nil, rules.P1, "X.....", "......", "......", "......", "......", ".....O")
	if err := x.SetLastMove(rules.P1, NewMove(1, 2, 1, 1)); err != nil {
		t.Fatal(err)
	}
	if open.Hash() == x.Hash() {
		t.Error("a restriction that forbids a move does not change the hash")
	}
}

func TestClone(t *testing.T) {
	g, _ := New(nil)
	play(t, g, "e5 d5", "a5 a4")
	diagram, hash := g.Diagram(), g.Hash()
	c := g.Clone().(*Game)
	play(t, c, "b2 c2")
	c.Undo()
	c.Undo()
	c.Undo()
	play(t, c, "a1 a3")
	if g.Ply() != 2 || g.Diagram() != diagram || g.Hash() != hash || g.FormatMove(g.History()[0]) != "e5 d5" {
		t.Error("the clone shares state with the original")
	}
	if hasMove(g, "d5 e5") || !hasMove(g, "b2 c2") {
		t.Error("the original's no-return state changed")
	}
	c.Options()["turns"] = "1"
	if g.Options()["turns"] != "100" {
		t.Error("the clone shares options")
	}
}

func TestEvaluate(t *testing.T) {
	g, _ := New(nil)
	if g.Evaluate() != 0 || g.Material() != 0 {
		t.Errorf("the symmetric start scores %d, material %d", g.Evaluate(), g.Material())
	}
	// X to move, a piece up and O's c3 at risk (three X neighbours, d3 empty).
	x := setup(t, nil, rules.P1, "......", "..X...", ".XOX..", "......", "....X.", ".....O")
	if x.Material() != 200 || x.Evaluate() <= 200 {
		t.Errorf("material %d evaluate %d", x.Material(), x.Evaluate())
	}
	o := setup(t, nil, rules.P2, "......", "..X...", ".XOX..", "......", "....X.", ".....O")
	if o.Material() != -200 || o.Evaluate() >= -200 {
		t.Errorf("for O: material %d evaluate %d", o.Material(), o.Evaluate())
	}
}

func TestUndoWithoutMovePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Undo with no move played did not panic")
		}
	}()
	g, _ := New(nil)
	g.Undo()
}

// TestEncodeDecode checks that the store's encoding rebuilds the game
// exactly, no-return state included, through the registry.
func TestEncodeDecode(t *testing.T) {
	reg := rules.NewRegistry(Definition())
	g, err := New(rules.Options{"edges": "on", "turns": "50"})
	if err != nil {
		t.Fatal(err)
	}
	play(t, g, "e5 d5", "a5 a4", "b2 c2")
	back, err := reg.Decode(rules.Encode(g))
	if err != nil {
		t.Fatal(err)
	}
	d := back.(*Game)
	if d.Hash() != g.Hash() || d.Diagram() != g.Diagram() || d.Options().String() != g.Options().String() ||
		!slices.Equal(moveTexts(d), moveTexts(g)) || hasMove(d, "a4 a5") {
		t.Errorf("decoded game differs:\n%s", d.Diagram())
	}
}

// TestPlayPastTurnLimit checks that Play stays safe for a caller that plays
// on after the turn limit, although Moves offers nothing there.
func TestPlayPastTurnLimit(t *testing.T) {
	g, _ := New(rules.Options{"turns": "1"})
	play(t, g, "a1 a3")
	g.Play(NewMove(2, 2, 3, 2))
	g.Play(NewMove(1, 5, 1, 4))
	if g.Ply() != 3 || len(g.History()) != 3 {
		t.Errorf("ply %d, history %d", g.Ply(), len(g.History()))
	}
	g.Undo()
	g.Undo()
	g.Undo()
	start, _ := New(nil)
	if g.Diagram() != start.Diagram() || g.Ply() != 0 {
		t.Errorf("undo past the limit:\n%s", g.Diagram())
	}
}
