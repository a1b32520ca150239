package hique

import (
	"math/rand/v2"
	"slices"
	"testing"

	"arbiter/rules"
)

// TestFirstMoves checks the rules file's list of Black's 25 first moves.
func TestFirstMoves(t *testing.T) {
	g := start(t, nil)
	var want []string
	for _, x := range []string{"4", "6", "8", "10"} {
		for _, y := range []string{"4", "6", "8", "10"} {
			want = append(want, x+" 2 "+x+" "+y)
		}
	}
	want = append(want, "4 2 2 2", "10 2 12 2",
		"3 1 3 3", "3 1 1 1", "11 1 11 3", "11 1 13 1", "5 1 5 3", "7 1 7 3", "9 1 9 3")
	slices.Sort(want)
	got := sortedMoves(g)
	if len(got) != 25 || !slices.Equal(got, want) {
		t.Fatalf("first moves:\n got %d %v\nwant %d %v", len(got), got, len(want), want)
	}
}

// perftCounts are the counts from the start: depth 1 is the rules file's
// 25; the deeper ones are this implementation's, agreed by the naive
// reference to depth 4, kept as regression values.
var perftCounts = []uint64{1, 25, 587, 16623, 454835, 13673759}

func TestPerftStart(t *testing.T) {
	g := start(t, nil)
	before := g.Diagram()
	for depth, want := range perftCounts {
		if depth == 5 && raceEnabled {
			continue // 13.7 million nodes are too slow under -race
		}
		if got := rules.Perft(g, depth); got != want {
			t.Errorf("perft(%d) = %d, want %d", depth, got, want)
		}
	}
	if g.Diagram() != before || g.Ply() != 0 {
		t.Fatalf("perft changed the position")
	}
}

// TestPerftMidgame pins perft counts of positions reached by play, agreed
// by the naive reference to depth 3.
func TestPerftMidgame(t *testing.T) {
	tests := []struct {
		moves []string
		want  []uint64
	}{
		{[]string{"4 2 4 10", "6 12 6 4", "7 1 7 3", "9 13 9 11"}, []uint64{1, 31, 993, 31793, 1041517}},
		{[]string{"3 1 3 3", "3 13 3 11", "3 3 3 5", "3 11 3 9", "3 5 3 7"}, []uint64{1, 26, 640, 18669, 526875}},
		{[]string{"4 2 4 4", "4 12 4 6", "6 2 6 10", "8 12 8 6", "5 1 5 3", "5 13 5 11"}, []uint64{1, 35, 1145, 40006, 1356061}},
	}
	for _, tt := range tests {
		g := start(t, nil)
		playAll(t, g, tt.moves...)
		n := newNaive(DefaultTurns)
		for _, m := range tt.moves {
			n.play(m)
		}
		for depth, want := range tt.want {
			got := rules.Perft(g, depth)
			if depth <= 3 { // the naive reference is slow
				if ref := n.perft(depth); got != ref {
					t.Errorf("after %v: perft(%d) = %d, naive reference %d", tt.moves, depth, got, ref)
				}
			}
			if got != want {
				t.Errorf("after %v: perft(%d) = %d, want %d", tt.moves, depth, got, want)
			}
		}
	}
}

// TestPerftAgainstNaive checks perft and divide from the start against the
// naive reference implementation.
func TestPerftAgainstNaive(t *testing.T) {
	g := start(t, nil)
	n := newNaive(DefaultTurns)
	depth := 4
	if raceEnabled {
		depth = 3
	}
	for d := 0; d <= depth; d++ {
		if got, want := rules.Perft(g, d), n.perft(d); got != want {
			t.Fatalf("perft(%d) = %d, naive %d", d, got, want)
		}
	}
	moves, counts := rules.Divide(g, 3)
	got := map[string]uint64{}
	for i, m := range moves {
		got[g.FormatMove(m)] = counts[i]
	}
	for _, m := range n.legal() {
		n.play(m)
		want := n.perft(2)
		n.unplay()
		if got[m] != want {
			t.Errorf("divide(3) %s = %d, naive %d", m, got[m], want)
		}
		delete(got, m)
	}
	if len(got) != 0 {
		t.Errorf("moves the naive reference does not have: %v", got)
	}
}

