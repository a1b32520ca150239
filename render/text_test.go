package render

import (
	"arbiter/rules/described"
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"arbiter/rules"
	"arbiter/rules/hique"
	"arbiter/rules/hiya"
	"arbiter/rules/sixes"
	"arbiter/rules/upthrust"
)

// readBoard reads a text board back: for each cell, found by the row label
// at the start of its line and the column label above it, the character
// under the column label's last character (where the glyph ends). It
// returns them by "column,row" label, and the row labels from the top.
func readBoard(t *testing.T, text string) (map[string]byte, []string) {
	t.Helper()
	lines := strings.Split(text, "\n")
	header := lines[0]
	// Column labels and where each ends.
	type col struct {
		label string
		end   int
	}
	var cols []col
	for i := 0; i < len(header); {
		if header[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < len(header) && header[j] != ' ' {
			j++
		}
		cols = append(cols, col{header[i:j], j})
		i = j
	}
	cells := map[string]byte{}
	var rowsTop []string
	first := -1 // where the first row's label ends
	for _, ln := range lines[1:] {
		if strings.TrimSpace(ln) == strings.TrimSpace(header) {
			break
		}
		label := strings.Fields(ln)[0]
		if strings.Trim(label, "-") == "" {
			continue // Upthrust's rule under the scoring rows
		}
		rowsTop = append(rowsTop, label)
		// A board of hexagons shifts each row left of the one above it,
		// label and all: read the row shifted as its label is.
		end := strings.Index(ln, label) + len(label)
		if first < 0 {
			first = end
		}
		shift := end - first
		for _, c := range cols {
			if i := c.end - 1 + shift; i < len(ln) {
				cells[c.label+","+label] = ln[i]
			} else {
				cells[c.label+","+label] = ' '
			}
		}
	}
	return cells, rowsTop
}

// TestTextCoordinates reads every text board of the played-out games back
// by its labels and checks each square against the game's own accessors, in
// both views: the labels are the game's notation and every piece stands
// under its coordinates. It checks which row is drawn at the top, too.
func TestTextCoordinates(t *testing.T) {
	reg := registry()
	for _, tg := range testGames() {
		g := newTestGame(t, reg, tg)
		moves := playOut(g.Clone(), tg.seed)
		for ply := 0; ; ply++ {
			for _, view := range []View{FromP1, FromP2} {
				text := Text(g, Options{View: view, Players: testNames()})
				cells, rowsTop := readBoard(t, text)
				if msg := checkCells(g, view, cells, rowsTop); msg != "" {
					t.Fatalf("%s ply %d view %s: %s\n%s", tg.name, ply, view, msg, text)
				}
			}
			if ply == len(moves) {
				break
			}
			g.Play(moves[ply])
		}
	}
}

// checkCells compares a board read back with the game; "" means they agree.
func checkCells(g rules.Game, view View, cells map[string]byte, rowsTop []string) string {
	at := func(col, row string) byte { return cells[col+","+row] }
	switch g := g.(type) {
	case *hique.Game:
		top := "1"
		if view == FromP1 { // Black, at the top of the rules' diagram, sees it from below
			top = "13"
		}
		if rowsTop[0] != top {
			return fmt.Sprintf("top row %s, want %s", rowsTop[0], top)
		}
		for y := 1; y <= 13; y++ {
			for x := 1; x <= 13; x++ {
				var want byte
				switch {
				case x%2 == 1 && y%2 == 1:
					want = '.'
					if p, ok := g.RunnerAt(x, y); ok {
						want = "bw"[p]
					}
				case x%2 == 0 && y%2 == 0:
					want = '+'
					if p, ok := g.GuardAt(x, y); ok {
						want = "BW"[p]
					}
				default:
					continue
				}
				if got := at(strconv.Itoa(x), strconv.Itoa(y)); got != want {
					return fmt.Sprintf("%d %d shows %q, want %q", x, y, got, want)
				}
			}
		}
	case *upthrust.Game:
		if rowsTop[0] != "11" {
			return "top row " + rowsTop[0] + ", want 11 in every view"
		}
		for row := 1; row <= 11; row++ {
			for col := 1; col <= 4; col++ {
				want := byte('.')
				if c, ok := g.PieceAt(col, row); ok {
					want = c.Letter()
				}
				if got := at(strconv.Itoa(col), strconv.Itoa(row)); got != want {
					return fmt.Sprintf("column %d row %d shows %q, want %q", col, row, got, want)
				}
			}
		}
	case *hiya.Game:
		southBelow := view == ViewFrom(g.PlayerOf(hiya.South))
		top := map[bool]string{true: "8", false: "1"}[southBelow]
		if rowsTop[0] != top {
			return fmt.Sprintf("top row %s, want %s", rowsTop[0], top)
		}
		for row := 1; row <= 8; row++ {
			for col := 1; col <= 7; col++ {
				want := byte('.')
				if k, _, ok := g.PieceAt(col, row); ok {
					want = k.Letter()
				}
				if got := at(string(rune('A'+col-1)), strconv.Itoa(row)); got != want {
					return fmt.Sprintf("%c%d shows %q, want %q", 'A'+col-1, row, got, want)
				}
			}
		}
	case *sixes.Game:
		top := map[View]string{FromP1: "a", FromP2: "f"}[view]
		if rowsTop[0] != top {
			return fmt.Sprintf("top row %s, want %s", rowsTop[0], top)
		}
		for row := 1; row <= 6; row++ {
			for col := 1; col <= 6; col++ {
				want := byte('.')
				if p, ok := g.PieceAt(row, col); ok {
					want = "XO"[p]
				}
				if got := at(strconv.Itoa(col), string(rune('a'+row-1))); got != want {
					return fmt.Sprintf("%c%d shows %q, want %q", 'a'+row-1, col, got, want)
				}
			}
		}
	case *described.Game:
		cols, rows := g.Size()
		top := g.RowLabel(0)
		if bottom, seated := g.Seated(); seated && ViewFrom(bottom) != view && view != Standard {
			top = g.RowLabel(rows - 1)
		}
		if rowsTop[0] != top {
			return fmt.Sprintf("top row %s, want %s", rowsTop[0], top)
		}
		for r := range rows {
			for c := range cols {
				want := byte('.')
				if !g.OnBoard(c, r) {
					continue // a board of points: the lines between them are drawn there
				}
				if p, k, ok := g.At(c, r); ok {
					want = g.PieceText(k, p)[0]
				} else if g.Blocked(c, r) {
					want = '#'
				}
				if got := at(g.ColumnLabel(c), g.RowLabel(r)); got != want {
					return fmt.Sprintf("%s%s shows %q, want %q", g.ColumnLabel(c), g.RowLabel(r), got, want)
				}
			}
		}
	default:
		return "unknown game"
	}
	return ""
}

// TestHiyaSides checks that Hi-Ya!'s two sides are told apart in text: the
// side at the bottom of the view is marked ^ and the other v, and the
// legend says which is which.
func TestHiyaSides(t *testing.T) {
	g := newTestGame(t, registry(), testGame{name: "hiya"})
	for _, c := range []struct {
		view       View
		south, top string // the glyphs of South's and North's kings
	}{
		{FromP1, "^K", "vK"},
		{FromP2, "vK", "^K"},
		{Standard, "^K", "vK"},
	} {
		text := Text(g, Options{View: c.view})
		for _, want := range []string{c.south + "  South: 13 pieces", c.top + "  North: 13 pieces"} {
			if !strings.Contains(text, want) {
				t.Errorf("view %s: no %q in\n%s", c.view, want, text)
			}
		}
	}
	north, err := registry().New("hiya", rules.Options{"first": "north"})
	if err != nil {
		t.Fatal(err)
	}
	// With North first, player 1 is North: its view has North below.
	if text := Text(north, Options{View: FromP1}); !strings.Contains(text, "^K  North") {
		t.Errorf("North first, North's view: North not marked ^\n%s", text)
	}
}

// TestStatusLines checks the figures each game shows, from the rules files.
func TestStatusLines(t *testing.T) {
	reg := registry()
	cases := []struct {
		game, opts string
		moves      []string
		want       []string
	}{
		{"hique", "", nil, []string{
			"b B  Black (alice): 5 runners, timing 5", "w W  White (bob): 5 runners, timing 5",
			"HiQUE: Black (alice) to move, move 1 of 300"}},
		{"hique", "turns=40", []string{"4 2 4 8"}, []string{
			"Last: Black 4 2 4 8", "HiQUE: White (bob) to move, move 2 of 40"}},
		{"upthrust", "colours=gb", []string{"G1"}, []string{
			"G B  Player 1 (alice): 20 points", "R Y  Player 2 (bob): 0 points",
			"Last: Player 1 G1, row 4 to 8", "Upthrust: Player 2 (bob) to move, move 2, 15 pieces below the scoring rows"}},
		{"upthrust", "colours=gb", []string{"G1", "R1"}, []string{
			"G B  Player 1 (alice): 20 points", "R Y  Player 2 (bob): 10 points", "Last: Player 2 R1, row 3 to 7"}},
		{"hiya", "", []string{"E2B5"}, []string{
			"Last: South E2B5 Hi-YA!, North's mini-Samurai at B6 removed", "North (bob): 12 pieces"}},
		{"sixes", "", []string{"a1 c1"}, []string{
			"X  X (alice): 8 pieces", "Last: X a1 c1", "Sixes: O (bob) to move, move 2 of 100, 99 left"}},
	}
	for _, c := range cases {
		opts, err := rules.ParseOptions(c.opts)
		if err != nil {
			t.Fatal(err)
		}
		g, err := reg.Replay(c.game, opts, c.moves)
		if err != nil {
			t.Fatal(err)
		}
		text := Text(g, Options{Players: testNames()})
		for _, w := range c.want {
			if !strings.Contains(text, w+"\n") {
				t.Errorf("%s %v: no line %q in\n%s", c.game, c.moves, w, text)
			}
		}
	}
}

// TestResultOverride shows a result decided outside the rules.
func TestResultOverride(t *testing.T) {
	g := newTestGame(t, registry(), testGames()[0])
	res := &rules.Outcome{Result: rules.P2Wins, Reason: "Black resigned"}
	for _, out := range []string{Text(g, Options{Result: res}), Emoji(g, Options{Result: res})} {
		if !strings.Contains(out, "HiQUE: White wins: Black resigned\n") {
			t.Errorf("no result line in\n%s", out)
		}
	}
}

// TestDiscordLimit draws every position of the played-out games (and of a
// few more seeds) in text, coloured text and emoji, from both sides, with
// the longest display names Discord allows, and checks that each message
// fits in Discord's 2,000 characters with its code block and status lines.
func TestDiscordLimit(t *testing.T) {
	reg := registry()
	long := [2]string{strings.Repeat("W", 32), strings.Repeat("M", 32)}
	worst := map[string]int{}
	for _, tg := range testGames() {
		for seed := uint64(1); seed <= 3; seed++ {
			tg.seed = seed
			g := newTestGame(t, reg, tg)
			moves := playOut(g.Clone(), seed)
			for ply := 0; ; ply++ {
				for _, view := range []View{FromP1, FromP2} {
					opt := Options{View: view, Players: long}
					msgs := map[string]string{
						"text":   CodeBlock(Text(g, opt), false),
						"emoji":  Emoji(g, opt),
						"colour": CodeBlock(Text(g, Options{View: view, Players: long, Colour: true}), true),
					}
					for style, msg := range msgs {
						n := DiscordLength(msg)
						worst[tg.name+" "+style] = max(worst[tg.name+" "+style], n)
						if n > DiscordLimit {
							t.Fatalf("%s ply %d %s: %d characters\n%s", tg.name, ply, style, n, msg)
						}
					}
				}
				if ply == len(moves) {
					break
				}
				g.Play(moves[ply])
			}
		}
	}
	t.Logf("longest messages: %v", worst)
}

// TestUnknownGame draws a game render has no drawing for.
func TestUnknownGame(t *testing.T) {
	if got := Text(nil, Options{}); !strings.Contains(got, "no game") {
		t.Errorf("Text(nil) = %q", got)
	}
	if _, err := PNG(nil, Options{}); err == nil {
		t.Error("PNG(nil) gave no error")
	}
	if _, err := GIF(nil, Options{}); err == nil {
		t.Error("GIF(nil) gave no error")
	}
}

// TestDiscordLength counts as Discord does.
func TestDiscordLength(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int
	}{
		{"abc", 3}, {"⬜", 1}, {"🟫", 2}, {keycap('1'), 3}, {"🇦" + zwsp + "🇧", 5}, {"é", 1},
	} {
		if got := DiscordLength(c.s); got != c.want {
			t.Errorf("DiscordLength(%q) = %d, want %d", c.s, got, c.want)
		}
	}
}

