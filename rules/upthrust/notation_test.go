package upthrust

import (
	"errors"
	"strings"
	"testing"

	"arbiter/rules"
)

// TestParseMoveAccepts: the canonical text and every tolerated variant.
func TestParseMoveAccepts(t *testing.T) {
	g := newGB(t)
	tests := map[string]string{
		"G1":        "G1",
		"g1":        "G1",
		"1g":        "G1",
		"green 1":   "G1",
		"1 G":       "G1",
		"Green1":    "G1",
		"1 green":   "G1",
		"GREEN 1":   "G1",
		"  g 1  ":   "G1",
		"G, 1":      "G1",
		"b4":        "B4",
		"4,B":       "B4",
		"blue 3":    "B3",
		"\tG\t2\n":  "G2",
		"01g":       "G1",
		"G 1 ;":     "G1",
		" blue  2 ": "B2",
	}
	for text, want := range tests {
		m, err := g.ParseMove(text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if got := g.FormatMove(m); got != want {
			t.Errorf("%q reads as %s, want %s", text, got, want)
		}
	}
	// pass, where it is the move.
	j := setup(t, jamDiagram, rules.P1)
	for _, text := range []string{"pass", "PASS", " Pass ", "pass,"} {
		if m, err := j.ParseMove(text); err != nil || m != Pass || j.FormatMove(m) != "pass" {
			t.Errorf("%q: %v %v", text, m, err)
		}
	}
	// Red and yellow for player 2.
	play(t, g, "G1")
	for text, want := range map[string]string{"r1": "R1", "yellow 2": "Y2", "3 Y": "Y3", "red4": "R4"} {
		m, err := g.ParseMove(text)
		if err != nil || g.FormatMove(m) != want {
			t.Errorf("player 2 %q: %v %v", text, g.FormatMove(m), err)
		}
	}
}

// TestParseMoveErrors: each kind of bad text and its message.
func TestParseMoveErrors(t *testing.T) {
	tests := []struct {
		game *Game
		text string
		kind error
		want string
	}{
		{newGB(t), "", rules.ErrUnreadable, `cannot read "": write a colour letter and a column, like G1 (the green piece in column 1), or pass`},
		{newGB(t), "xyz", rules.ErrUnreadable, `cannot read "xyz": there is no column number; write a colour letter`},
		{newGB(t), "G", rules.ErrUnreadable, "there is no column number"},
		{newGB(t), "1", rules.ErrUnreadable, "there is no colour"},
		{newGB(t), "x1", rules.ErrUnreadable, `"x" is not a colour (G green, R red, B blue, Y yellow)`},
		{newGB(t), "gr1", rules.ErrUnreadable, `"gr" is not a colour`},
		{newGB(t), "g1g", rules.ErrUnreadable, `cannot read "g1g"`},
		{newGB(t), "4 2 4 10", rules.ErrUnreadable, "there is no colour"},
		{newGB(t), "G5", rules.ErrOffBoard, "there is no column 5: the columns are 1 to 4, left to right"},
		{newGB(t), "G0", rules.ErrOffBoard, "there is no column 0"},
		{newGB(t), "green 12345678901234567890", rules.ErrOffBoard, "there is no column 12345678901234567890"},
		{newGB(t), "R1", rules.ErrNotYourPiece, "red is Player 2's colour: Player 1 moves green and blue"},
		{newGB(t), "yellow 3", rules.ErrNotYourPiece, "yellow is Player 2's colour"},
		{newGB(t), "pass", rules.ErrIllegal, "Player 1 may not pass while a legal move exists, for example G1"},
		{setup(t, mixedDiagram, rules.P1), "G1", rules.ErrIllegal,
			"G1 stands in row 9 with 3 pieces in that row, so it moves 3 rows: it would land off the board at row 12"},
		{setup(t, mixedDiagram, rules.P1), "B1", rules.ErrIllegal,
			"B1 is alone in row 3, so it moves one row: the landing square 1 4 (column 1, row 4) is taken by Y1"},
		{setup(t, mixedDiagram, rules.P1), "B3", rules.ErrIllegal,
			"B3 is alone in row 10, so it moves one row, and it is the most advanced blue piece: a one-row move of the most advanced blue piece is not allowed"},
		{setup(t, mixedDiagram, rules.P1), "B2", rules.ErrIllegal,
			"B2 stands in row 1 with 2 pieces in that row, so it moves 2 rows: it would land in row 3, where a blue piece already stands; two pieces of one colour may not share a row below the scoring zone"},
		{setup(t, mixedDiagram, rules.P2), "G3", rules.ErrNotYourPiece, "green is Player 1's colour: Player 2 moves red and yellow"},
	}
	for _, tc := range tests {
		_, err := tc.game.ParseMove(tc.text)
		var me *rules.MoveError
		if !errors.As(err, &me) {
			t.Errorf("%q: error %v is not a *rules.MoveError", tc.text, err)
			continue
		}
		if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v (kind %v), want kind %v containing %q", tc.text, err, me.Kind, tc.kind, tc.want)
		}
	}
	// After the end, any text is refused as game over.
	g := setup(t, fewLowDiagram, rules.P1)
	play(t, g, "B4")
	for _, text := range []string{"G2", "pass", "nonsense"} {
		_, err := g.ParseMove(text)
		if !errors.Is(err, rules.ErrGameOver) || !strings.Contains(err.Error(), "the game is over: at most two pieces left below the scoring zone") {
			t.Errorf("%q after the end: %v", text, err)
		}
	}
}