// compare checks that g and n agree on everything visible.
func compare(t *testing.T, where string, g *Game, n *naive) {
	t.Helper()
	if got, want := g.Diagram(), n.diagram(); got != want {
		t.Fatalf("%s: board\n%s\nnaive\n%s", where, got, want)
	}
	if g.ToMove() != rules.Player(n.side) {
		t.Fatalf("%s: to move %v, naive %d", where, g.ToMove(), n.side)
	}
	res, reason, hasScores := n.result()
	out := g.Outcome()
	if g.Status() != res || out.Result != res || out.Reason != reason || out.HasScores != hasScores {
		t.Fatalf("%s: outcome %+v (status %v), naive %v %q %v", where, out, g.Status(), res, reason, hasScores)
	}
	if hasScores && out.Scores != n.scores() {
		t.Fatalf("%s: scores %v, naive %v", where, out.Scores, n.scores())
	}
	if g.TimingScores() != n.scores() {
		t.Fatalf("%s: timing scores %v, naive %v", where, g.TimingScores(), n.scores())
	}
	if got, want := sortedMoves(g), n.legal(); !slices.Equal(got, want) {
		t.Fatalf("%s: moves\n%v\nnaive\n%v", where, got, want)
	}
	if g.Runners(rules.P1) != n.count('b') || g.Runners(rules.P2) != n.count('w') {
		t.Fatalf("%s: runners %d %d, naive %d %d", where, g.Runners(rules.P1), g.Runners(rules.P2), n.count('b'), n.count('w'))
	}
}

// diagram writes the naive board in Setup's format.
func (n *naive) diagram() string {
	b := make([]byte, 0, 13*26)
	for y := 1; y <= 13; y++ {
		for x := 1; x <= 13; x++ {
			if x > 1 {
				b = append(b, ' ')
			}
			c := n.cell[x][y]
			if c == 0 {
				c = '.'
			}
			b = append(b, c)
		}
		b = append(b, '\n')
	}
	return string(b)
}

// randomPlayout plays a random game on g and n together, comparing them
// after every move and after random undos. With probability loopy a player
// takes back its own last move when it can, so repetitions happen.
func randomPlayout(t *testing.T, rng *rand.Rand, g *Game, n *naive, loopy float64) {
	t.Helper()
	var list rules.MoveList
	hashes := map[string]uint64{}
	compare(t, "start", g, n)
	for g.Status() == rules.Ongoing {
		g.Moves(&list)
		m := list.Moves[rng.IntN(list.N)]
		if h := g.History(); len(h) >= 2 && rng.Float64() < loopy {
			x1, y1, x2, y2 := MoveCoords(h[len(h)-2])
			if back, err := g.ParseMove(g.FormatMove(packAny(x2, y2, x1, y1))); err == nil {
				m = back
			}
		}
		hashBefore, diagBefore, repsBefore := g.Hash(), g.Diagram(), g.Repetitions()
		text := g.FormatMove(m)
		tactical := g.Tactical(m)
		runnersBefore := g.Runners(rules.P1) + g.Runners(rules.P2)
		g.Play(m)
		n.play(text)
		if tactical != (g.Runners(rules.P1)+g.Runners(rules.P2) < runnersBefore) {
			t.Fatalf("Tactical(%s) = %v, but runners went %d -> %d", text, tactical, runnersBefore, g.Runners(rules.P1)+g.Runners(rules.P2))
		}
		where := "after " + text
		compare(t, where, g, n)
		// The hash is a function of the position.
		key := n.key()
		if h, ok := hashes[key]; ok && h != g.Hash() {
			t.Fatalf("%s: same position, different hash", where)
		}
		hashes[key] = g.Hash()
		occurrences := 0
		for _, k := range n.seen {
			if k == key {
				occurrences++
			}
		}
		if g.Repetitions() != occurrences {
			t.Fatalf("%s: repetitions %d, naive %d", where, g.Repetitions(), occurrences)
		}
		if rng.IntN(8) == 0 {
			g.Undo()
			n.unplay()
			if g.Hash() != hashBefore || g.Diagram() != diagBefore || g.Repetitions() != repsBefore {
				t.Fatalf("undo of %s did not restore the position", text)
			}
			compare(t, "undo of "+text, g, n)
			g.Play(m)
			n.play(text)
		}
	}
	var none rules.MoveList
	g.Moves(&none)
	if none.N != 0 {
		t.Fatalf("finished game has %d moves", none.N)
	}
}