// TestRemovalsShown plays HiQUE and Sixes games and checks, after every
// move, that each piece the move removed is marked *.* on the board and
// named in the last-move line, with the noun in the plural for more than
// one.
func TestRemovalsShown(t *testing.T) {
	reg := registry()
	count := func(g rules.Game) [2]int {
		switch g := g.(type) {
		case *hique.Game:
			return [2]int{g.Runners(rules.P1), g.Runners(rules.P2)}
		case *sixes.Game:
			return [2]int{g.Pieces(rules.P1), g.Pieces(rules.P2)}
		}
		return [2]int{}
	}
	seen := 0
	for _, tg := range []testGame{testGames()[0], testGames()[3]} {
		for seed := uint64(1); seed <= 3; seed++ {
			g := newTestGame(t, reg, tg)
			for _, m := range playOut(g.Clone(), seed) {
				before := count(g)
				g.Play(m)
				after := count(g)
				text := Text(g, Options{})
				board, status, _ := strings.Cut(text, "\n"+strings.SplitN(text, "\n", 2)[0]+"\n")
				for p := range 2 {
					gone := before[p] - after[p]
					if gone == 0 {
						continue
					}
					seen++
					noun := map[string]string{"hique": "runner", "sixes": "piece"}[tg.name]
					if gone > 1 {
						noun += "s"
					}
					want := "removing " + g.PlayerName(rules.Player(p)) + "'s " + noun + " at "
					if !strings.Contains(status, want) {
						t.Fatalf("%s: %d of %s's pieces removed, no %q in\n%s", tg.name, gone, g.PlayerName(rules.Player(p)), want, text)
					}
				}
				if gone := before[0] + before[1] - after[0] - after[1]; strings.Count(board, "*") != 2*gone {
					t.Fatalf("%s: %d pieces removed, %d marks in\n%s", tg.name, gone, strings.Count(board, "*")/2, text)
				}
			}
		}
	}
	if seen < 10 {
		t.Fatalf("only %d removals in the games played", seen)
	}
	t.Logf("%d removals checked", seen)
}

