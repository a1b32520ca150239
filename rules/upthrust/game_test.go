package upthrust

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"arbiter/rules"
)

var allPairs = []string{"gr", "gb", "gy", "rb", "ry", "by"}

// pairOf returns the colour indices of a colours option value.
func pairOf(t testing.TB, g *Game) [2]int {
	t.Helper()
	p := g.Colours(rules.P1)
	return [2]int{int(p[0]), int(p[1])}
}

// TestPerftAgainstNaive compares perft and divide with the naive
// implementation from the start for every colour pair.
func TestPerftAgainstNaive(t *testing.T) {
	const depth = 6
	for _, colours := range allPairs {
		g, err := New(rules.Options{"colours": colours})
		if err != nil {
			t.Fatal(err)
		}
		n := newNaive(t, naiveStart, pairOf(t, g), 0)
		moves, counts := rules.Divide(g, depth)
		if !slices.Equal(moves, n.moves()) {
			t.Fatalf("colours=%s: moves %v, naive %v", colours, moves, n.moves())
		}
		for i, m := range moves {
			c := *n
			c.play(m)
			if want := c.perft(depth - 1); counts[i] != want {
				t.Errorf("colours=%s: divide %s = %d, naive %d", colours, g.FormatMove(m), counts[i], want)
			}
		}
		if colours == "gb" || colours == "gr" {
			if got, want := rules.Perft(g, 7), n.perft(7); got != want {
				t.Errorf("colours=%s: perft(7) = %d, naive %d", colours, got, want)
			}
		}
	}
}

// TestRandomPlayouts plays many random games and checks, at every ply, the
// fast implementation against the naive one: the same legal moves in the
// same order, the same status, the same board; that the hash depends only
// on the position; that Undo restores everything; and that text round
// trips. From some positions on the way it compares perft too.
func TestRandomPlayouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	games := 300
	if testing.Short() {
		games = 60
	}
	reg := rules.NewRegistry(Definition())
	passes, lowEnds, stuckEnds := 0, 0, 0
	for i := range games {
		g, err := New(rules.Options{"seed": strconv.Itoa(i)})
		if err != nil {
			t.Fatal(err)
		}
		n := newNaive(t, naiveStart, pairOf(t, g), 0)
		lastPass := false
		for {
			checkAgainstNaive(t, g, n)
			var list rules.MoveList
			g.Moves(&list)
			if list.N == 0 {
				break
			}
			if i%10 == 0 && g.Ply()%7 == 3 {
				if got, want := rules.Perft(g, 4), n.perft(4); got != want {
					t.Fatalf("game %d ply %d: perft(4) = %d, naive %d\n%s", i, g.Ply(), got, want, g.Diagram())
				}
			}
			m := list.Moves[rng.IntN(list.N)]
			if m == Pass {
				if lastPass {
					t.Fatalf("game %d: two passes in a row", i)
				}
				passes++
			}
			lastPass = m == Pass
			checkUndo(t, g, m)
			g.Play(m)
			n.play(m)
			if g.Ply() >= maxPlies {
				t.Fatalf("game %d longer than %d plies", i, maxPlies)
			}
		}
		out := g.Outcome()
		if out.Result != n.result() || out.Scores != n.scores() || !out.HasScores {
			t.Fatalf("game %d: outcome %+v, naive %v %v", i, out, n.result(), n.scores())
		}
		switch {
		case strings.HasPrefix(out.Reason, "neither player can move, "):
			stuckEnds++
		case strings.HasPrefix(out.Reason, "at most two pieces left below the scoring zone, "):
			lowEnds++
		default:
			t.Fatalf("game %d: reason %q", i, out.Reason)
		}
		// The store's encoding replays the game exactly.
		back, err := reg.Decode(rules.Encode(g))
		if err != nil {
			t.Fatalf("game %d: decode: %v", i, err)
		}
		if back.Hash() != g.Hash() || !slices.Equal(back.History(), g.History()) || back.Outcome() != out ||
			back.Options().String() != g.Options().String() {
			t.Fatalf("game %d: decoded game differs", i)
		}
	}
	if passes == 0 || lowEnds == 0 {
		t.Errorf("random games met %d passes, %d ends by few low pieces, %d by no moves: not all rules exercised", passes, lowEnds, stuckEnds)
	}
	t.Logf("%d games: %d passes, %d ends by few low pieces, %d by no moves", games, passes, lowEnds, stuckEnds)
}

