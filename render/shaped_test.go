package render

import (
	"bytes"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"arbiter/rules"
	"arbiter/rules/games"
)

// TestShapedBoardsGolden draws Kalah and Dots and Boxes in their own
// geometry (pits and stores with their seeds; dots, drawn lines and owned
// boxes) in text and emoji, compared with testdata/GAME-shaped.STYLE.golden
// (go test ./render -run ShapedBoardsGolden -update rewrites them and
// writes the PNG boards beside them to look at).
func TestShapedBoardsGolden(t *testing.T) {
	reg := games.Registry()
	for _, tc := range []struct {
		game  string
		moves []string
		text  []string
	}{
		{"kalah", []string{"3", "6", "2"}, []string{"N   1   5   5   6   6 ( 0)  5", "S       4   4   0   5   5   0   2", "South (alice): 2 seeds in store", "North (bob): 1 seed in store", "Last: North 2, moving again", "North (bob) to move"}},
		{"dots", []string{"a1 b1", "a1 a2", "b1 b2", "a2 b2"}, []string{"2  + [-] +     +     +\n   |  B  |\n1  + --- +", "Blue (bob): 1 box", "Red (alice): 0 boxes", "Last: Blue a2 b2, completing a box and moving again", "Blue (bob) to move"}},
	} {
		g, err := reg.Replay(tc.game, nil, tc.moves)
		if err != nil {
			t.Fatal(err)
		}
		text := Text(g, Options{Players: [2]string{"alice", "bob"}})
		for _, want := range tc.text {
			if !strings.Contains(text, want) {
				t.Errorf("%s text board lacks %q:\n%s", tc.game, want, text)
			}
		}
		emoji := Emoji(g, Options{Players: [2]string{"alice", "bob"}})
		data, err := PNG(g, Options{Players: [2]string{"alice", "bob"}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(data)); err != nil {
			t.Errorf("%s PNG: %v", tc.game, err)
		}
		checkGolden(t, tc.game+"-shaped.text.golden", []byte(text))
		checkGolden(t, tc.game+"-shaped.emoji.golden", []byte(emoji))
		if *update {
			if err := os.WriteFile(filepath.Join("testdata", tc.game+"-shaped.png"), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestShapedBoardsDrawToTheEnd plays random games of Kalah and Dots and
// Boxes to the end, drawing each position in every style.
func TestShapedBoardsDrawToTheEnd(t *testing.T) {
	reg := games.Registry()
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct {
		game string
		opts rules.Options
	}{{"kalah", nil}, {"kalah", rules.Options{"houses": "3", "seeds": "6"}}, {"dots", nil}, {"dots", rules.Options{"columns": "6", "rows": "2"}}} {
		g, err := reg.New(tc.game, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		var list rules.MoveList
		for {
			Text(g, Options{})
			Emoji(g, Options{})
			g.Moves(&list)
			if list.N == 0 {
				break
			}
			g.Play(list.Moves[rng.IntN(list.N)])
		}
		if _, err := PNG(g, Options{}); err != nil {
			t.Fatal(err)
		}
		text := Text(g, Options{})
		if !strings.Contains(text, " wins: ") && !strings.Contains(text, "Draw") {
			t.Errorf("%s: the finished board does not say the result:\n%s", tc.game, text)
		}
	}
}

// TestShapedBoardMoves: on the play page every move of Kalah (a house)
// and Dots and Boxes (a line) is one click on its own target of the SVG
// board.
func TestShapedBoardMoves(t *testing.T) {
	reg := games.Registry()
	for _, tc := range []struct {
		game  string
		moves []string
		want  int
	}{{"kalah", nil, 6}, {"kalah", []string{"3", "6"}, 6}, {"dots", nil, 24}, {"dots", []string{"a1 b1"}, 23}} {
		g, err := reg.Replay(tc.game, nil, tc.moves)
		if err != nil {
			t.Fatal(err)
		}
		moves, err := BoardMoves(g, Options{})
		if err != nil {
			t.Fatal(err)
		}
		svg, err := SVG(g, Options{})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int]string{}
		for _, m := range moves {
			if m.From != -1 || m.To < 0 {
				t.Errorf("%s %s: cells %d %d, want one cell", tc.game, m.Text, m.From, m.To)
			}
			if other, ok := seen[m.To]; ok {
				t.Errorf("%s: %s and %s share cell %d", tc.game, m.Text, other, m.To)
			}
			seen[m.To] = m.Text
			if !strings.Contains(string(svg), `data-i="`+strconv.Itoa(m.To)+`"`) {
				t.Errorf("%s %s: no target for cell %d", tc.game, m.Text, m.To)
			}
		}
		if len(moves) != tc.want {
			t.Errorf("%s after %v: %d moves, want %d", tc.game, tc.moves, len(moves), tc.want)
		}
	}
}

// TestKalahHousesNumberedAsEachRowCounts: each row of pits is labelled
// with its owner's house numbers, the near row from the left and the far
// row from the right, whichever side the board is seen from.
func TestKalahHousesNumberedAsEachRowCounts(t *testing.T) {
	g, err := games.Registry().New("kalah", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []rules.Player{rules.P1, rules.P2} {
		lines := strings.Split(Text(g, Options{View: ViewFrom(p)}), "\n")
		if above, below := strings.Fields(lines[0]), strings.Fields(lines[3]); strings.Join(above, " ") != "6 5 4 3 2 1" || strings.Join(below, " ") != "1 2 3 4 5 6" {
			t.Errorf("seen by %v, the houses are labelled %v above and %v below:\n%s", p, above, below, strings.Join(lines, "\n"))
		}
	}
}
