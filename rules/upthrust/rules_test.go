package upthrust

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"arbiter/rules"
)

// newGB starts a game with player 1 owning green and blue, as the rules
// file's check does.
func newGB(t testing.TB) *Game {
	t.Helper()
	g, err := New(rules.Options{"colours": "gb"})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return g
}

// setup builds a position with player 1 owning green and blue.
func setup(t testing.TB, diagram string, toMove rules.Player) *Game {
	t.Helper()
	g, err := Setup(rules.Options{"colours": "gb"}, diagram, toMove)
	if err != nil {
		t.Fatalf("Setup: %v", err)
	}
	return g
}

// moveTexts returns the legal moves as canonical text.
func moveTexts(g *Game) []string {
	var list rules.MoveList
	g.Moves(&list)
	out := make([]string, 0, list.N)
	for _, m := range list.Slice() {
		out = append(out, g.FormatMove(m))
	}
	return out
}

// play parses and plays each move, failing the test on an error.
func play(t testing.TB, g *Game, moves ...string) {
	t.Helper()
	for _, text := range moves {
		m, err := g.ParseMove(text)
		if err != nil {
			t.Fatalf("move %s: %v", text, err)
		}
		g.Play(m)
	}
}

// mixedDiagram tests the three move conditions. With player 1 owning green
// and blue:
//   - G1, G2, Y3 stand in row 9 with 3 pieces: they would land in row 12
//     (condition 1, off the board);
//   - B3 (row 10) and R4 (row 8) are alone in their rows and the most
//     advanced of their colours (condition 2);
//   - R1 (row 6) is alone in its row but reds stand higher: it may move one
//     row;
//   - R2, Y2, Y1, B1 would land on taken squares (condition 1);
//   - B2 (row 1, 2 pieces) would land in row 3 beside B1 (condition 3);
//   - Y4 (row 7, 2 pieces) lands in row 9 beside Y3: allowed in the
//     scoring zone;
//   - G3, G4, B4, R3 may move.
const mixedDiagram = `
. . . .
. . B .
G G Y .
. . . R
. R . Y
R . . .
. Y G .
Y . . B
B . . .
. . . G
. B R .
`

// jamDiagram: player 1 (green, blue) has no legal move; player 2 has R1
// (row 8, 3 pieces, to row 11).
const jamDiagram = `
. . . B
. . . .
G B G Y
R Y R .
. . . .
. . . .
B G Y R
. . . .
. . . .
. . . .
Y R B G
`

// fewLowDiagram: three pieces below the scoring zone (Y1, G2, B4).
const fewLowDiagram = `
G R B Y
R B Y G
B Y G R
. . . .
. . R .
. . . B
. . . .
. . . .
Y . . .
. G . .
. . . .
`

func TestStartPosition(t *testing.T) {
	g := newGB(t)
	want := strings.TrimLeft(strings.ReplaceAll(naiveStart, "\n\n", "\n"), "\n")
	if got := g.Diagram(); got != want {
		t.Errorf("start position:\n%s\nwant:\n%s", got, want)
	}
	for col := 1; col <= 4; col++ {
		for c := Green; c <= Yellow; c++ {
			row := g.RowOf(c, col)
			if got, ok := g.PieceAt(col, row); !ok || got != c {
				t.Errorf("PieceAt(%d, %d) = %v, %v; RowOf(%v, %d) = %d", col, row, got, ok, c, col, row)
			}
		}
	}
	if g.ToMove() != rules.P1 {
		t.Error("player 1 moves first")
	}
	if s := g.Scores(); s != [2]int{0, 0} {
		t.Errorf("start scores %v", s)
	}
	if g.Status() != rules.Ongoing {
		t.Error("start is not ongoing")
	}
}

// TestPerftCheck is the rules file's check: from the start, with player 1
// owning G and B, perft gives 8, 60, 354, 1746; the eight first moves are
// the green and blue pieces, each jumping 4 rows. Deeper counts, agreed by
// the naive implementation to depth 7, guard against regressions.
func TestPerftCheck(t *testing.T) {
	g := newGB(t)
	want := []uint64{1, 8, 60, 354, 1746, 6918, 26140, 96088, 350276, 1334182}
	for depth, n := range want {
		if got := rules.Perft(g, depth); got != n {
			t.Errorf("perft(%d) = %d, want %d", depth, got, n)
		}
	}
	if got := moveTexts(g); !slices.Equal(got, []string{"G1", "G2", "G3", "G4", "B1", "B2", "B3", "B4"}) {
		t.Errorf("first moves %v", got)
	}
	var list rules.MoveList
	g.Moves(&list)
	for _, m := range list.Slice() {
		c, col, _ := MovePiece(m)
		before := g.RowOf(c, col)
		g.Play(m)
		if after := g.RowOf(c, col); after != before+4 {
			t.Errorf("%s: row %d to %d, want a jump of 4 rows", g.FormatMove(m), before, after)
		}
		g.Undo()
	}
}

