package hique

import (
	"errors"
	"strings"
	"testing"

	"arbiter/rules"
)

// "Canonical move text: the four numbers X1 Y1 X2 Y2, e.g. 4 2 4 10. Also
// accepted with commas or other separators: 4,2 4,10, 4,2,4,10,
// (4,2)->(4,10)." Plus extra spaces and any case.
var tolerated = []string{
	"4 2 4 10",
	"  4  2  4  10  ",
	"4\t2\t4\t10",
	"4,2 4,10",
	"4,2,4,10",
	"4, 2, 4, 10",
	"(4,2)->(4,10)",
	"(4, 2) -> (4, 10)",
	"(4 2)(4 10)",
	"[4,2]->[4,10]",
	"4 2 -> 4 10",
	"4 2 > 4 10",
	"4 2 to 4 10",
	"4 2 TO 4 10",
	"4 2 To 4 10",
	"4;2;4;10",
	"04 02 04 010",
	"4 2 4 10\n",
}

func TestParseTolerated(t *testing.T) {
	g := start(t, nil)
	for _, text := range tolerated {
		m, err := g.ParseMove(text)
		if err != nil {
			t.Errorf("ParseMove(%q): %v", text, err)
			continue
		}
		if got := g.FormatMove(m); got != "4 2 4 10" {
			t.Errorf("ParseMove(%q) = %s, want 4 2 4 10", text, got)
		}
	}
}

func TestFormatMove(t *testing.T) {
	g := start(t, nil)
	var list rules.MoveList
	g.Moves(&list)
	for _, m := range list.Slice() {
		text := g.FormatMove(m)
		back, err := g.ParseMove(text)
		if err != nil || back != m {
			t.Errorf("round trip of %s: %v %v", text, back, err)
		}
		x1, y1, x2, y2 := MoveCoords(m)
		if want := itoa(x1) + " " + itoa(y1) + " " + itoa(x2) + " " + itoa(y2); text != want {
			t.Errorf("FormatMove = %q, MoveCoords say %q", text, want)
		}
	}
	if got := g.FormatMove(rules.NoMove); !strings.HasPrefix(got, "invalid move") {
		t.Errorf("FormatMove(NoMove) = %q", got)
	}
	if x1, y1, x2, y2 := MoveCoords(packGuard(pointBit(4, 2), pointBit(4, 10))); x1 != 4 || y1 != 2 || x2 != 4 || y2 != 10 {
		t.Errorf("MoveCoords = %d %d %d %d", x1, y1, x2, y2)
	}
	if x1, y1, x2, y2 := MoveCoords(packRunner(squareBit(13, 11), squareBit(13, 13))); x1 != 13 || y1 != 11 || x2 != 13 || y2 != 13 {
		t.Errorf("MoveCoords = %d %d %d %d", x1, y1, x2, y2)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name  string
		moves []string // played first
		text  string
		kind  error
		msg   string
	}{
		{"empty", nil, "", rules.ErrUnreadable, `cannot read "": write a move as four numbers, from x y then to x y, like 4 2 4 10`},
		{"words", nil, "guard forward", rules.ErrUnreadable, `cannot read "guard forward"`},
		{"three numbers", nil, "4 2 4", rules.ErrUnreadable, `cannot read "4 2 4"`},
		{"five numbers", nil, "4 2 4 10 6", rules.ErrUnreadable, `cannot read "4 2 4 10 6"`},
		{"minus sign", nil, "-4 2 4 10", rules.ErrUnreadable, `cannot read "-4 2 4 10"`},
		{"letters", nil, "d2 d10", rules.ErrUnreadable, `cannot read "d2 d10"`},
		{"decimal", nil, "4.0 2 4 10", rules.ErrUnreadable, `cannot read`},
		{"x too big", nil, "14 2 4 10", rules.ErrOffBoard, "14 2 is off the board: x and y both go from 1 to 13"},
		{"zero", nil, "3 1 0 1", rules.ErrOffBoard, "0 1 is off the board"},
		{"huge", nil, "99999999999999999999999 1 3 3", rules.ErrOffBoard, "1000 1 is off the board"},
		{"mixed parity from", nil, "3 2 3 4", rules.ErrNotAPlace,
			"3 2 is not a place on the board: runners stand where both numbers are odd, guards where both are even (2 to 12)"},
		{"mixed parity to", nil, "4 2 4 9", rules.ErrNotAPlace, "4 9 is not a place on the board"},
		{"no runner", nil, "3 3 3 5", rules.ErrNoPiece, "there is no runner on 3 3"},
		{"no guard", nil, "4 4 4 6", rules.ErrNoPiece, "there is no guard on 4 4"},
		{"white runner on black's turn", nil, "3 13 3 11", rules.ErrNotYourPiece, "the runner on 3 13 is White's, and it is Black's turn"},
		{"white guard on black's turn", nil, "4 12 4 10", rules.ErrNotYourPiece, "the guard on 4 12 is White's, and it is Black's turn"},
		{"black runner on white's turn", []string{"3 1 3 3"}, "5 1 5 3", rules.ErrNotYourPiece, "the runner on 5 1 is Black's, and it is White's turn"},
		{"runner stays", nil, "3 1 3 1", rules.ErrIllegal, "3 1 3 1 is not a legal move: the runner would stay where it is"},
		{"runner to a point", nil, "3 1 4 2", rules.ErrIllegal,
			"3 1 4 2 is not a legal move: a runner stays on the light squares (both numbers odd), and 4 2 is a dark point"},
		{"runner backward", []string{"3 1 3 3", "3 13 3 11"}, "3 3 3 1", rules.ErrIllegal, "3 3 3 1 is not a legal move: a runner never moves backward"},
		{"white runner backward", []string{"3 1 3 3", "3 13 3 11", "5 1 5 3"}, "3 11 3 13", rules.ErrIllegal, "a runner never moves backward"},
		{"runner diagonal", nil, "3 1 1 3", rules.ErrIllegal, "a runner moves forward, left or right, never diagonally"},
		{"runner two squares", nil, "3 1 3 5", rules.ErrIllegal, "a runner moves only one square (two coordinate steps) at a time"},
		{"runner jumps sideways", nil, "3 1 7 1", rules.ErrIllegal, "a runner moves only one square"},
		{"runner onto a runner", nil, "5 1 3 1", rules.ErrIllegal, "5 1 3 1 is not a legal move: the landing square 3 1 is taken by a Black runner"},
		{"runner onto an enemy runner", []string{"3 1 3 3", "3 13 3 11", "3 3 3 5", "3 11 3 9", "3 5 3 7"}, "3 9 3 7", rules.ErrIllegal,
			"the landing square 3 7 is taken by a Black runner"},
		{"guard stays", nil, "4 2 4 2", rules.ErrIllegal, "the guard would stay where it is"},
		{"guard to a square", nil, "4 2 5 3", rules.ErrIllegal,
			"4 2 5 3 is not a legal move: a guard stays on the dark points (both numbers even), and 5 3 is a light square"},
		{"guard diagonal", nil, "4 2 6 4", rules.ErrIllegal, "a guard moves straight up, down, left or right, never diagonally"},
		{"guard onto an enemy guard", nil, "4 2 4 12", rules.ErrIllegal, "4 2 4 12 is not a legal move: the point 4 12 is taken by a White guard"},
		{"guard onto its own", nil, "4 2 6 2", rules.ErrIllegal, "the point 6 2 is taken by a Black guard"},
		{"guard through a guard", []string{"4 2 4 6", "3 13 3 11"}, "4 2 4 10", rules.ErrNoPiece, "there is no guard on 4 2"},
		{"guard passes through", []string{"4 2 4 6", "3 13 3 11", "6 2 6 4"}, "4 12 4 2", rules.ErrIllegal,
			"4 12 to 4 2 passes through the guard on 4 6, and a guard never jumps"},
		{"guard passes through sideways", nil, "4 2 12 2", rules.ErrIllegal, "4 2 to 12 2 passes through the guard on 6 2, and a guard never jumps"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := start(t, nil)
			playAll(t, g, tt.moves...)
			m, err := g.ParseMove(tt.text)
			if err == nil {
				t.Fatalf("ParseMove(%q) = %s, want an error", tt.text, g.FormatMove(m))
			}
			var me *rules.MoveError
			if !errors.As(err, &me) || !errors.Is(err, tt.kind) {
				t.Fatalf("ParseMove(%q): %v (%T), want kind %v", tt.text, err, err, tt.kind)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("ParseMove(%q): %q, want it to contain %q", tt.text, err.Error(), tt.msg)
			}
			if m != rules.NoMove {
				t.Errorf("ParseMove(%q) returned move %v with an error", tt.text, m)
			}
		})
	}
}

