package hiya

import (
	"errors"
	"strings"
	"testing"

	"arbiter/rules"
)

func TestParseMoveAccepted(t *testing.T) {
	// The rules file: canonical E2B5; also e2b5, E2 B5, E2-B5; an attack may
	// carry "Hi-YA!" (README: extra spaces, commas, any case).
	for _, text := range []string{
		"E2B5", "e2b5", "E2 B5", "E2-B5", "  e2 - b5  ", "E2,B5", "E2, B5", "e2\tB5",
		"E2B5\n", "\r\nE2 B5\r\n", "E2B5 Hi-YA!", "E2B5 hi-ya!", "e2b5 HIYA", "E2B5 HiYa!!", "E2-B5 hi ya", "E2B5, Hi-YA!", "E2B5Hi-YA!",
	} {
		g := newGame(t, nil)
		m, err := g.ParseMove(text)
		if err != nil {
			t.Errorf("ParseMove(%q): %v", text, err)
			continue
		}
		if got := g.FormatMove(m); got != "E2B5" {
			t.Errorf("ParseMove(%q) formats as %q", text, got)
		}
	}
	g := newGame(t, nil)
	for _, text := range []string{"E3E4", "e3-e4", "E3 E4 ", "e3,e4"} {
		if m, err := g.ParseMove(text); err != nil || g.FormatMove(m) != "E3E4" {
			t.Errorf("ParseMove(%q) = %v, %v", text, m, err)
		}
	}
}

func TestParseMoveErrors(t *testing.T) {
	over := setup(t, South, "SK A1", "SS D2", "NK D8", "Nj A7")
	over.Play(mustParse(t, over, "D2D7"))
	tests := []struct {
		g    *Game
		text string
		kind error
		msg  string
	}{
		{nil, "", rules.ErrUnreadable, `cannot read "": it needs two squares; write a move as from square then to square, like E2B5`},
		{nil, "xyz", rules.ErrUnreadable, `cannot read "xyz": a square is a column letter then a row number, like E2`},
		{nil, "E2", rules.ErrUnreadable, "it needs two squares"},
		{nil, "22B5", rules.ErrUnreadable, "a square starts with a column letter A to G"},
		{nil, "E2B5 foo", rules.ErrUnreadable, "only the announcement Hi-YA! may follow the two squares"},
		{nil, "E2B5C6", rules.ErrUnreadable, "only the announcement"},
		{nil, "E2B5 Hi-YA?", rules.ErrUnreadable, "only the announcement"},
		{nil, "E123B5", rules.ErrUnreadable, "a row number has one digit"},
		{nil, "pass", rules.ErrUnreadable, "a square is a column letter then a row number"},
		{nil, "E2–B5", rules.ErrUnreadable, "a square starts with a column letter"},
		{nil, "H2B5", rules.ErrOffBoard, "H2 is off the board: columns run from A to G and rows from 1 to 8"},
		{nil, "E2B9", rules.ErrOffBoard, "B9 is off the board"},
		{nil, "E0B5", rules.ErrOffBoard, "E0 is off the board"},
		{nil, "A10A11", rules.ErrOffBoard, "A10 is off the board"},
		{nil, "D4D5", rules.ErrNoPiece, "there is no piece on D4 to move"},
		{nil, "E7E6", rules.ErrNotYourPiece, "E7 holds North's Samurai; it is South's turn"},
		{nil, "E2E2", rules.ErrIllegal, "E2E2 is not a legal move: a move must go to another square"},
		{nil, "E2F3", rules.ErrIllegal, "the landing square F3 is taken by South's mini-Samurai"},
		{nil, "E2A6", rules.ErrIllegal, "E2A6 is not a legal move: the landing square A6 is taken by North's mini-Samurai"},
		{nil, "D1D2", rules.ErrIllegal, "the King never moves"},
		{nil, "E3E4 Hi-YA!", rules.ErrIllegal, "E3E4 attacks nothing, so it is not announced with Hi-YA!"},
		{over, "A7B6", rules.ErrGameOver, "the game is over: South won (king attacked)"},
		{over, "H9H9", rules.ErrOffBoard, "H9 is off the board"},
	}
	for _, tt := range tests {
		g := tt.g
		if g == nil {
			g = newGame(t, nil)
		}
		m, err := g.ParseMove(tt.text)
		var me *rules.MoveError
		if !errors.As(err, &me) || !errors.Is(err, tt.kind) || !strings.Contains(err.Error(), tt.msg) || m != rules.NoMove {
			t.Errorf("ParseMove(%q) = %v, %v; want %v containing %q", tt.text, m, err, tt.kind, tt.msg)
		}
	}
}

