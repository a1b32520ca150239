package render

import (
	"testing"

	"arbiter/rules"
)

// TestRedraw: one board redrawn for game after game (described ones too),
// view after view (and once for no game at all) draws each exactly as a
// new board does: nothing of an earlier drawing is left in its memory.
func TestRedraw(t *testing.T) {
	reg := registry()
	var positions []rules.Game
	for _, tg := range testGames() {
		_, stage := stages(t, reg, tg)
		positions = append(positions, stage...)
	}
	for _, d := range []struct {
		game  string
		moves []string
	}{{"breakthrough", []string{"b2 b3", "c7 c6", "b3 b4", "c6 c5", "b4 c5"}}, {"othello", []string{"d3", "c5"}}} {
		g, err := reg.Replay(d.game, nil, d.moves)
		if err != nil {
			t.Fatal(err)
		}
		positions = append(positions, g)
	}
	board := NewBoard(nil, Options{})
	for round, view := range []View{FromP1, FromP2, Standard, FromP2} {
		for i, g := range positions {
			if i == round*3 {
				g = nil // a game render has no drawing for, between two drawings
			}
			opt := Options{View: view, Players: testNames(), Colour: i%2 == 1}
			board.Redraw(g, opt)
			fresh := NewBoard(g, opt)
			if got, want := board.Text(), fresh.Text(); got != want {
				t.Fatalf("round %d, position %d: redrawn text\n%s\nwant\n%s", round, i, got, want)
			}
			if got, want := board.Emoji(), fresh.Emoji(); got != want {
				t.Fatalf("round %d, position %d: redrawn emoji\n%s\nwant\n%s", round, i, got, want)
			}
			if got, want := board.LastMoveEffects(), fresh.LastMoveEffects(); got != want {
				t.Fatalf("round %d, position %d: redrawn effects %q, want %q", round, i, got, want)
			}
		}
	}
}