// packAny packs a move from coordinates without checking it.
func packAny(x1, y1, x2, y2 int) Move {
	if isPoint(x1, y1) && isPoint(x2, y2) {
		return packGuard(pointBit(x1, y1), pointBit(x2, y2))
	}
	return packRunner(squareBit(x1, y1), squareBit(x2, y2))
}

// TestRandomGamesAgainstNaive plays random games from the start, some with
// short turn limits and some looping, against the naive reference.
func TestRandomGamesAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	games := 300
	if raceEnabled {
		games = 30
	}
	ends := map[endReason]int{}
	for i := 0; i < games; i++ {
		turns := DefaultTurns
		if i%3 == 1 {
			turns = 1 + rng.IntN(40)
		}
		loopy := []float64{0, 0.5, 0.9}[i%3]
		g := start(t, rules.Options{"turns": itoa(turns)})
		n := newNaive(turns)
		randomPlayout(t, rng, g, n, loopy)
		ends[g.pos.end]++
	}
	for _, e := range []endReason{endFarSide, endRepetition, endTurnLimit} {
		if ends[e] == 0 {
			t.Errorf("no random game ended with reason %d (ends: %v)", e, ends)
		}
	}
}

// TestRandomSetupsAgainstNaive builds random sparse positions with Setup,
// so that blocked players and empty sides occur, and plays them out.
func TestRandomSetupsAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	tries := 1000
	if raceEnabled {
		tries = 100
	}
	built := 0
	ends := map[endReason]int{}
	for i := 0; i < tries; i++ {
		var specs []string
		used := map[[2]int]bool{}
		place := func(c string, odd bool, count int) {
			for k := 0; k < count; k++ {
				var x, y int
				if odd {
					x, y = 1+2*rng.IntN(7), 1+2*rng.IntN(7)
				} else {
					x, y = 2+2*rng.IntN(6), 2+2*rng.IntN(6)
				}
				if !used[[2]int{x, y}] {
					used[[2]int{x, y}] = true
					specs = append(specs, c+" "+itoa(x)+" "+itoa(y))
				}
			}
		}
		place("b", true, rng.IntN(6))
		place("w", true, rng.IntN(6))
		place("B", false, 1+rng.IntN(4))
		place("W", false, 1+rng.IntN(4))
		side := rules.Player(rng.IntN(2))
		turns := 5 + rng.IntN(30)
		diagram := diagramOf(specs...)
		g, err := Setup(rules.Options{"turns": itoa(turns)}, diagram, side)
		if err != nil {
			continue // an unreachable position, which Setup refuses
		}
		built++
		n := naiveFromDiagram(turns, diagram, int(side))
		randomPlayout(t, rng, g, n, 0.5)
		ends[g.pos.end]++
	}
	if built < tries/4 {
		t.Fatalf("only %d of %d random set-ups were accepted", built, tries)
	}
	for _, e := range []endReason{endFarSide, endNoRunnersP1, endNoRunnersP2, endTurnLimit} {
		if ends[e] == 0 {
			t.Errorf("no random set-up ended with reason %d (ends: %v)", e, ends)
		}
	}
}
