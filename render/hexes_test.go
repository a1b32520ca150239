package render

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/rules"
)

// TestGoldenHexImage draws Hex's board (a rhombus of hexagons, each
// player's edges in its colour) at the default size 11 and at 5, in the
// middle of a played-out game, and the boards of Lines of Action, the
// Amazons and Nine Men's Morris, and Checkers' (checkered), and compares
// each PNG with testdata/NAME.png, which a person has looked at: go test
// ./render -run Golden -update rewrites them (look at them again).
func TestGoldenHexImage(t *testing.T) {
	reg := registry()
	for _, tg := range []testGame{{"hex", "", 2}, {"hex", "size=5", 3}, {"loa", "", 1}, {"amazons", "", 1}, {"morris", "", 1}, {"checkers", "", 1}} {
		_, positions := stages(t, reg, tg)
		data, err := PNG(positions[1], Options{Players: testNames()})
		if err != nil {
			t.Fatal(err)
		}
		name := tg.name + strings.TrimPrefix(tg.opts, "size=") + "-middle.png"
		path := filepath.Join("testdata", name)
		if *update {
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./render -run Golden -update to write it)", err)
		}
		if !bytes.Equal(data, want) {
			t.Errorf("%s differs from its golden image (go test ./render -run Golden -update rewrites it; look at it)", path)
		}
	}
}

// TestHexBoardShape: each display row of a Hex board lies half a cell
// right of the row below in every style, and the edges are each player's:
// the image's top and bottom bands in Red's colour, left and right in
// Blue's; the emoji board's bands and the text key say the same.
func TestHexBoardShape(t *testing.T) {
	g, err := registry().Replay("hex", rules.Options{"size": "5"}, []string{"a1"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := sceneOf(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.layout != hexes {
		t.Fatalf("layout %d, want hexes", s.layout)
	}
	red, blue := rgb(0xD0, 0x34, 0x2C), rgb(0x2E, 0x64, 0xB5)
	for i, want := range [4]edgeLook{{colour: red, emoji: "🟥", owner: "Red"}, {colour: blue, emoji: "🟦", owner: "Blue"},
		{colour: red, emoji: "🟥", owner: "Red"}, {colour: blue, emoji: "🟦", owner: "Blue"}} {
		if s.edges[i] != want {
			t.Errorf("edge %d is %+v, want %+v", i, s.edges[i], want)
		}
	}
	fonts, err := loadFonts()
	if err != nil {
		t.Fatal(err)
	}
	p := newPainter(s, Options{}, newFaces(fonts))
	p.alloc(0, 0, nil)
	for r := 1; r < s.rows; r++ {
		above, _ := p.hexCentre(0, r-1)
		below, _ := p.hexCentre(0, r)
		if d := above - below; d != float32(p.sq)/2 {
			t.Errorf("row %d lies %v pixels right of row %d, want half a cell (%d)", r-1, d, r, p.sq/2)
		}
	}
	p.paint()
	// Above the middle of the top row, and left of the middle row: the bands.
	cx, cy := p.hexCentre(2, 0)
	if got := p.img.RGBAAt(int(cx), int(cy-p.hexRadius()-3)); got != red {
		t.Errorf("above the top row: %v, want Red's %v", got, red)
	}
	cx, cy = p.hexCentre(0, 2)
	if got := p.img.RGBAAt(int(cx-float32(p.sq)/2-3), int(cy)); got != blue {
		t.Errorf("left of the middle row: %v, want Blue's %v", got, blue)
	}
	text := Text(g, Options{})
	lines := strings.Split(text, "\n")
	// Rank 5 (the top row) is indented most, rank 1 not at all.
	if !strings.HasPrefix(lines[1], "      5") || !strings.HasPrefix(lines[5], "1 [R]") {
		t.Errorf("text rows are not shifted:\n%s", text)
	}
	if !strings.Contains(text, "Red: top and bottom edges; Blue: left and right edges") {
		t.Errorf("text board does not say whose edges are whose:\n%s", text)
	}
	emoji := Emoji(g, Options{})
	if !strings.Contains(emoji, "🟥🟥🟥🟥🟥\n") || !strings.Contains(emoji, "🟦🔴⬜⬜⬜⬜🟦") {
		t.Errorf("emoji board lacks its edges:\n%s", emoji)
	}
}
