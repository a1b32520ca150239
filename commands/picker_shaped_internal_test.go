package commands

import (
	"testing"

	"arbiter/rules"
	"arbiter/rules/games"
)

// TestPickerLargestShapedBoards: the largest Dots and Boxes board (84
// lines at the start) and Kalah with the most houses keep every move
// within MaxPicks picks.
func TestPickerLargestShapedBoards(t *testing.T) {
	reg := games.Registry()
	for _, tc := range []struct {
		game string
		opts rules.Options
	}{
		{"dots", rules.Options{"columns": "6", "rows": "6"}},
		{"dots", rules.Options{"columns": "6", "rows": "2"}},
		{"kalah", rules.Options{"houses": "6", "seeds": "6"}},
	} {
		g, err := reg.New(tc.game, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		var list rules.MoveList
		g.Moves(&list)
		if most := checkPicker(t, g, &list); most > MaxPicks {
			t.Errorf("%s %s: a move takes %d picks", tc.game, tc.opts, most)
		}
	}
}
