package described_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	shipped "arbiter/games"
	"arbiter/rules"
	"arbiter/rules/described"
)

// TestWinningMoveFindsPentagoWinsInOne: along random Pentago games, a move
// that WinningMove returns is legal and wins at once. On the 6×6 board (one
// 64-bit word) it returns one wherever a move wins, among them wins that
// only the block's turn makes; on a 9×9 board of 3×3 blocks (two words),
// wherever a marble makes five before its block turns.
func TestWinningMoveFindsPentagoWinsInOne(t *testing.T) {
	for _, tc := range []struct {
		side, games int
		everyWin    bool
	}{{6, 60, true}, {9, 8, false}} {
		text, err := shipped.Files.ReadFile("pentago" + described.Ext)
		if err != nil {
			t.Fatal(err)
		}
		size := fmt.Sprintf("columns: %d\n  rows: %d\n", tc.side, tc.side)
		spec, err := described.Load("pentago"+described.Ext, []byte(strings.Replace(string(text), "columns: 6\n  rows: 6\n", size, 1)))
		if err != nil {
			t.Fatal(err)
		}
		rng := newRand("pentago")
		var list rules.MoveList
		found, byTurn := 0, 0
		for range tc.games {
			g, err := spec.New(nil)
			if err != nil {
				t.Fatal(err)
			}
			for g.Status() == rules.Ongoing {
				p := g.ToMove()
				g.Moves(&list)
				moves := slices.Clone(list.Slice())
				win, placed := false, false // placed: a winning marble makes five before the turn
				for _, m := range moves {
					if wins(g, m, p) {
						win = true
						if fiveBeforeTurn(g, m, p) {
							placed = true
							break
						}
					}
				}
				want := placed || win && tc.everyWin
				got := g.WinningMove()
				switch {
				case got != rules.NoMove && (!slices.Contains(moves, got) || !wins(g, got, p)):
					t.Fatalf("%d×%d after %v: WinningMove %s is not a legal win", tc.side, tc.side, played(g), g.FormatMove(got))
				case want && got == rules.NoMove:
					t.Fatalf("%d×%d after %v: a move wins (five before the turn: %v), WinningMove found none",
						tc.side, tc.side, played(g), placed)
				case want:
					found++
					if !placed {
						byTurn++
					}
				}
				g.Play(moves[rng.IntN(len(moves))])
			}
		}
		if found < 20 || tc.everyWin && byTurn < 5 {
			t.Fatalf("%d×%d: %d positions with a win in one, %d of them made by the turn; want at least 20, and 5",
				tc.side, tc.side, found, byTurn)
		}
		t.Logf("%d×%d: %d positions with a win in one, %d made by the turn", tc.side, tc.side, found, byTurn)
	}
}

// TestWinningMoveIsForCalmLineGames: Gomoku, whose completing stone is
// tactical, and Othello, with no lines, leave wins in one to the search.
func TestWinningMoveIsForCalmLineGames(t *testing.T) {
	for _, name := range []string{"gomoku", "othello"} {
		g := newDescribed(t, name, nil)
		if m := g.WinningMove(); m != rules.NoMove {
			t.Errorf("%s: WinningMove %s at the start", name, g.FormatMove(m))
		}
	}
	g := newDescribed(t, "gomoku", nil)
	play(t, g, "a1", "o15", "b1", "o14", "c1", "o13", "d1", "n15")
	if m := g.WinningMove(); m != rules.NoMove {
		t.Errorf("gomoku with four in a row: WinningMove %s, want none (the stone is tactical)", g.FormatMove(m))
	}
}

// TestFinishesOnlyWhereLinesWinAnywhere: Pentago's search looks for wins
// in one at its leaves; Gomoku's (tactical) and Othello's and Amazons' (no
// lines) need not ask.
func TestFinishesOnlyWhereLinesWinAnywhere(t *testing.T) {
	for name, want := range map[string]bool{"pentago": true, "gomoku": false, "othello": false, "amazons": false} {
		if got := newDescribed(t, name, nil).Finishes(); got != want {
			t.Errorf("%s: Finishes %v, want %v", name, got, want)
		}
	}
}

// TestDoubleThreatWeighsTwoCompletingSquares: in Pentago, White's a6-d6
// with e6 empty is one square that completes a line, and weighs nothing
// more than the open lines; b6-e6 with a6 and f6 empty is two, and weighs
// four times a line of four.
func TestDoubleThreatWeighsTwoCompletingSquares(t *testing.T) {
	for _, tc := range []struct {
		white string
		want  int
	}{{"a6", 0}, {"e6", 4 * 64}} {
		g := newDescribed(t, "pentago", nil)
		// Quarter 4 stays empty, so turning it moves nothing.
		play(t, g, tc.white+" 4r", "a1 4r", "b6 4r", "c2 4r", "c6 4r", "b1 4l", "d6 4r")
		if got := g.DoubleThreat(rules.P1); got != tc.want {
			t.Errorf("White on %s, b6, c6, d6: the threat weighs %d, want %d", tc.white, got, tc.want)
		}
		if got := g.DoubleThreat(rules.P2); got != 0 {
			t.Errorf("White on %s, b6, c6, d6: Black's threat weighs %d, want 0", tc.white, got)
		}
	}
}

// wins reports whether m wins at once for p.
func wins(g *described.Game, m rules.Move, p rules.Player) bool {
	g.Play(m)
	defer g.Undo()
	w, ok := g.Status().Winner()
	return ok && w == p
}

// fiveBeforeTurn reports whether the marble that m places ("d4 1r") makes
// five or more in a row of p's before the block turns.
func fiveBeforeTurn(g *described.Game, m rules.Move, p rules.Player) bool {
	text := g.FormatMove(m)
	cols, rows := g.Size()
	col, row := int(text[0]-'a'), rows-int(text[1]-'0')
	mine := func(c, r int) bool {
		if c == col && r == row {
			return true
		}
		if c < 0 || r < 0 || c >= cols || r >= rows {
			return false
		}
		q, _, ok := g.At(c, r)
		return ok && q == p
	}
	for _, d := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
		n := 1
		for c, r := col+d[0], row+d[1]; mine(c, r); c, r = c+d[0], r+d[1] {
			n++
		}
		for c, r := col-d[0], row-d[1]; mine(c, r); c, r = c-d[0], r-d[1] {
			n++
		}
		if n >= 5 {
			return true
		}
	}
	return false
}