// TestPerftColours checks the other colour choices at a depth the naive
// implementation confirms (in TestPerftAgainstNaive): swapping the colour
// pairs of the two players mirrors the counts.
func TestPerftColours(t *testing.T) {
	want := map[string]uint64{"gb": 96088, "ry": 96088, "gr": 95873, "by": 95873, "gy": 95873, "rb": 95873}
	for colours, n := range want {
		g, err := New(rules.Options{"colours": colours})
		if err != nil {
			t.Fatal(err)
		}
		if got := rules.Perft(g, 7); got != n {
			t.Errorf("colours=%s: perft(7) = %d, want %d", colours, got, n)
		}
	}
}

func TestRowValue(t *testing.T) {
	want := map[int]int{0: 0, 1: 0, 5: 0, 6: 0, 7: 10, 8: 20, 9: 30, 10: 40, 11: 60, 12: 0}
	for row, v := range want {
		if got := RowValue(row); got != v {
			t.Errorf("RowValue(%d) = %d, want %d", row, got, v)
		}
	}
}

// TestFiveScoringRows is the Decision: five scoring rows (7..11), so a
// piece in row 6 scores nothing.
func TestFiveScoringRows(t *testing.T) {
	g := setup(t, mixedDiagram, rules.P2)
	// Player 1: G1, G2 in row 9 (30 each), B3 in row 10 (40).
	// Player 2: R2, Y4 in row 7 (10 each), R4 row 8 (20), Y3 row 9 (30);
	// R1 in row 6 scores nothing.
	if s := g.Scores(); s != [2]int{100, 70} {
		t.Fatalf("scores %v, want [100 70]", s)
	}
	play(t, g, "R1") // row 6 to row 7
	if s := g.Scores(); s != [2]int{100, 80} {
		t.Errorf("after R1 into row 7: scores %v, want [100 80]", s)
	}
}

// TestMoveConditions: one table row per move condition of the rules file.
func TestMoveConditions(t *testing.T) {
	tests := []struct {
		name    string
		toMove  rules.Player
		move    string
		legal   bool
		toRow   int    // for a legal move
		message string // for an illegal one, a part of the error
	}{
		{"moves up as many rows as its row holds pieces, jumping", rules.P1, "G3", true, 7, ""},
		{"a piece alone moves one row when its colour has a higher piece", rules.P1, "G4", true, 3, ""},
		{"two pieces in the row: two rows up", rules.P1, "B4", true, 6, ""},
		{"condition 1: off the board", rules.P1, "G1", false, 0, "would land off the board at row 12"},
		{"condition 1: off the board, other colour", rules.P2, "Y3", false, 0, "off the board at row 12"},
		{"condition 1: landing square taken", rules.P1, "B1", false, 0, "the landing square 1 4 (column 1, row 4) is taken"},
		{"condition 1: landing square taken in the zone", rules.P2, "R2", false, 0, "landing square 2 9"},
		{"condition 2: most advanced piece may not move one row", rules.P1, "B3", false, 0, "a one-row move of the most advanced blue piece is not allowed"},
		{"condition 2: in the scoring zone too", rules.P2, "R4", false, 0, "most advanced red piece"},
		{"condition 2: one row allowed with a higher piece of the colour", rules.P2, "R1", true, 7, ""},
		{"condition 3: same colour in a low landing row", rules.P1, "B2", false, 0, "a blue piece already stands"},
		{"condition 3 does not apply in the scoring zone", rules.P2, "Y4", true, 9, ""},
		{"a piece in the scoring zone keeps moving up", rules.P2, "Y4", true, 9, ""},
		{"other colours do not block condition 3", rules.P2, "R3", true, 3, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := setup(t, mixedDiagram, tc.toMove)
			m, err := g.ParseMove(tc.move)
			if !tc.legal {
				if err == nil {
					t.Fatalf("%s accepted, want illegal", tc.move)
				}
				if !errors.Is(err, rules.ErrIllegal) || !strings.Contains(err.Error(), tc.message) {
					t.Fatalf("%s: error %q (kind %v), want ErrIllegal containing %q", tc.move, err, errors.Unwrap(err), tc.message)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.move, err)
			}
			c, col, _ := MovePiece(m)
			g.Play(m)
			if got := g.RowOf(c, col); got != tc.toRow {
				t.Errorf("%s lands in row %d, want %d", tc.move, got, tc.toRow)
			}
		})
	}
	if got := moveTexts(setup(t, mixedDiagram, rules.P1)); !slices.Equal(got, []string{"G3", "G4", "B4"}) {
		t.Errorf("player 1's moves %v, want [G3 G4 B4]", got)
	}
	if got := moveTexts(setup(t, mixedDiagram, rules.P2)); !slices.Equal(got, []string{"R1", "R3", "Y4"}) {
		t.Errorf("player 2's moves %v, want [R1 R3 Y4]", got)
	}
}

