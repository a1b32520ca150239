package described_test

// A hand-written Go Nine Men's Morris, for the tests only: the described
// morris must agree with it move for move.

import (
	"math/rand/v2"
	"testing"

	"arbiter/rules"
	"arbiter/rules/described"
)

var (
	morrisNames = [24]string{"a1", "d1", "g1", "b2", "d2", "f2", "c3", "d3", "e3", "a4", "b4", "c4",
		"e4", "f4", "g4", "c5", "d5", "e5", "b6", "d6", "f6", "a7", "d7", "g7"}
	// morrisMills are the 16 lines of three, by point index.
	morrisMills = [16][3]int{
		{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9, 10, 11}, {12, 13, 14}, {15, 16, 17}, {18, 19, 20}, {21, 22, 23},
		{0, 9, 21}, {3, 10, 18}, {6, 11, 15}, {1, 4, 7}, {16, 19, 22}, {8, 12, 17}, {5, 13, 20}, {2, 14, 23},
	}
	morrisAdj [24][]int
)

func init() {
	// Points next to each other in a mill are joined, and only those.
	for _, m := range morrisMills {
		for i := range 2 {
			a, b := m[i], m[i+1]
			morrisAdj[a] = append(morrisAdj[a], b)
			morrisAdj[b] = append(morrisAdj[b], a)
		}
	}
}

// morrisGame packs a move as (from+1) | (to+1)<<5 | (removed+1)<<10.
type morrisGame struct {
	cells  [24]int8 // 0 empty, 1 White, 2 Black
	hand   [2]int
	count  [2]int
	quiet  int
	ply    int
	moves  []rules.Move
	states []morrisState
}

type morrisState struct {
	quiet  int
	result rules.Result
}

func newMorris() *morrisGame {
	return &morrisGame{hand: [2]int{9, 9}, states: []morrisState{{result: rules.Ongoing}}}
}

func (g *morrisGame) inMill(pt int, who int8) bool {
	for _, m := range morrisMills {
		if (m[0] == pt || m[1] == pt || m[2] == pt) && g.cells[m[0]] == who && g.cells[m[1]] == who && g.cells[m[2]] == who {
			return true
		}
	}
	return false
}

func (g *morrisGame) gen(list *rules.MoveList) {
	p := g.ply % 2
	me, opp := int8(p+1), int8(2-p)
	add := func(from, to int) {
		m := rules.Move(from+1) | rules.Move(to+1)<<5
		// Try the move, then see whether it made a mill.
		old := g.cells
		if from >= 0 {
			g.cells[from] = 0
		}
		g.cells[to] = me
		made := g.inMill(to, me)
		var free, all []int
		for pt, v := range g.cells {
			if v == opp {
				all = append(all, pt)
				if !g.inMill(pt, opp) {
					free = append(free, pt)
				}
			}
		}
		g.cells = old
		if len(free) == 0 {
			free = all
		}
		if !made || len(free) == 0 {
			list.Moves[list.N] = m
			list.N++
			return
		}
		for _, r := range free {
			list.Moves[list.N] = m | rules.Move(r+1)<<10
			list.N++
		}
	}
	switch {
	case g.hand[p] > 0:
		for pt, v := range g.cells {
			if v == 0 {
				add(-1, pt)
			}
		}
	case g.count[p] == 3:
		for from, v := range g.cells {
			if v != me {
				continue
			}
			for to, w := range g.cells {
				if w == 0 {
					add(from, to)
				}
			}
		}
	default:
		for from, v := range g.cells {
			if v != me {
				continue
			}
			for _, to := range morrisAdj[from] {
				if g.cells[to] == 0 {
					add(from, to)
				}
			}
		}
	}
}

func (g *morrisGame) Moves(list *rules.MoveList) {
	list.N = 0
	if g.states[len(g.states)-1].result != rules.Ongoing {
		return
	}
	g.gen(list)
}

func (g *morrisGame) Status() rules.Result {
	if r := g.states[len(g.states)-1].result; r != rules.Ongoing {
		return r
	}
	var list rules.MoveList
	g.gen(&list)
	if list.N == 0 {
		return rules.Win(rules.Player(1 - g.ply%2))
	}
	return rules.Ongoing
}