// TestRemovalsWording writes several removals at once.
func TestRemovalsWording(t *testing.T) {
	g := newTestGame(t, registry(), testGames()[0])
	got := removals(g, "runner", [2][]string{{"3 1"}, {"5 7", "7 7"}}, rules.P1, rules.P2)
	if want := ", removing Black's runner at 3 1, removing White's runners at 5 7, 7 7"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestBoard checks that a Board draws what the package functions draw, in
// every style, and that it is a snapshot the game's later moves leave alone.
func TestBoard(t *testing.T) {
	reg := registry()
	for _, tg := range testGames() {
		_, positions := stages(t, reg, tg)
		g := positions[1].Clone()
		opt := Options{View: FromP2, Players: testNames(), Colour: true}
		b := NewBoard(g, opt)
		text, emoji, effects := Text(g, opt), Emoji(g, opt), LastMoveEffects(g)
		png, err := PNG(g, opt)
		if err != nil {
			t.Fatal(err)
		}
		var list rules.MoveList
		g.Moves(&list)
		g.Play(list.Moves[0]) // the board drawn before stays as it was
		if got := b.Text(); got != text {
			t.Errorf("%s: Board.Text\n%s\nText\n%s", g.Name(), got, text)
		}
		if got := b.Emoji(); got != emoji {
			t.Errorf("%s: Board.Emoji\n%s\nEmoji\n%s", g.Name(), got, emoji)
		}
		if got := b.LastMoveEffects(); got != effects {
			t.Errorf("%s: Board.LastMoveEffects %q, LastMoveEffects %q", g.Name(), got, effects)
		}
		if got, err := b.PNG(); err != nil || !bytes.Equal(got, png) {
			t.Errorf("%s: Board.PNG differs from PNG (%v)", g.Name(), err)
		}
	}
}