// TestPass: a player with no legal move passes, and only then.
func TestPass(t *testing.T) {
	g := setup(t, jamDiagram, rules.P1)
	if got := moveTexts(g); !slices.Equal(got, []string{"pass"}) {
		t.Fatalf("moves %v, want [pass]", got)
	}
	if n := rules.Perft(g, 1); n != 1 {
		t.Errorf("perft(1) = %d: a forced pass counts as one move", n)
	}
	if g.Status() != rules.Ongoing {
		t.Fatal("player 2 can move, so the game goes on")
	}
	_, err := g.ParseMove("G1")
	if !errors.Is(err, rules.ErrIllegal) || !strings.Contains(err.Error(), "Player 1 has no legal move and must pass") {
		t.Errorf("G1 when player 1 must pass: %v", err)
	}
	play(t, g, "pass")
	if g.ToMove() != rules.P2 || g.FormatMove(g.History()[0]) != "pass" {
		t.Fatal("pass did not hand the turn to player 2")
	}
	// Not allowed while a move exists.
	start := newGB(t)
	_, err = start.ParseMove("pass")
	if !errors.Is(err, rules.ErrIllegal) || !strings.Contains(err.Error(), "may not pass") {
		t.Errorf("pass at the start: %v", err)
	}
}

// TestEndNeitherCanMove plays the jam position out: the game ends when,
// after a move, neither player can move, checked for both players.
func TestEndNeitherCanMove(t *testing.T) {
	g := setup(t, jamDiagram, rules.P1)
	play(t, g, "pass", "R1", "pass", "R3")
	// R3 left Y2 alone in row 8 (it would land on B2) and stands alone in
	// row 10, but R1 is higher, so it may still move one row.
	if got := moveTexts(g); !slices.Equal(got, []string{"pass"}) {
		t.Fatalf("player 1's moves %v, want [pass]", got)
	}
	play(t, g, "pass", "R3")
	if got := g.Status(); got != rules.P2Wins {
		t.Fatalf("status %v, want p2", got)
	}
	out := g.Outcome()
	if out.Reason != "neither player can move, 170 to 150" || !out.HasScores || out.Scores != [2]int{150, 170} {
		t.Errorf("outcome %+v", out)
	}
	if got := moveTexts(g); len(got) != 0 {
		t.Errorf("a finished game has moves %v", got)
	}
	if _, err := g.ParseMove("pass"); !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("a move after the end: %v", err)
	}
	// The same position with player 2 to move is over too: the check is
	// for both players, whoever is to move.
	same := setup(t, g.Diagram(), rules.P2)
	if same.Status() != rules.P2Wins {
		t.Errorf("status with player 2 to move: %v", same.Status())
	}
}

// TestEndDraw: equal totals are a draw. Playing Y2 instead of R3 in the jam
// leaves everyone stuck at 150 each.
func TestEndDraw(t *testing.T) {
	g := setup(t, jamDiagram, rules.P1)
	play(t, g, "pass", "R1", "pass", "Y2")
	out := g.Outcome()
	if out.Result != rules.Draw || out.Reason != "neither player can move, 150 to 150" || out.Scores != [2]int{150, 150} {
		t.Errorf("outcome %+v", out)
	}
}