func (g *morrisGame) Play(m rules.Move) {
	p := g.ply % 2
	from, to, rem := int(m&31)-1, int(m>>5&31)-1, int(m>>10&31)-1
	g.moves = append(g.moves, m)
	if from >= 0 {
		g.cells[from] = 0
	} else {
		g.hand[p]--
		g.count[p]++
	}
	g.cells[to] = int8(p + 1)
	if rem >= 0 {
		g.cells[rem] = 0
		g.count[1-p]--
	}
	g.ply++
	st := morrisState{quiet: g.quiet + 1, result: rules.Ongoing}
	if from < 0 || rem >= 0 {
		st.quiet = 0
	}
	g.quiet = st.quiet
	switch {
	case g.hand[0] == 0 && g.hand[1] == 0 && g.count[1-p] < 3:
		st.result = rules.Win(rules.Player(p))
	case g.quiet >= 100:
		st.result = rules.Draw
	}
	g.states = append(g.states, st)
}

func (g *morrisGame) Undo() {
	m := g.moves[len(g.moves)-1]
	g.moves = g.moves[:len(g.moves)-1]
	g.states = g.states[:len(g.states)-1]
	g.quiet = g.states[len(g.states)-1].quiet
	g.ply--
	p := g.ply % 2
	from, to, rem := int(m&31)-1, int(m>>5&31)-1, int(m>>10&31)-1
	g.cells[to] = 0
	if from >= 0 {
		g.cells[from] = int8(p + 1)
	} else {
		g.hand[p]++
		g.count[p]--
	}
	if rem >= 0 {
		g.cells[rem] = int8(2 - p)
		g.count[1-p]++
	}
}

func (g *morrisGame) FormatMove(m rules.Move) string {
	from, to, rem := int(m&31)-1, int(m>>5&31)-1, int(m>>10&31)-1
	text := morrisNames[to]
	if from >= 0 {
		text = morrisNames[from] + " " + text
	}
	if rem >= 0 {
		text += " x " + morrisNames[rem]
	}
	return text
}

// TestMorrisMoves checks moves the rules single out: a mill's removal
// spares pieces in mills, flying with three pieces, and the notation.
func TestMorrisMoves(t *testing.T) {
	g := newDescribed(t, "morris", nil)
	for _, text := range []string{"a1", "a7", "d1", "d7"} {
		m, err := g.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		g.Play(m)
	}
	if _, err := g.ParseMove("g1"); err == nil {
		t.Error("g1 makes a mill and names no removal, but is read")
	}
	if _, err := g.ParseMove("b2 x a7"); err == nil {
		t.Error("b2 makes no mill but its removal is read")
	}
	m, err := g.ParseMove("g1 x d7")
	if err != nil {
		t.Fatal(err)
	}
	if got := g.FormatMove(m); got != "g1 x d7" {
		t.Errorf("FormatMove = %q, want g1 x d7", got)
	}
	g.Play(m)
	if _, _, ok := g.At(3, 0); ok {
		t.Error("d7 still holds a piece after its removal")
	}
}

// TestMorrisFewerPieces: random games that end with a player on two
// pieces are won by the other player, and the outcome says why.
func TestMorrisFewerPieces(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	start := newDescribed(t, "morris", nil)
	var list rules.MoveList
	found := 0
	for range 200 {
		g := start.Clone().(*described.Game)
		for g.Moves(&list); list.N > 0; g.Moves(&list) {
			g.Play(list.Moves[rng.IntN(list.N)])
		}
		loser := g.ToMove()
		if g.Pieces(loser) >= 3 {
			continue
		}
		found++
		want := g.PlayerName(loser) + " has fewer than 3 pieces left"
		if g.Status() != rules.Win(loser.Other()) || g.Outcome().Reason != want {
			t.Fatalf("%s on %d pieces: %v, %q; want %v, %q", g.PlayerName(loser), g.Pieces(loser), g.Status(), g.Outcome().Reason, rules.Win(loser.Other()), want)
		}
	}
	if found == 0 {
		t.Fatal("no random game ended with a player on fewer than 3 pieces")
	}
}

// TestMorrisMaterialCountsTheHand: pieces still to be placed count as
// material, so that a placement changes nothing and a removal costs its
// owner a piece.
func TestMorrisMaterialCountsTheHand(t *testing.T) {
	g := newDescribed(t, "morris", nil)
	for i, step := range []struct {
		move string
		want int // Material for the player to move after it
	}{
		{"a1", 0}, {"a7", 0}, {"d1", 0}, {"d7", 0}, {"g1 x d7", -100}, {"b2", 100},
	} {
		m, err := g.ParseMove(step.move)
		if err != nil {
			t.Fatal(err)
		}
		g.Play(m)
		if got := g.Material(); got != step.want {
			t.Errorf("after ply %d, %s: Material = %d, want %d", i+1, step.move, got, step.want)
		}
	}
}
