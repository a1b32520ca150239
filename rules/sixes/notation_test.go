package sixes

import (
	"errors"
	"strings"
	"testing"

	"arbiter/rules"
)

// accepted are the ways to write X's first move a1 c1 that ParseMove takes:
// the canonical form, the rules file's variants and harmless changes.
var accepted = []string{
	"a1 c1", "a1c1", "a1-c1", "A1 C1", "a1 to c1",
	"  a1   c1  ", "a1, c1", "a1,c1", "A1 TO C1", "a1 - c1", "A1-C1", "a1\tc1", "a1 To c1", "\ta1 c1\n",
}

func TestParseMoveAccepts(t *testing.T) {
	g, _ := New(nil)
	for _, text := range accepted {
		m, err := g.ParseMove(text)
		if err != nil {
			t.Errorf("ParseMove(%q): %v", text, err)
			continue
		}
		if got := g.FormatMove(m); got != "a1 c1" {
			t.Errorf("ParseMove(%q) formats as %q, want the canonical a1 c1", text, got)
		}
		if fr, fc, tr, tc := MoveSquares(m); fr != 1 || fc != 1 || tr != 3 || tc != 1 {
			t.Errorf("ParseMove(%q) = squares %d %d %d %d", text, fr, fc, tr, tc)
		}
	}
}

func TestParseMoveErrors(t *testing.T) {
	g, _ := New(nil)
	tests := []struct {
		text string
		kind error
		msg  string
	}{
		{"", rules.ErrUnreadable, `cannot read "": write a move like c4 d4`},
		{"hello", rules.ErrUnreadable, `cannot read "hello"`},
		{"a1", rules.ErrUnreadable, `cannot read "a1"`},
		{"a1 c1 d1", rules.ErrUnreadable, "write a move like c4 d4"},
		{"11 31", rules.ErrUnreadable, "write a move like c4 d4"},
		{"a1 to", rules.ErrUnreadable, "write a move like c4 d4"},
		{"to a1 c1", rules.ErrUnreadable, "write a move like c4 d4"},
		{"a1 -> c1", rules.ErrUnreadable, "write a move like c4 d4"},
		{"a1 c1.", rules.ErrUnreadable, "write a move like c4 d4"},
		{"ä1 c1", rules.ErrUnreadable, "write a move like c4 d4"},
		{"g1 a1", rules.ErrOffBoard, "g1 is off the board: rows are a to f and columns 1 to 6"},
		{"a7 a6", rules.ErrOffBoard, "a7 is off the board"},
		{"a0 a1", rules.ErrOffBoard, "a0 is off the board"},
		{"a1 a10", rules.ErrOffBoard, "a10 is off the board"},
		{"Z9 A1", rules.ErrOffBoard, "z9 is off the board"},
		{"c3 c4", rules.ErrNoPiece, "there is no piece on c3"},
		{"a5 a4", rules.ErrNotYourPiece, "the piece on a5 is O's; you play X"},
		{"a1 a2", rules.ErrIllegal, "the landing square a2 is taken"},
		{"a2 a4", rules.ErrIllegal, "a2 to a4 jumps over a3, which is empty"},
		{"b2 c3", rules.ErrIllegal, "b2 to c3 is not a move: a piece steps one square up, down, left or right, or jumps over one neighbouring piece"},
		{"b2 b5", rules.ErrIllegal, "b2 to b5 is not a move"},
		{"a1 a1", rules.ErrIllegal, "a1 to a1 does not move the piece"},
	}
	for _, tc := range tests {
		_, err := g.ParseMove(tc.text)
		var me *rules.MoveError
		if !errors.As(err, &me) || !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("ParseMove(%q) = %v, want a %v saying %q", tc.text, err, tc.kind, tc.msg)
		}
	}

	play(t, g, "e5 d5", "a5 a4")
	if _, err := g.ParseMove("d5 e5"); !errors.Is(err, rules.ErrIllegal) ||
		err.Error() != "d5 to e5 takes the piece you moved last straight back to where it came from: move another piece first" {
		t.Errorf("no-return: %v", err)
	}
	if _, err := g.ParseMove("b5 c5"); !errors.Is(err, rules.ErrNotYourPiece) || err.Error() != "the piece on b5 is O's; you play X" {
		t.Errorf("O's piece: %v", err)
	}

	over := setup(t, nil, rules.P1, "......", "..X...", ".XOX..", "......", "..X...", "......")
	play(t, over, "e3 d3")
	if _, err := over.ParseMove("d3 e3"); !errors.Is(err, rules.ErrGameOver) ||
		err.Error() != "the game is over: X won (O has no pieces left)" {
		t.Errorf("game over: %v", err)
	}
	draw := setup(t, rules.Options{"turns": "1"}, rules.P1, "X.....", "......", "......", "......", "......", ".....O")
	play(t, draw, "a1 a2")
	if _, err := draw.ParseMove("f6 f5"); err == nil || !strings.Contains(err.Error(), "it is a draw") {
		t.Errorf("game over in a draw: %v", err)
	}
}