// TestEndFewLowPieces: the game ends as soon as at most two pieces remain
// in rows 1..6, even though moves remain.
func TestEndFewLowPieces(t *testing.T) {
	g := setup(t, fewLowDiagram, rules.P1)
	if g.Status() != rules.Ongoing {
		t.Fatal("three low pieces: the game goes on")
	}
	if got := moveTexts(g); !slices.Equal(got, []string{"G2", "B4"}) {
		t.Fatalf("moves %v, want [G2 B4]", got)
	}
	play(t, g, "B4") // row 6 to row 7: two low pieces left
	out := g.Outcome()
	if out.Result != rules.Draw || out.Reason != "at most two pieces left below the scoring zone, 270 to 270" {
		t.Errorf("outcome %+v", out)
	}
	if got := moveTexts(g); len(got) != 0 {
		t.Errorf("moves after the end: %v", got)
	}
	// Y1 could still move one row (yellows stand higher), yet the game is
	// over.
	if k := g.pos.classes(); g.pos.targets(Yellow, &k) == 0 {
		t.Error("test position: expected a yellow move to remain")
	}
	g.Undo()
	play(t, g, "G2") // row 2 to row 3: still three low pieces
	if g.Status() != rules.Ongoing {
		t.Errorf("after G2: %v, want ongoing", g.Status())
	}
	// A win for player 2 by the same rule: Y1 in row 7 instead of row 3
	// and B4 still in row 6 leave G2 and B4 below the zone.
	won := setup(t, strings.Replace(strings.Replace(fewLowDiagram, ". . R .", "Y . R .", 1), "Y . . .", ". . . .", 1), rules.P1)
	out = won.Outcome()
	if out.Result != rules.P2Wins || out.Reason != "at most two pieces left below the scoring zone, 280 to 260" || out.Scores != [2]int{260, 280} {
		t.Errorf("outcome %+v", out)
	}
}

// TestColoursVariant: player 1's two colours, player 2 the others.
func TestColoursVariant(t *testing.T) {
	tests := []struct {
		value  string
		p1, p2 [2]Colour
		norm   string
	}{
		{"gb", [2]Colour{Green, Blue}, [2]Colour{Red, Yellow}, "gb"},
		{"bg", [2]Colour{Green, Blue}, [2]Colour{Red, Yellow}, "gb"},
		{"YR", [2]Colour{Red, Yellow}, [2]Colour{Green, Blue}, "ry"},
		{"gr", [2]Colour{Green, Red}, [2]Colour{Blue, Yellow}, "gr"},
		{"by", [2]Colour{Blue, Yellow}, [2]Colour{Green, Red}, "by"},
	}
	for _, tc := range tests {
		g, err := New(rules.Options{"colours": tc.value})
		if err != nil {
			t.Fatalf("colours=%s: %v", tc.value, err)
		}
		if g.Colours(rules.P1) != tc.p1 || g.Colours(rules.P2) != tc.p2 {
			t.Errorf("colours=%s: %v and %v", tc.value, g.Colours(rules.P1), g.Colours(rules.P2))
		}
		for _, c := range tc.p1 {
			if g.Owner(c) != rules.P1 {
				t.Errorf("colours=%s: %v is not player 1's", tc.value, c)
			}
		}
		for _, c := range tc.p2 {
			if g.Owner(c) != rules.P2 {
				t.Errorf("colours=%s: %v is not player 2's", tc.value, c)
			}
		}
		if got := g.Options()["colours"]; got != tc.norm {
			t.Errorf("colours=%s: Options has %s, want %s", tc.value, got, tc.norm)
		}
		// Player 1 moves first, with their colours: each moves one of them.
		var list rules.MoveList
		g.Moves(&list)
		for _, m := range list.Slice() {
			if c, _, _ := MovePiece(m); g.Owner(c) != rules.P1 {
				t.Errorf("colours=%s: player 1 may move %s", tc.value, g.FormatMove(m))
			}
		}
	}
}