// FuzzParseMove: ParseMove never panics, accepted text is a legal move
// whose canonical text reads back as the same move, and every error is a
// *rules.MoveError of a known kind.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{
		"G1", "g1", "1g", "green 1", "1 G", "pass", "PASS", "Green1", "1,green", " b 4 ",
		"R1", "yellow 3", "G5", "G0", "x1", "", "1", "G", "gr1", "g1g", "4 2 4 10",
		"green 99999999999999999999", "é1", "g\u00a01", "ǅ1", "blue 2", "B 3", "01g",
	} {
		f.Add(s)
	}
	games := []*Game{newGB(f), setup(f, mixedDiagram, rules.P1), setup(f, mixedDiagram, rules.P2), setup(f, jamDiagram, rules.P1)}
	kinds := []error{rules.ErrUnreadable, rules.ErrOffBoard, rules.ErrNotYourPiece, rules.ErrIllegal, rules.ErrGameOver}
	f.Fuzz(func(t *testing.T, text string) {
		for _, g := range games {
			m, err := g.ParseMove(text)
			if err != nil {
				var me *rules.MoveError
				if !errors.As(err, &me) || me.Text == "" {
					t.Fatalf("%q: error %v is not a *rules.MoveError with text", text, err)
				}
				known := false
				for _, k := range kinds {
					known = known || errors.Is(err, k)
				}
				if !known {
					t.Fatalf("%q: unknown kind %v", text, me.Kind)
				}
				continue
			}
			var list rules.MoveList
			g.Moves(&list)
			if !list.Contains(m) {
				t.Fatalf("%q accepted as %v, not a legal move", text, m)
			}
			canon := g.FormatMove(m)
			back, err := g.ParseMove(canon)
			if err != nil || back != m || g.FormatMove(back) != canon {
				t.Fatalf("%q -> %s -> %v, %v", text, canon, back, err)
			}
		}
	})
}

// FuzzSetup: Setup never panics on any diagram, and an accepted one draws
// back to a diagram that Setup reads as the same position.
func FuzzSetup(f *testing.F) {
	for _, d := range []string{naiveStart, mixedDiagram, jamDiagram, fewLowDiagram, "", "GRBY", strings.Repeat("....\n", 11)} {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, diagram string) {
		g, err := Setup(nil, diagram, rules.P1)
		if err != nil {
			return
		}
		again, err := Setup(g.Options(), g.Diagram(), rules.P1)
		if err != nil || again.Hash() != g.Hash() || again.Diagram() != g.Diagram() {
			t.Fatalf("diagram does not round trip: %v\n%s", err, g.Diagram())
		}
		var list rules.MoveList
		g.Moves(&list)
		g.Status()
	})
}