// TestParseMoveAgreesWithMoves checks along a game that ParseMove accepts
// exactly the legal moves of all 36x36 square pairs.
func TestParseMoveAgreesWithMoves(t *testing.T) {
	g, _ := New(nil)
	rng := newTestRand(9)
	var list rules.MoveList
	for range 60 {
		g.Moves(&list)
		if list.N == 0 {
			break
		}
		for from := range squares {
			for to := range squares {
				text := squareName(from) + " " + squareName(to)
				m, err := g.ParseMove(text)
				legal := list.Contains(rules.Move(pack(from, to)))
				if legal != (err == nil) || legal && g.FormatMove(m) != text {
					t.Fatalf("ParseMove(%q) = %v, %v; legal: %v\n%s", text, m, err, legal, g.Diagram())
				}
			}
		}
		g.Play(list.Moves[rng.IntN(list.N)])
	}
}

func FuzzParseMove(f *testing.F) {
	for _, s := range accepted {
		f.Add(s)
	}
	for _, s := range []string{"", "c4 d4", "c4d4", "c4-d4", "C4 D4", "c4 to d4", "g1 a1", "a1 a10", "a99999999999999999999 a1",
		"e5 d5", "to", "a1 to to c1", ",,,", "-", "ä1 c1", "\x00", "a1 c1 ", "b2 c3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		g, _ := New(nil)
		mid, _ := New(nil)
		for _, s := range []string{"e5 d5", "a5 a4", "b2 c2"} {
			m, err := mid.ParseMove(s)
			if err != nil {
				t.Fatal(err)
			}
			mid.Play(m)
		}
		for _, pos := range []*Game{g, mid} {
			m, err := pos.ParseMove(text)
			if err != nil {
				var me *rules.MoveError
				if !errors.As(err, &me) || me.Kind == nil || me.Text == "" {
					t.Fatalf("ParseMove(%q) error %v is not a *rules.MoveError with a kind", text, err)
				}
				continue
			}
			var list rules.MoveList
			pos.Moves(&list)
			if !list.Contains(m) {
				t.Fatalf("ParseMove(%q) = %v, not a legal move", text, m)
			}
			canon := pos.FormatMove(m)
			again, err := pos.ParseMove(canon)
			if err != nil || again != m || pos.FormatMove(again) != canon {
				t.Fatalf("ParseMove(%q) = %q, which reads back as %v, %v", text, canon, again, err)
			}
		}
	})
}

func TestParseClassLine(t *testing.T) {
	tests := []struct {
		line string
		want string
		ok   bool
	}{
		{"Computer moves the piece at f4 to f5", "f4 f5", true},
		{"Player moves the piece at c4 to d4", "c4 d4", true},
		{"  computer MOVES the piece at A1 to A3.  ", "a1 a3", true},
		{"Computer moves the piece at f4 to f5\r", "f4 f5", true},
		{"Computer moves the piece at z9 to a1", "z9 a1", true}, // ParseMove says it is off the board
		{"Choose piece to move:", "", false},
		{"Choose the new position for c4:", "", false},
		{"Computer moves the piece at f4", "", false},
		{"Computer moves the piece at f4 to", "", false},
		{"Computer moves the piece at f4 into f5", "", false},
		{"Computer moves the piece at 44 to f5", "", false},
		{"", "", false},
	}
	for _, tc := range tests {
		got, ok := ParseClassLine(tc.line)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseClassLine(%q) = %q, %v; want %q, %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
	if ClassTargetPrompt("c4") != "Choose the new position for c4:" || ClassPiecePrompt != "Choose piece to move:" {
		t.Error("the class prompts are not the handout's")
	}
}

func FuzzParseClassLine(f *testing.F) {
	for _, s := range []string{"Computer moves the piece at f4 to f5", "Player moves the piece at c4 to d4.", "moves the piece at", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		text, ok := ParseClassLine(line)
		if !ok {
			return
		}
		g, _ := New(nil)
		// What it returns is always readable move text: at worst off the
		// board or not legal, never unreadable.
		if _, err := g.ParseMove(text); errors.Is(err, rules.ErrUnreadable) {
			t.Fatalf("ParseClassLine(%q) = %q, which ParseMove cannot read: %v", line, text, err)
		}
	})
}

func FuzzSetup(f *testing.F) {
	f.Add("XX..OO\nXX..OO\n......\n......\nOO..XX\nOO..XX", uint8(0))
	f.Add("   1 2 3 4 5 6\na  X X . . O O\nb  X X . . O O\nc  . . . . . .\nd  . . . . . .\ne  O O . . X X\nf  O O . . X X\n", uint8(1))
	f.Add("X", uint8(3))
	f.Fuzz(func(t *testing.T, diagram string, toMove uint8) {
		g, err := Setup(nil, diagram, rules.Player(toMove))
		if err != nil {
			return
		}
		again, err := Setup(nil, g.Diagram(), g.ToMove())
		if err != nil || again.Diagram() != g.Diagram() || again.Hash() != g.Hash() {
			t.Fatalf("Setup(Diagram()) of\n%s= %v", g.Diagram(), err)
		}
		_ = rules.Perft(g, 2)
		_ = g.Outcome()
	})
}
