package described_test

// A hand-written Go Game of the Amazons, for the tests only: the
// described amazons must agree with it move for move.

import (
	"strings"
	"testing"

	"arbiter/rules"
	"arbiter/rules/described"
)

// amazonsGame's cells are cells[rank0*10 + file0], rank 0 at the bottom;
// a move packs from<<14 | to<<7 | arrow.
type amazonsGame struct {
	cells [100]int8 // 0 empty, 1 White, 2 Black, 3 arrow
	ply   int
	moves []rules.Move
}

func newAmazons() *amazonsGame {
	g := &amazonsGame{}
	for _, c := range []int{30, 3, 6, 39} { // a4 d1 g1 j4
		g.cells[c] = 1
	}
	for _, c := range []int{60, 93, 96, 69} { // a7 d10 g10 j7
		g.cells[c] = 2
	}
	return g
}

var queenSteps = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}}

// reach calls f for each square a queen on c reaches through empty
// squares (or the square skip).
func (g *amazonsGame) reach(c, skip int, f func(int)) {
	for _, s := range queenSteps {
		for x, y := c%10+s[0], c/10+s[1]; x >= 0 && x < 10 && y >= 0 && y < 10; x, y = x+s[0], y+s[1] {
			t := y*10 + x
			if g.cells[t] != 0 && t != skip {
				break
			}
			f(t)
		}
	}
}

func (g *amazonsGame) Status() rules.Result {
	var list rules.MoveList
	g.Moves(&list)
	if list.N == 0 {
		return rules.Win(rules.Player(1 - g.ply%2))
	}
	return rules.Ongoing
}

func (g *amazonsGame) Moves(list *rules.MoveList) {
	list.N = 0
	me := int8(1 + g.ply%2)
	for c, v := range g.cells {
		if v != me {
			continue
		}
		g.reach(c, -1, func(to int) {
			g.reach(to, c, func(a int) {
				list.Add(rules.Move(c<<14 | to<<7 | a))
			})
		})
	}
}

func (g *amazonsGame) Play(m rules.Move) {
	from, to, a := int(m>>14), int(m>>7&127), int(m&127)
	g.cells[to], g.cells[from] = g.cells[from], 0
	g.cells[a] = 3
	g.moves = append(g.moves, m)
	g.ply++
}

func (g *amazonsGame) Undo() {
	k := len(g.moves) - 1
	m := g.moves[k]
	from, to, a := int(m>>14), int(m>>7&127), int(m&127)
	g.cells[a] = 0
	g.cells[from], g.cells[to] = g.cells[to], 0
	g.moves = g.moves[:k]
	g.ply--
}

func (g *amazonsGame) FormatMove(m rules.Move) string {
	from, to, a := int(m>>14), int(m>>7&127), int(m&127)
	return squareText(from%10, from/10+1) + " " + squareText(to%10, to/10+1) + " " + squareText(a%10, a/10+1)
}

// TestAmazonsMoves: the amazon moves like a queen, shoots from where it
// landed, may shoot back over the square it left, and the arrow stays.
func TestAmazonsMoves(t *testing.T) {
	g := newDescribed(t, "amazons", nil)
	m := mustParse(t, g, "d1 d7 d1")
	if got := g.FormatMove(m); got != "d1 d7 d1" {
		t.Errorf("FormatMove = %q, want d1 d7 d1", got)
	}
	g.Play(m)
	if !g.Blocked(3, 9) {
		t.Error("no arrow on d1 after d1 d7 d1")
	}
	for text, want := range map[string]string{
		"d10 d8":     "write the square the piece shoots to as well",
		"d10 d9 d1":  "cannot shoot to d1",
		"a7 a10 c10": "",
	} {
		_, err := g.ParseMove(text)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", text, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: error %v, want one saying %q", text, err, want)
		}
	}
}

// TestShootErrors: shoot's mistakes are reported at the value at fault,
// in words.
func TestShootErrors(t *testing.T) {
	edit := func(new string) string {
		return strings.Replace(tictactoe, "  - {kind: place}", new, 1)
	}
	for _, tc := range []struct{ file, want string }{
		{edit("  - {kind: place, shoot: {directions: all}}"),
			"t.yaml:16:19: shoot belongs to step and slide moves, not place moves"},
		{edit("  - {kind: slide, directions: all, shoot: all}"),
			"t.yaml:16:43: shoot must be a mapping"},
		{edit("  - {kind: slide, directions: all, shoot: {}}"),
			"t.yaml:16:43: shoot needs the key \"directions\""},
		{edit("  - {kind: slide, directions: all, shoot: {directions: up}}"),
			"t.yaml:16:56: direction \"up\": write one of"},
		{edit("  - {kind: slide, directions: all, shoot: {directions: all, range: 2}}"),
			"t.yaml:16:61: shoot has no key \"range\"; its keys are directions"},
	} {
		_, err := described.Load("t.yaml", []byte(tc.file))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v\nwant %s", err, tc.want)
		}
	}
}
