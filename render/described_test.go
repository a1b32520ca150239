package render_test

import (
	"bytes"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"

	"arbiter/render"
	"arbiter/rules"
	"arbiter/rules/games"
)

// TestDescribedGamesDraw draws every shipped described game in every
// style after a few moves: the board shows the notation's labels, the last
// move and its effects, and the PNG decodes.
func TestDescribedGamesDraw(t *testing.T) {
	reg := games.Registry()
	for _, tc := range []struct {
		game  string
		moves []string
		text  []string // in the text board
	}{
		{"breakthrough", []string{"b2 b3", "c7 c6", "b3 b4", "c6 c5", "b4 c5"},
			[]string{"8  B  B", " a  b  c", "Last: White b4 c5, removing Black's piece at c5", "White: 16 pieces", "Black: 15 pieces"}},
		{"othello", []string{"d3", "c5"},
			[]string{"1  .  .", "Last: White c5, turning 1 piece", "Black: 3 pieces", "White: 3 pieces"}},
		{"connect4", []string{"d", "d", "c"},
			[]string{"6  .  .", " a  b  c  d  e  f  g", "Last: Red c", "Yellow to move"}},
	} {
		g, err := reg.Replay(tc.game, nil, tc.moves)
		if err != nil {
			t.Fatal(err)
		}
		text := render.Text(g, render.Options{})
		for _, want := range tc.text {
			if !strings.Contains(text, want) {
				t.Errorf("%s text board lacks %q:\n%s", tc.game, want, text)
			}
		}
		if emoji := render.Emoji(g, render.Options{}); !strings.Contains(emoji, "🟩") && tc.game == "breakthrough" {
			t.Errorf("%s emoji board does not mark the square left:\n%s", tc.game, emoji)
		}
		data, err := render.PNG(g, render.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(data)); err != nil {
			t.Errorf("%s PNG: %v", tc.game, err)
		}
	}
}

// TestDescribedGamesDrawToTheEnd plays random games of each described
// game to the end and draws each position in every style and view.
func TestDescribedGamesDrawToTheEnd(t *testing.T) {
	reg := games.Registry()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, name := range []string{"breakthrough", "othello", "connect4"} {
		g, err := reg.New(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		var list rules.MoveList
		for {
			for _, v := range []render.View{render.Standard, render.ViewFrom(rules.P2)} {
				render.Text(g, render.Options{View: v})
				render.Emoji(g, render.Options{View: v})
			}
			g.Moves(&list)
			if list.N == 0 {
				break
			}
			g.Play(list.Moves[rng.IntN(list.N)])
		}
		text := render.Text(g, render.Options{})
		if !strings.Contains(text, " wins: ") && !strings.Contains(text, "Draw") {
			t.Errorf("%s: the finished board does not say the result:\n%s", name, text)
		}
		if _, err := render.PNG(g, render.Options{}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPlacementGamesCountPlaced: in a game whose pieces are only placed
// and never taken (tic-tac-toe, Gomoku, Pentago, Connect Four), a side's
// line counts the pieces placed, not "0 pieces" as if some were lost; a
// game that takes pieces keeps its count of pieces.
func TestPlacementGamesCountPlaced(t *testing.T) {
	reg := games.Registry()
	for game, want := range map[string][]string{
		"tictactoe b2": {"X: 1 placed", "O: 0 placed"},
		"gomoku h8":    {"Black: 1 placed", "White: 0 placed"},
		"pentago":      {"White: 0 placed", "Black: 0 placed"},
		"connect4 d":   {"Red: 1 placed", "Yellow: 0 placed"},
		"othello":      {"Black: 2 pieces"},
		"breakthrough": {"White: 16 pieces"},
	} {
		game, moves, _ := strings.Cut(game, " ")
		g, err := reg.Replay(game, nil, strings.Fields(moves))
		if err != nil {
			t.Fatal(err)
		}
		text := render.Text(g, render.Options{})
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s text board lacks %q:\n%s", game, w, text)
			}
		}
		if strings.Contains(text, "placed") != strings.HasSuffix(want[0], "placed") {
			t.Errorf("%s text board mixes the counts:\n%s", game, text)
		}
	}
}

// TestTurnedBlockIsNotACapture: a Pentago move whose turn carries marbles
// to other cells is told as the move alone, not as pieces removed or
// turned over.
func TestTurnedBlockIsNotACapture(t *testing.T) {
	g, err := games.Registry().Replay("pentago", nil, []string{"a6 1r", "f1 1r"})
	if err != nil {
		t.Fatal(err)
	}
	text := render.Text(g, render.Options{})
	if !strings.Contains(text, "Last: Black f1 1r\n") || strings.Contains(text, "removing") || strings.Contains(text, "turning") {
		t.Errorf("the last move is told wrongly:\n%s", text)
	}
}