func TestFormatMove(t *testing.T) {
	g := newGame(t, nil)
	for _, m := range []rules.Move{rules.NoMove, 7, 1 << 20} {
		if got := g.FormatMove(m); !strings.HasPrefix(got, "?") {
			t.Errorf("FormatMove(%#x) = %q, want a marked non-move", uint32(m), got)
		}
	}
}

// The rules file: column c becomes G-(c-A), row r becomes 9-r, so E2B5 from
// one side is C7F4 from the other.
func TestTurn(t *testing.T) {
	tests := []struct{ in, want string }{
		{"E2B5", "C7F4"},
		{"C7F4", "E2B5"},
		{"a1g8", "G8A1"},
		{"D4 D5", "D5D4"},
		{"E2-B5 hiya", "C7F4 Hi-YA!"},
		{"C7F4 Hi-YA!", "E2B5 Hi-YA!"},
	}
	for _, tt := range tests {
		got, err := Turn(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("Turn(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
		back, err := Turn(got)
		if again, _ := Turn(back); err != nil || again != got {
			t.Errorf("Turn is not its own inverse on %q: %q, %q", tt.in, back, again)
		}
	}
	for _, in := range []string{"H2B5", "E2B0", "junk", ""} {
		if _, err := Turn(in); err == nil {
			t.Errorf("Turn(%q) accepted", in)
		}
	}
	if _, err := Turn("H2B5"); !errors.Is(err, rules.ErrOffBoard) {
		t.Errorf("Turn(H2B5): %v", err)
	}
}

func TestSetup(t *testing.T) {
	start := newGame(t, nil)
	g, err := Setup(nil, start.Diagram(), rules.P1)
	if err != nil {
		t.Fatal(err)
	}
	if g.Hash() != start.Hash() || g.Diagram() != start.Diagram() {
		t.Fatal("Setup(start.Diagram()) is not the start")
	}
	// The doc comment's diagram, its spacing and row labels and all.
	doc := `
	8 .  .  .  NK .  .  .
	7 NJ NJ NJ .  NS NS NS
	6 Ns Ns Ns .  Nj Nj Nj
	5 .  .  .  .  .  .  .
	4 .  .  .  .  .  .  .
	3 Sj Sj Sj .  Ss Ss Ss
	2 SS SS SS .  SJ SJ SJ
	1 .  .  .  SK .  .  .
	  A  B  C  D  E  F  G
	`
	if g, err := Setup(nil, doc, rules.P1); err != nil || g.Hash() != start.Hash() {
		t.Fatalf("the documented start: %v", err)
	}
	// Without labels, with .. cells; North to move as player 2.
	bare := strings.Join([]string{
		".. .. .. NK .. .. ..", "NJ NJ NJ .. NS NS NS", "Ns Ns Ns .. Nj Nj Nj", ".. .. .. .. .. .. ..",
		".. .. .. .. .. .. ..", "Sj Sj Sj .. Ss Ss Ss", "SS SS SS .. SJ SJ SJ", ".. .. .. SK .. .. ..",
	}, "\n")
	n, err := Setup(nil, bare, rules.P2)
	if err != nil {
		t.Fatal(err)
	}
	if n.SideToMove() != North || n.ToMove() != rules.P2 || n.Hash() == start.Hash() {
		t.Fatalf("North to move: %s, %v", n.SideToMove(), n.ToMove())
	}
	if n.Hash() != newGame(t, rules.Options{"first": "north"}).Hash() {
		t.Fatal("the hash depends on more than the position")
	}
	// first=north: player 1 is North.
	if f, err := Setup(rules.Options{"first": "north"}, bare, rules.P1); err != nil || f.SideToMove() != North {
		t.Fatalf("first=north, p1 to move: %v", err)
	}

	bad := []struct {
		diagram string
		toMove  rules.Player
		opts    rules.Options
		msg     string
	}{
		{bare, rules.P1, rules.Options{"first": "up"}, "first must be south or north"},
		{bare, rules.Player(2), nil, "player to move must be p1 or p2"},
		{strings.Join(strings.Split(bare, "\n")[1:], "\n"), rules.P1, nil, "the diagram has 7 board lines, want 8"},
		{bare + "\n. . . . . . .", rules.P1, nil, "more than 8 board lines"},
		{strings.Replace(bare, "NK", "NK ..", 1), rules.P1, nil, "line 1 (row 8): 8 cells, want 7"},
		{strings.Replace(bare, "NK", "XK", 1), rules.P1, nil, `square D8: cell "XK": side 'X' is not S or N`},
		{strings.Replace(bare, "NK", "Nk", 1), rules.P1, nil, `cell "Nk": piece 'k' is not K, J, S, j or s`},
		{strings.Replace(bare, "NK", "NKJ", 1), rules.P1, nil, `cell "NKJ": write a cell as . for empty`},
		{strings.Replace(bare, "NK", "..", 1), rules.P1, nil, "North has 0 Kings, want exactly 1"},
		{strings.Replace(bare, "NJ", "SK", 1), rules.P1, nil, "South has 2 Kings, want exactly 1"},
		{"9 " + bare, rules.P1, nil, `line 1: expected row 8, found row label "9"`},
	}
	for _, tt := range bad {
		if _, err := Setup(tt.opts, tt.diagram, tt.toMove); err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("Setup: error %v, want %q\n%s", err, tt.msg, tt.diagram)
		}
	}
}

// moveSeeds are texts for the fuzzers: every tolerated form and every kind
// of error.
var moveSeeds = []string{
	"E2B5", "e2b5", "E2 B5", "E2-B5", "E2,B5", " e2 - b5 ", "E2B5 Hi-YA!", "e2b5 hiya", "E2B5 HiYa!!",
	"E3E4", "E3E4 Hi-YA!", "", "xyz", "E2", "22B5", "E2B5 foo", "E2B5C6", "E123B5", "pass", "H2B5",
	"E2B9", "A10A11", "D4D5", "E7E6", "E2E2", "E2F3", "D1D2", "C7F4", "ÄÖ", "E2\x00B5", "z99z99 hi-ya",
}

func FuzzParseMove(f *testing.F) {
	for _, s := range moveSeeds {
		f.Add(s, false)
		f.Add(s, true)
	}
	mid := newGame(f, nil)
	play(f, mid, "E2B5", "C7F4", "E3E4", "F4E5")
	f.Fuzz(func(t *testing.T, text string, midgame bool) {
		g := newGame(t, nil)
		if midgame {
			g = mid.clone()
		}
		m, err := g.ParseMove(text)
		if err != nil {
			var me *rules.MoveError
			if !errors.As(err, &me) || me.Kind == nil || m != rules.NoMove || me.Text == "" {
				t.Fatalf("ParseMove(%q): error %#v is not a MoveError with a kind", text, err)
			}
			return
		}
		var list rules.MoveList
		g.Moves(&list)
		if !list.Contains(m) {
			t.Fatalf("ParseMove(%q) = %s, not a legal move", text, g.FormatMove(m))
		}
		canon := g.FormatMove(m)
		if len(canon) != 4 {
			t.Fatalf("FormatMove = %q", canon)
		}
		if again, err := g.ParseMove(canon); err != nil || again != m {
			t.Fatalf("round trip of %q via %q: %v, %v", text, canon, again, err)
		}
		_, err = g.ParseMove(canon + " Hi-YA!")
		if (err == nil) != g.IsAttack(m) {
			t.Fatalf("%s Hi-YA!: %v, attack %v", canon, err, g.IsAttack(m))
		}
	})
}

func FuzzTurn(f *testing.F) {
	for _, s := range moveSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		out, err := Turn(text)
		if err != nil {
			var me *rules.MoveError
			if !errors.As(err, &me) {
				t.Fatalf("Turn(%q): error %#v is not a MoveError", text, err)
			}
			return
		}
		back, err := Turn(out)
		if err != nil {
			t.Fatalf("Turn(%q) = %q, which Turn does not read: %v", text, out, err)
		}
		if again, _ := Turn(back); again != out {
			t.Fatalf("Turn is not its own inverse: %q -> %q -> %q -> %q", text, out, back, again)
		}
		want, _ := readMove(text)
		got, _ := readMove(back)
		if got != want {
			t.Fatalf("Turn twice changed %q into %q", text, back)
		}
	})
}

func FuzzSetup(f *testing.F) {
	f.Add(newGame(f, nil).Diagram(), uint8(0))
	f.Add(diagramOf(f, "SK A1", "NK G8", "SJ E6", "NS C5"), uint8(1))
	f.Add("8 . . . NK\n", uint8(0))
	f.Add("", uint8(3))
	f.Fuzz(func(t *testing.T, diagram string, toMove uint8) {
		g, err := Setup(nil, diagram, rules.Player(toMove))
		if err != nil {
			return
		}
		again, err := Setup(nil, g.Diagram(), g.ToMove())
		if err != nil || again.Hash() != g.Hash() || again.Diagram() != g.Diagram() || again.Status() != g.Status() {
			t.Fatalf("Setup(Diagram()) differs: %v\n%s", err, g.Diagram())
		}
		if got, want := moveTexts(g), refMoveTexts(refFromGame(g)); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("moves %v, reference %v\n%s", got, want, g.Diagram())
		}
	})
}
