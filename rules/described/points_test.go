package described_test

import (
	"strings"
	"testing"

	shipped "arbiter/games"
	"arbiter/rules/described"
)

// TestPointFeatureErrors: the mistakes of points, lines, mills, hand,
// fly and fewer-pieces are reported at the value at fault, in words.
func TestPointFeatureErrors(t *testing.T) {
	data, err := shipped.Files.ReadFile("morris.yaml")
	if err != nil {
		t.Fatal(err)
	}
	morris := func(old, new string) string {
		if !strings.Contains(string(data), old) {
			t.Fatalf("morris.yaml has no %q", old)
		}
		return strings.Replace(string(data), old, new, 1)
	}
	for _, tc := range []struct{ file, want string }{
		{morris("a1, d1, g1, b2", "a1, d1, h1, b2"), "m.yaml:24:20: a point: h1 is off the board of 7 columns and 7 rows"},
		{morris("a1, d1, g1, b2", "a1, d1, 1g, b2"), "m.yaml:24:20: a point: \"1g\" is not a point; write a column letter and a row number, such as d2"},
		{morris("a1, d1, g1, b2", "a1, d1, a1, b2"), "m.yaml:24:20: point a1 is listed twice"},
		{morris("    - a1 d1 g1\n", "    - a1 d1 g2\n"), "m.yaml:26:7: a line: g2 is not one of the board's points"},
		{morris("    - a1 d1 g1\n", "    - a1 d2 g1\n"), "m.yaml:26:7: a line runs straight along a row, a column or a diagonal; a1 to d2 does not"},
		{morris("    - a1 d1 g1\n", "    - a1\n"), "m.yaml:26:7: a line joins two or more points"},
		{morris("  points: [", "  lines2: ["), "m.yaml:24:3: board has no key \"lines2\""},
		{morris("  mills: lines", "  mills: [a1 d1 g1, a1]"), "m.yaml:42:21: a mill is 2 to 8 points"},
		{morris("  - {kind: place, hand: 9, mill: remove}", "  - {kind: place, hand: 9, mill: take}"),
			"m.yaml:47:34: mill \"take\": write one of remove"},
		{morris("  - {kind: step, directions: orthogonal, mill: remove}", "  - {kind: jump, directions: orthogonal, mill: remove}"),
			"m.yaml:49:42: mill belongs to place, step, slide and fly moves, not jump moves"},
		{morris("  - {kind: fly, pieces: 3, mill: remove}", "  - {kind: fly, mill: remove}"),
			"m.yaml:48:12: a fly move needs pieces:"},
		{morris("  - {kind: fly, pieces: 3, mill: remove}", "  - {kind: fly, pieces: 3, directions: all}"),
			"m.yaml:48:28: a fly move has no directions"},
		{morris("  - {kind: step, directions: orthogonal, mill: remove}", "  - {kind: step, directions: orthogonal, hand: 3}"),
			"m.yaml:49:42: hand belongs to place moves, not step moves"},
		{morris("  - {kind: step, directions: orthogonal, mill: remove}", "  - {kind: step, directions: orthogonal, pieces: 3}"),
			"m.yaml:49:42: pieces belongs to fly moves, not step moves"},
		{morris("  - {when: fewer-pieces, count: 3, result: loss}", "  - {when: fewer-pieces, result: loss}"),
			"m.yaml:51:5: when: fewer-pieces needs the key \"count\""},
		{morris("  mills: lines\n", ""), "m.yaml:46:5: mill: remove needs mills: on the board"},
		{morris("  - {kind: place, hand: 9, mill: remove}", "  - {kind: place, hand: 9, mill: remove, rotate: {block: 7}}"),
			"m.yaml:47:5: mill: remove cannot go with rotate, must-outflank or distance: line"},
	} {
		_, err := described.Load("m.yaml", []byte(tc.file))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v\nwant %s", err, tc.want)
		}
	}
}
