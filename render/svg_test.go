package render

import (
	"bytes"
	"encoding/xml"
	"regexp"
	"strconv"
	"testing"

	"arbiter/rules"
	"arbiter/rules/games"
)

// TestSVGDrawsTheScene draws every game (the described ones too) as SVG
// from both sides along a played-out game and checks that the drawing is
// well-formed XML, that every cell target is labelled with what stands on
// it (its place in the board's own words: a square, a pit, a line between
// two dots), and that every legal move ends on a cell the drawing has a
// target on and starts on another (or is a drop, with no start, on a cell
// no move starts from, or a pass): the play page's clicks reach it.
func TestSVGDrawsTheScene(t *testing.T) {
	reg := games.Registry()
	cellRE := regexp.MustCompile(`<rect class="cell" data-i="(\d+)"[^>]*aria-label="([^"]*)"`)
	described := []testGame{{"breakthrough", "", 1}, {"othello", "", 1}, {"connect4", "", 1},
		{"checkers", "", 1}, {"kalah", "houses=4", 1}, {"konane", "size=4", 1}, {"dots", "columns=2 rows=2", 1},
		{"gomoku", "columns=7 rows=7 connect=4", 1}, {"tictactoe", "", 1}, {"pentago", "", 1}}
	for _, tg := range append(testGames(), described...) {
		g := newTestGame(t, reg, tg)
		moves := playOut(g.Clone(), tg.seed)
		for ply, m := range moves {
			if ply%7 == 0 || ply == len(moves)-1 {
				for _, view := range []View{FromP1, FromP2} {
					checkSVG(t, g, view, cellRE)
				}
			}
			g.Play(m)
		}
	}
}

// labelRE is a cell's label: where it is ("column d, row 2", "South
// house 3", "line a1 b1") and what is there.
var labelRE = regexp.MustCompile(`^(column [^ ,]+, row [^ :]+|line [a-z]+[0-9]+ [a-z]+[0-9]+|box [a-z]+[0-9]+ to [a-z]+[0-9]+|[A-Z][a-z]+ (house [0-9]+|store)): .{3,}$`)

func checkSVG(t *testing.T, g rules.Game, view View, cellRE *regexp.Regexp) {
	t.Helper()
	opt := Options{View: view, Players: testNames()}
	svg, err := SVG(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	name := g.Name() + " ply " + strconv.Itoa(g.Ply()) + " " + view.String()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	for {
		if _, err := dec.Token(); err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("%s: not well-formed: %v", name, err)
			}
			break
		}
	}
	cells := map[int]bool{}
	for _, m := range cellRE.FindAllStringSubmatch(string(svg), -1) {
		i, _ := strconv.Atoi(m[1])
		cells[i] = true
		if !labelRE.MatchString(m[2]) {
			t.Errorf("%s: cell %d labelled %q", name, i, m[2])
		}
	}
	if len(cells) == 0 {
		t.Fatalf("%s: no cell targets", name)
	}
	bms, err := BoardMoves(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	sources := map[int]bool{}
	for _, bm := range bms {
		if bm.From >= 0 {
			sources[bm.From] = true
		}
	}
	var list rules.MoveList
	g.Moves(&list)
	if len(bms) != list.N {
		t.Fatalf("%s: %d board moves, %d legal moves", name, len(bms), list.N)
	}
	for _, bm := range bms {
		pass := bm.From < 0 && bm.To < 0
		if m, err := g.ParseMove(bm.Text); err != nil || pass != rules.IsPass(g, m) {
			t.Errorf("%s: move %s joins %d and %d; a pass? %v (%v)", name, bm.Text, bm.From, bm.To, rules.IsPass(g, m), err)
		}
		if !pass && (bm.From >= 0 && !cells[bm.From] || !cells[bm.To]) {
			t.Errorf("%s: move %s joins %d and %d, not both cells of the drawing", name, bm.Text, bm.From, bm.To)
		}
		if bm.From >= 0 && bm.From == bm.To {
			t.Errorf("%s: move %s starts and ends on cell %d: a second click there unselects it", name, bm.Text, bm.From)
		}
		if bm.From < 0 && bm.To >= 0 && sources[bm.To] {
			t.Errorf("%s: move %s is dropped on cell %d, which other moves start from: a click there selects them", name, bm.Text, bm.To)
		}
	}
}

// TestSVGMatchesPNGSize checks that both drawings of one scene have one size.
func TestSVGMatchesPNGSize(t *testing.T) {
	reg := games.Registry()
	for _, tg := range testGames() {
		g := newTestGame(t, reg, tg)
		s, _ := sceneOf(g, Options{})
		fonts, _ := loadFonts()
		p := newPainter(s, Options{}, newFaces(fonts))
		p.alloc(0, 0, nil)
		svg, err := SVG(g, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := `viewBox="0 0 ` + strconv.Itoa(p.img.Bounds().Dx()) + " " + strconv.Itoa(p.img.Bounds().Dy()) + `"`
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("%s: svg has no %s: %.200s", tg.name, want, svg)
		}
	}
}

// TestTurningBlocksSetApart: Pentago's quarters, the blocks that turn, are
// set apart by heavier lines than the lines between its other squares, in
// the image and so on the play page.
func TestTurningBlocksSetApart(t *testing.T) {
	g := newTestGame(t, games.Registry(), testGame{"pentago", "", 1})
	s, err := sceneOf(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fonts, err := loadFonts()
	if err != nil {
		t.Fatal(err)
	}
	p := newPainter(s, Options{}, newFaces(fonts))
	p.alloc(0, 0, nil)
	p.paint()
	frame := s.palette.frame
	// Two pixels left of a line, halfway down the first row: the frame's
	// colour at the quarters' edge (after three columns), the board's
	// beside a plain line (after two).
	y := p.top + p.sq/2
	for c, heavy := range map[int]bool{2: false, 3: true, 4: false} {
		x := p.left + c*p.sq - 2
		if got := p.img.RGBAAt(x, y) == frame; got != heavy {
			t.Errorf("after %d columns the line is heavy: %v; want %v", c, got, heavy)
		}
		if got := p.img.RGBAAt(p.left+p.sq/2, p.top+c*p.sq-2) == frame; got != heavy {
			t.Errorf("under %d rows the line is heavy: %v; want %v", c, got, heavy)
		}
	}
}