// checkAgainstNaive compares g with the naive game n.
func checkAgainstNaive(t *testing.T, g *Game, n *naive) {
	t.Helper()
	if got := naiveOf(g); got.cell != n.cell || got.toMove != n.toMove {
		t.Fatalf("board differs from the naive one:\n%s", g.Diagram())
	}
	var list rules.MoveList
	g.Moves(&list)
	if !slices.Equal(list.Slice(), n.moves()) {
		t.Fatalf("moves %v, naive %v\n%s", list.Slice(), n.moves(), g.Diagram())
	}
	if g.Status() != n.result() {
		t.Fatalf("status %v, naive %v\n%s", g.Status(), n.result(), g.Diagram())
	}
	fresh, err := Setup(g.Options(), g.Diagram(), g.ToMove())
	if err != nil {
		t.Fatal(err)
	}
	if fresh.Hash() != g.Hash() || fresh.Status() != g.Status() {
		t.Fatalf("hash or status depends on history\n%s", g.Diagram())
	}
	if g.Status() != rules.Ongoing {
		return
	}
	// Text: every legal move round trips; every other piece of the mover is
	// refused with a reason.
	for _, c := range g.Colours(g.ToMove()) {
		for col := 1; col <= 4; col++ {
			m := pieceMove(c, col-1)
			parsed, err := g.ParseMove(g.FormatMove(m))
			if list.Contains(m) {
				if err != nil || parsed != m {
					t.Fatalf("%s: %v", g.FormatMove(m), err)
				}
				continue
			}
			if !errors.Is(err, rules.ErrIllegal) || strings.Contains(err.Error(), "cannot move now") {
				t.Fatalf("%s refused with %v\n%s", g.FormatMove(m), err, g.Diagram())
			}
		}
	}
}

// checkUndo plays m and takes it back, checking everything is restored.
func checkUndo(t *testing.T, g *Game, m rules.Move) {
	t.Helper()
	diagram, hash, toMove, ply, status := g.Diagram(), g.Hash(), g.ToMove(), g.Ply(), g.Status()
	pos := g.pos
	g.Play(m)
	if g.Hash() == hash {
		t.Fatalf("%s left the hash unchanged", g.FormatMove(m))
	}
	g.Status()
	g.Undo()
	if g.Diagram() != diagram || g.Hash() != hash || g.ToMove() != toMove || g.Ply() != ply || g.Status() != status || g.pos != pos {
		t.Fatalf("Undo of %s did not restore the position", g.FormatMove(m))
	}
}

func TestCloneIsIndependent(t *testing.T) {
	g := newGB(t)
	play(t, g, "G1", "R1")
	c := g.Clone().(*Game)
	play(t, c, "B1")
	if g.Ply() != 2 || c.Ply() != 3 || g.Hash() == c.Hash() {
		t.Fatal("clone shares state")
	}
	c.Options()["colours"] = "xx"
	if g.Options()["colours"] != "gb" {
		t.Error("clone shares options")
	}
	o := g.Options()
	o["seed"] = "1"
	if g.Options()["seed"] == "1" {
		t.Error("Options returns the game's own map")
	}
	if !slices.Equal(g.History(), c.History()[:2]) {
		t.Error("clone lost history")
	}
}

func TestHash(t *testing.T) {
	a, b := newGB(t), newGB(t)
	// Transpositions meet: G1 R1 B1 and B1 R1 G1 reach the same position.
	play(t, a, "G1", "R1", "B1")
	play(t, b, "B1", "R1", "G1")
	if a.Hash() != b.Hash() {
		t.Error("transposition with different hashes")
	}
	// The side to move is in the hash.
	p1 := setup(t, jamDiagram, rules.P1)
	p2 := setup(t, jamDiagram, rules.P2)
	if p1.Hash() == p2.Hash() {
		t.Error("side to move not hashed")
	}
	// No collisions among many positions.
	seen := map[uint64]string{}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		g := newGB(t)
		for g.Status() == rules.Ongoing {
			key := g.Diagram() + g.ToMove().String()
			if old, ok := seen[g.Hash()]; ok && old != key {
				t.Fatalf("hash collision:\n%s\n%s", old, key)
			}
			seen[g.Hash()] = key
			var list rules.MoveList
			g.Moves(&list)
			g.Play(list.Moves[rng.IntN(list.N)])
		}
	}
}

func TestUndoPanicsAtStart(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Undo with no move did not panic")
		}
	}()
	newGB(t).Undo()
}

func TestNoAllocations(t *testing.T) {
	g := newGB(t)
	play(t, g, "G1", "R1")
	var list rules.MoveList
	g.Moves(&list)
	m := list.Moves[0]
	var sink int
	checks := map[string]func(){
		"Moves":     func() { g.Moves(&list) },
		"Play+Undo": func() { g.Play(m); g.Undo() },
		"Status":    func() { g.Play(m); sink += int(g.Status()); g.Undo() },
		"Hash":      func() { sink += int(g.Hash() & 1) },
		"Evaluate":  func() { sink += g.Evaluate() + g.Material() },
		"Tactical":  func() { _ = g.Tactical(m) },
		"count":     func() { sink += int(g.countMoves()) },
	}
	for name, f := range checks {
		if a := testing.AllocsPerRun(200, f); a != 0 {
			t.Errorf("%s allocates %.1f times", name, a)
		}
	}
	// Perft allocates its move lists once a call, whatever the node count.
	if a := testing.AllocsPerRun(20, func() { sink += int(g.Perft(5)) }); a != 1 {
		t.Errorf("Perft(5) allocates %.1f times, want once", a)
	}
	_ = sink
}

func TestSetupRoundTrip(t *testing.T) {
	for _, d := range []string{naiveStart, mixedDiagram, jamDiagram, fewLowDiagram} {
		g := setup(t, d, rules.P2)
		again := setup(t, g.Diagram(), rules.P2)
		if again.Hash() != g.Hash() || again.Diagram() != g.Diagram() {
			t.Errorf("Diagram does not round trip:\n%s", g.Diagram())
		}
	}
}
