package engine

import (
	"strings"
	"testing"

	"arbiter/rules"
	"arbiter/rules/hique"
	"arbiter/rules/hiya"
	"arbiter/rules/sixes"
	"arbiter/rules/upthrust"
)

// forcedWin is the oracle of the forced-win tests: plain minimax reporting
// whether the player to move wins within plies plies (odd), whatever the
// opponent does.
func forcedWin(g rules.Game, plies int) bool {
	var list rules.MoveList
	g.Moves(&list)
	me := g.ToMove()
	for _, m := range append([]rules.Move(nil), list.Slice()...) {
		g.Play(m)
		ok := winsNow(g, me) || (plies >= 3 && g.Status() == rules.Ongoing && allRepliesLose(g, me, plies-1))
		g.Undo()
		if ok {
			return true
		}
	}
	return false
}

// allRepliesLose reports whether every reply of the player to move (the
// opponent of me) leaves me a forced win within plies-1 plies.
func allRepliesLose(g rules.Game, me rules.Player, plies int) bool {
	var list rules.MoveList
	g.Moves(&list)
	for _, m := range append([]rules.Move(nil), list.Slice()...) {
		g.Play(m)
		ok := winsNow(g, me) || (g.Status() == rules.Ongoing && forcedWin(g, plies-1))
		g.Undo()
		if !ok {
			return false
		}
	}
	return true
}

// winsNow reports whether the game is over and won by p.
func winsNow(g rules.Game, p rules.Player) bool {
	w, ok := g.Status().Winner()
	return ok && w == p
}

// hiqueDiagram draws a HiQUE position for hique.Setup from pieces written
// "b 3 11" (a Black runner at x=3, y=11), "W 10 12" (a White guard) and so
// on.
func hiqueDiagram(pieces ...string) string {
	var grid [13][13]byte
	for y := range grid {
		for x := range grid[y] {
			grid[y][x] = '.'
		}
	}
	for _, p := range pieces {
		var kind string
		var x, y int
		f := strings.Fields(p)
		kind = f[0]
		x, y = atoi(f[1]), atoi(f[2])
		grid[y-1][x-1] = kind[0]
	}
	var b strings.Builder
	for y := range grid {
		b.Write(grid[y][:])
		b.WriteByte('\n')
	}
	return b.String()
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}

// forcedWins are positions with a forced win in one or two moves for the
// player to move, one of each kind in every game; each is checked against
// the oracle before the engine is.
func forcedWins(t *testing.T) []struct {
	name   string
	g      rules.Game
	mateIn int
} {
	t.Helper()
	type pos = struct {
		name   string
		g      rules.Game
		mateIn int
	}
	var out []pos
	add := func(name string, mateIn int, g rules.Game, err error) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, pos{name, g, mateIn})
	}

	// HiQUE: a Black runner one square from the far row steps onto it.
	g1, err := hique.Setup(nil, hiqueDiagram("b 3 11", "b 5 1", "B 4 2", "B 6 2", "w 9 13", "w 11 13", "W 10 12", "W 12 12"), rules.P1)
	add("hique win in one", 1, g1, err)
	// Two squares away, with no White guard near enough to remove it
	// (that takes two guards) and no White runner near enough to block.
	g2, err := hique.Setup(nil, hiqueDiagram("b 3 9", "b 5 1", "B 4 2", "B 6 2", "w 9 13", "w 11 13", "W 10 12", "W 12 12"), rules.P1)
	add("hique win in two", 2, g2, err)

	// Hi-Ya!: a South Samurai slides up the D file to attack the King.
	h1, err := hiya.Setup(nil, `
8 .  .  .  NK .  .  .
7 .  .  .  .  .  .  .
6 Ns .  .  .  .  .  .
5 .  .  .  .  .  .  .
4 .  .  .  .  .  .  .
3 .  .  .  SS .  .  .
2 .  .  .  .  .  .  .
1 .  .  .  SK .  .  .
`, rules.P1)
	add("hiya win in one", 1, h1, err)
	// The Samurai's own mini-Ninja stands in its way: it steps aside, North
	// can only push its mini-Samurai on the A file, and the Samurai strikes.
	h2, err := hiya.Setup(nil, `
8 .  .  .  NK .  .  .
7 .  .  .  .  .  .  .
6 Ns .  .  .  .  .  .
5 .  .  .  .  .  .  .
4 .  .  .  .  .  .  .
3 .  .  .  Sj .  .  .
2 .  .  .  SS .  .  .
1 .  .  .  SK .  .  .
`, rules.P1)
	add("hiya win in two", 2, h2, err)

	// Sixes: X surrounds the last O piece (c3) by stepping from e3 to d3.
	s1b, err := sixes.Setup(nil, `
......
..X...
.XOX.X
......
..X...
......
`, rules.P1)
	add("sixes win in one", 1, s1b, err)
	// O's corner piece must step to b6 or jump to a4; either way X then
	// leaves it no move (the no-return rule forbids stepping back).
	s2, err := sixes.Setup(nil, `
....XO
X..XX.
...XX.
.....X
......
......
`, rules.P1)
	add("sixes win in two", 2, s2, err)

	// Upthrust (G and B are player 1's): G1 climbs from row 6 to row 7,
	// leaving two pieces below the scoring zone, which ends the game with
	// player 1 ahead, 370 to 120.
	u1, err := upthrust.Setup(rules.Options{"colours": "gb"}, `
B G B G
R B G B
Y . . .
. . . R
. Y R Y
G . . .
. . . .
. . . .
. . . .
. . . .
. R Y .
`, rules.P1)
	add("upthrust win in one", 1, u1, err)
	// Found by the oracle along a seeded random game: player 2 to move.
	u2, err := upthrust.Setup(rules.Options{"colours": "gb"}, `
R B . R
B R B Y
. G . .
G Y Y G
. . G .
. . . .
Y . . .
. . . B
. . R .
. . . .
. . . .
`, rules.P2)
	add("upthrust win in two", 2, u2, err)
	return out
}

func TestForcedWinPositionsAreForced(t *testing.T) {
	for _, p := range forcedWins(t) {
		c := p.g.Clone()
		if p.mateIn > 1 && forcedWin(c, 2*p.mateIn-3) {
			t.Errorf("%s: already a win in %d", p.name, p.mateIn-1)
		}
		if !forcedWin(c, 2*p.mateIn-1) {
			t.Errorf("%s: no forced win in %d", p.name, p.mateIn)
		}
	}
}