func TestParseGameOver(t *testing.T) {
	g := start(t, rules.Options{"turns": "1"})
	playAll(t, g, "3 1 3 3")
	_, err := g.ParseMove("3 13 3 11")
	if !errors.Is(err, rules.ErrGameOver) || err.Error() != "the game is over: turn limit reached, timing option 6 to 5" {
		t.Fatalf("after the end: %v", err)
	}
}

// FuzzParseMove checks that ParseMove never panics, returns only
// *rules.MoveError errors, and that accepted text round-trips.
func FuzzParseMove(f *testing.F) {
	for _, s := range tolerated {
		f.Add(s, false)
		f.Add(s, true)
	}
	for _, s := range []string{"", "3 1 3 3", "3,1,1,1", "(11,1)->(13,1)", "14 2 4 10", "3 2 3 4", "4 4 4 6",
		"3 13 3 11", "4 2 8 2", "99999999999999999999 1 1 1", "1 1 1 1 1", "->", "to to to", "4 2 4 1\x00", "ü"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, text string, midgame bool) {
		g, err := New(nil)
		if err != nil {
			t.Fatal(err)
		}
		if midgame {
			playAll(t, g, "4 2 4 8", "6 12 6 6", "3 1 3 3", "9 13 9 11", "3 3 3 5")
		}
		m, err := g.ParseMove(text)
		if err != nil {
			var me *rules.MoveError
			if !errors.As(err, &me) || me.Kind == nil || me.Text == "" {
				t.Fatalf("ParseMove(%q): %v (%T) is not a *rules.MoveError", text, err, err)
			}
			return
		}
		canonical := g.FormatMove(m)
		back, err := g.ParseMove(canonical)
		if err != nil || back != m || g.FormatMove(back) != canonical {
			t.Fatalf("ParseMove(%q) = %s, which reads back as %v %v", text, canonical, back, err)
		}
		var list rules.MoveList
		g.Moves(&list)
		if !list.Contains(m) {
			t.Fatalf("ParseMove(%q) = %s, not a legal move", text, canonical)
		}
	})
}