// TestRandomColours: by default the colours are drawn from a seed kept in
// the options, so the game can be replayed.
func TestRandomColours(t *testing.T) {
	g, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	opts := g.Options()
	if opts["colours"] == "random" || len(opts["colours"]) != 2 {
		t.Errorf("colours not resolved: %v", opts)
	}
	if opts["seed"] == "random" {
		t.Errorf("seed not resolved: %v", opts)
	}
	again, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	if again.Colours(rules.P1) != g.Colours(rules.P1) || again.Options().String() != opts.String() {
		t.Errorf("New(Options()) gives %v, want %v", again.Options(), opts)
	}
	// A given seed always draws the same colours; the seeds draw every pair.
	seen := map[[2]Colour]bool{}
	for seed := range 60 {
		o := rules.Options{"seed": itoa(seed)}
		a, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := New(rules.Options{"seed": itoa(seed), "colours": "random"})
		if a.Colours(rules.P1) != b.Colours(rules.P1) {
			t.Errorf("seed %d draws %v then %v", seed, a.Colours(rules.P1), b.Colours(rules.P1))
		}
		if a.Options()["seed"] != itoa(seed) {
			t.Errorf("seed %d kept as %s", seed, a.Options()["seed"])
		}
		seen[a.Colours(rules.P1)] = true
	}
	if len(seen) != 6 {
		t.Errorf("60 seeds drew only %d of the 6 colour pairs", len(seen))
	}
	// The mapping is part of the stored games' replay: pin it.
	pinned := map[uint64][2]Colour{0: {Green, Blue}, 1: {Blue, Yellow}, 2: {Red, Yellow}, 3: {Red, Blue}, 5: {Green, Yellow}}
	for seed, want := range pinned {
		if got := seedColours(seed); got != want {
			t.Errorf("seed %d draws %v, was %v: stored games would replay differently", seed, got, want)
		}
	}
	// Explicit colours ignore the seed and keep it as given.
	c, _ := New(rules.Options{"colours": "ry"})
	if c.Options()["seed"] != "random" || c.Options()["colours"] != "ry" {
		t.Errorf("colours=ry options %v", c.Options())
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestOptionErrors(t *testing.T) {
	tests := []struct {
		opts rules.Options
		want string
	}{
		{rules.Options{"colours": "gg"}, "colours=gg: colours must be random or two different colour letters"},
		{rules.Options{"colours": "gx"}, "two different colour letters from g, r, b, y"},
		{rules.Options{"colours": "gbr"}, "colours=gbr"},
		{rules.Options{"colours": "abc"}, "e.g. gb"},
		{rules.Options{"seed": "abc"}, "seed=abc: seed must be a whole number from 0 to 9223372036854775807, or random"},
		{rules.Options{"seed": "-1"}, "seed must be a whole number"},
		{rules.Options{"seed": "99999999999999999999"}, "seed must be a whole number"},
		{rules.Options{"turns": "3"}, "upthrust has no option turns; it takes colours, seed"},
	}
	for _, tc := range tests {
		_, err := New(tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%v): %v, want an error containing %q", tc.opts, err, tc.want)
		}
	}
	g, err := New(rules.Options{"seed": "007"})
	if err != nil || g.Options()["seed"] != "7" {
		t.Errorf("seed=007: %v %v", g, err)
	}
}

func TestDefinition(t *testing.T) {
	d := Definition()
	if d.Name != "upthrust" || d.Title != "Upthrust" || d.Players != [2]string{"Player 1", "Player 2"} || d.MoveTime.Seconds() != 15 {
		t.Errorf("definition %+v", d)
	}
	reg := rules.NewRegistry(d)
	g, err := reg.New("upthrust", rules.Options{"colours": "gb"})
	if err != nil {
		t.Fatal(err)
	}
	if g.Name() != "upthrust" || g.PlayerName(rules.P1) != "Player 1" || g.PlayerName(rules.P2) != "Player 2" {
		t.Errorf("names %s %s %s", g.Name(), g.PlayerName(rules.P1), g.PlayerName(rules.P2))
	}
	if _, err := reg.New("upthrust", rules.Options{"colours": "q"}); err == nil {
		t.Error("bad colours accepted through the registry")
	}
}

// TestSetupRejects: a diagram must keep the invariant that every column
// holds one piece of each colour, and be 11 rows of 4 cells.
func TestSetupRejects(t *testing.T) {
	tests := []struct {
		name, diagram, want string
	}{
		{"two greens in a column", strings.Replace(naiveStart, "R B Y G\n", "G B Y G\n", 1), "column 1 holds 2 green pieces"},
		{"a missing piece", strings.Replace(naiveStart, "Y G R B", "Y G R .", 1), "column 4 holds 0 blue pieces"},
		{"ten rows", strings.Replace(naiveStart, ". . . .\n", "", 1), "the diagram has 10 rows"},
		{"five cells", strings.Replace(naiveStart, "G R B Y", "G R B Y .", 1), "row 4 is \"GRBY.\""},
		{"a bad letter", strings.Replace(naiveStart, "G R B Y", "G R B X", 1), "row 4, column 4 is 'X'"},
	}
	for _, tc := range tests {
		_, err := Setup(nil, tc.diagram, rules.P1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := Setup(nil, naiveStart, rules.Player(2)); err == nil {
		t.Error("player 3 to move accepted")
	}
	if _, err := Setup(rules.Options{"colours": "x"}, naiveStart, rules.P1); err == nil {
		t.Error("bad options accepted")
	}
	g, err := Setup(nil, strings.ToLower(naiveStart), rules.P2)
	if err != nil || g.ToMove() != rules.P2 || g.Ply() != 0 {
		t.Fatalf("lower-case start: %v", err)
	}
}

// TestTactical: only moves entering the scoring zone are tactical.
func TestTactical(t *testing.T) {
	g := setup(t, mixedDiagram, rules.P1)
	want := map[string]bool{"G3": true, "G4": false, "B4": false}
	for text, tactical := range want {
		m, err := g.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		if g.Tactical(m) != tactical || g.Announce(m) != "" {
			t.Errorf("%s: tactical %v, want %v", text, g.Tactical(m), tactical)
		}
	}
	g2 := setup(t, mixedDiagram, rules.P2)
	for text, tactical := range map[string]bool{"R1": true, "R3": false, "Y4": false} {
		m, _ := g2.ParseMove(text)
		if g2.Tactical(m) != tactical {
			t.Errorf("%s: tactical %v, want %v", text, g2.Tactical(m), tactical)
		}
	}
	if g.Tactical(Pass) {
		t.Error("a pass is tactical")
	}
}

func TestEvaluate(t *testing.T) {
	g := newGB(t)
	if g.Evaluate() != 0 || g.Material() != 0 {
		t.Errorf("start: evaluate %d, material %d, want 0 (symmetric)", g.Evaluate(), g.Material())
	}
	p1 := setup(t, mixedDiagram, rules.P1)
	p2 := setup(t, mixedDiagram, rules.P2)
	if p1.Material() != 300 || p2.Material() != -300 {
		t.Errorf("material %d and %d, want 300 and -300 (100 to 70 row points)", p1.Material(), p2.Material())
	}
	if p1.Evaluate() != -p2.Evaluate() {
		t.Errorf("evaluate is not symmetric: %d and %d", p1.Evaluate(), p2.Evaluate())
	}
	// Advancement: a piece nearer the zone is better.
	g.Play(pieceMove(Green, 1)) // G2 row 1 to 5
	if g.Evaluate() >= 0 {
		t.Errorf("after G2 climbs 4 rows player 2 (to move) evaluates %d, want < 0", g.Evaluate())
	}
}

func TestAccessors(t *testing.T) {
	g := newGB(t)
	if _, ok := g.PieceAt(0, 1); ok {
		t.Error("PieceAt off the board")
	}
	if _, ok := g.PieceAt(1, 12); ok {
		t.Error("PieceAt above the board")
	}
	if _, ok := g.PieceAt(1, 5); ok {
		t.Error("PieceAt an empty square")
	}
	if g.RowOf(Green, 0) != 0 || g.RowOf(Colour(7), 1) != 0 {
		t.Error("RowOf outside the board")
	}
	for c, want := range map[Colour]string{Green: "green G", Red: "red R", Blue: "blue B", Yellow: "yellow Y"} {
		if got := c.String() + " " + string(c.Letter()); got != want {
			t.Errorf("colour %d: %s", c, got)
		}
	}
	if Colour(9).String() != "colour(9)" || Colour(9).Letter() != '?' {
		t.Error("bad colour")
	}
	if c, col, pass := MovePiece(pieceMove(Yellow, 2)); c != Yellow || col != 3 || pass {
		t.Errorf("MovePiece: %v %d %v", c, col, pass)
	}
	if _, _, pass := MovePiece(Pass); !pass {
		t.Error("MovePiece(Pass)")
	}
	if g.FormatMove(rules.Move(99)) == "" {
		t.Error("FormatMove of a bad move is empty")
	}
}
