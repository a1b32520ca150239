package analysis

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"arbiter/engine"
	"arbiter/rules"
	"arbiter/rules/games"
)

// testDepth is the depth the tests analyse at: deterministic and quick.
const testDepth = 4

// matchNodes caps the positions arbiter:5 searches for a move in the test
// matches, and the analysis of those games; shortNodes under -short.
const (
	matchNodes = 200000
	shortNodes = 80000
)

func analyseWith(t testing.TB, g rules.Game, moves []rules.Move, lim engine.Limits) *Report {
	t.Helper()
	rep, err := Analyse(context.Background(), g, moves, [2]string{}, Options{Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func analyseAt(t testing.TB, g rules.Game, moves []rules.Move, depth int) *Report {
	t.Helper()
	rep, err := Analyse(context.Background(), g, moves, [2]string{}, Options{Limits: engine.Limits{Depth: depth}})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// winsAtOnce reports whether the player to move in g has a move that wins
// the game at once.
func winsAtOnce(g rules.Game) bool {
	var list rules.MoveList
	g.Moves(&list)
	me := g.ToMove()
	for _, m := range append([]rules.Move(nil), list.Slice()...) {
		g.Play(m)
		w, ok := g.Status().Winner()
		g.Undo()
		if ok && w == me {
			return true
		}
	}
	return false
}

// losingChoice is a position where one move lets the opponent win at once
// and another does not.
type losingChoice struct {
	g         rules.Game
	bad, good rules.Move
}

// seeded returns a new game of name whose every random choice (such as
// Upthrust's colours) comes from seed, so a test sees the same games on
// every run.
func seeded(t *testing.T, reg *rules.Registry, name string, seed uint64) rules.Game {
	t.Helper()
	def, err := reg.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	opts := rules.Options{}
	for _, o := range def.Options {
		if o.Key == "seed" {
			opts["seed"] = fmt.Sprint(seed)
		}
	}
	g, err := reg.New(name, opts)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// findLosingChoice plays seeded random games of name until the player to
// move, without a win at once of its own and not lost by force as the
// analysis itself sees it, has a move after which the opponent wins at
// once, while the analysis's choice is a move after which it does not.
// Which moves let the opponent win at once is found by plain move
// generation, apart from the analysis.
func findLosingChoice(t *testing.T, reg *rules.Registry, name string) losingChoice {
	t.Helper()
	var list rules.MoveList
	for seed := uint64(1); seed < 500; seed++ {
		g := seeded(t, reg, name, seed)
		rng := rand.New(rand.NewPCG(seed, 27))
		for g.Status() == rules.Ongoing {
			g.Moves(&list)
			moves := append([]rules.Move(nil), list.Slice()...)
			if len(moves) > 1 && !winsAtOnce(g) {
				if c, ok := losingChoiceAt(t, g, moves); ok {
					return c
				}
			}
			g.Play(moves[rng.IntN(len(moves))])
		}
	}
	t.Fatalf("%s: no position with a move that loses at once in 500 random games", name)
	return losingChoice{}
}

// losingChoiceAt returns g as a losing choice if one of moves lets the
// opponent win at once, the analysis does not see the mover lost, and the
// analysis's best move is then safe, as it must be.
func losingChoiceAt(t *testing.T, g rules.Game, moves []rules.Move) (losingChoice, bool) {
	bad := rules.NoMove
	mover := g.ToMove()
	for _, m := range moves {
		g.Play(m)
		// A move after which the mover moves again (Kalah, Dots and Boxes)
		// gives the opponent no move at once.
		loses := g.Status() == rules.Ongoing && g.ToMove() != mover && winsAtOnce(g)
		g.Undo()
		if loses {
			bad = m
			break
		}
	}
	if bad == rules.NoMove {
		return losingChoice{}, false
	}
	review := analyseAt(t, g, []rules.Move{bad}, testDepth).Moves[0]
	if lostFor(review.EvalBefore, review.Player) {
		return losingChoice{}, false
	}
	good, err := g.ParseMove(review.Best)
	if err != nil {
		t.Fatalf("the analysis's best move %q: %v", review.Best, err)
	}
	g.Play(good)
	safe := g.Status() != rules.Ongoing || g.ToMove() == mover || !winsAtOnce(g)
	g.Undo()
	if !safe {
		t.Fatalf("%s: the analysis sees the mover not lost, yet its best move %s lets the opponent win at once", g, review.Best)
	}
	return losingChoice{g: g.Clone(), bad: bad, good: good}, true
}

// shortBranching is the most first moves a game may have to be searched
// at testDepth under -short; games with more (Gomoku, Pentago) take a
// minute each there and are left to the full run.
const shortBranching = 100

// skipWideUnderShort skips, under -short, a game with more than
// shortBranching legal first moves.
func skipWideUnderShort(t *testing.T, reg *rules.Registry, name string) {
	t.Helper()
	if !testing.Short() {
		return
	}
	var list rules.MoveList
	seeded(t, reg, name, 1).Moves(&list)
	if list.N > shortBranching {
		t.Skipf("%d first moves: searched at depth %d in the full run only", list.N, testDepth)
	}
}

func TestMoveThatLosesAtOnceIsABlunder(t *testing.T) {
	reg := games.Registry()
	for _, name := range reg.Names() {
		t.Run(name, func(t *testing.T) {
			skipWideUnderShort(t, reg, name)
			c := findLosingChoice(t, reg, name)
			bad := analyseAt(t, c.g, []rules.Move{c.bad}, testDepth).Moves[0]
			good := analyseAt(t, c.g, []rules.Move{c.good}, testDepth).Moves[0]
			t.Logf("ply %d: %s loses at once: %s (loss %.1f, %s to %s); %s: %s",
				bad.Ply, bad.Move, bad.Class, bad.Loss, engine.ScoreString(bad.EvalBefore),
				engine.ScoreString(bad.EvalAfter), good.Move, good.Class)
			if bad.Class != Blunder {
				t.Errorf("%s, which lets the opponent win at once, is %s, want blunder", bad.Move, bad.Class)
			}
			if good.Class != Best {
				t.Errorf("%s, which does not, is %s, want best", good.Move, good.Class)
			}
		})
	}
}

func TestOnlyMoveIsForced(t *testing.T) {
	reg := games.Registry()
	var list rules.MoveList
	found := 0
	for _, name := range reg.Names() {
		for seed := uint64(1); seed < 50; seed++ {
			g, err := reg.New(name, nil)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, 6))
			for g.Status() == rules.Ongoing {
				g.Moves(&list)
				if list.N == 1 {
					break
				}
				g.Play(list.Moves[rng.IntN(list.N)])
			}
			if g.Status() != rules.Ongoing {
				continue
			}
			mv := analyseAt(t, g, []rules.Move{list.Moves[0]}, 2).Moves[0]
			if mv.Class != Forced {
				t.Errorf("%s: %s, the only legal move, is %s, want forced", name, mv.Move, mv.Class)
			}
			found++
			break
		}
	}
	if found == 0 {
		t.Fatal("no position with one legal move in any game's random games")
	}
}

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		loss                            float64
		legal                           int
		engineMove, lostBefore, lostNow bool
		want                            Class
	}{
		{0, 1, true, false, false, Forced},
		{40, 1, false, false, true, Forced},
		{3, 5, true, false, false, Best},
		{0.5, 5, false, false, false, Best},
		{4.9, 5, false, false, false, Good},
		{5, 5, false, false, false, Inaccuracy},
		{10, 5, false, false, false, Mistake},
		{15, 5, false, false, false, Blunder},
		{0, 5, false, false, true, Blunder}, // into a forced loss, whatever the numbers
		{0, 5, false, true, true, Best},     // lost already: nothing to spoil
	} {
		if got := classify(c.loss, c.legal, c.engineMove, c.lostBefore, c.lostNow); got != c.want {
			t.Errorf("classify(%v, %d, %v, %v, %v) = %s, want %s", c.loss, c.legal, c.engineMove, c.lostBefore, c.lostNow, got, c.want)
		}
	}
}

func TestAccuracy(t *testing.T) {
	if a := moveAccuracy(0); a != 100 {
		t.Errorf("moveAccuracy(0) = %v, want 100", a)
	}
	if a, b := moveAccuracy(5), moveAccuracy(30); !(a > b && b > 0 && a < 100) {
		t.Errorf("moveAccuracy(5) = %v, moveAccuracy(30) = %v: want 100 > first > second > 0", a, b)
	}
	if a := gameAccuracy([]float64{100, 100, 0}); a >= 66 {
		t.Errorf("one move of three at 0 gives %v: the harmonic mean should pull it below the plain mean", a)
	}
}

func TestFitKFindsTheCurve(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const k = 0.01
	var samples []Sample
	for range 20000 {
		e := rng.IntN(801) - 400
		s := 0.0
		if rng.Float64() < (Curve{K: k}).Expected(e, rules.P1) {
			s = 1
		}
		samples = append(samples, Sample{e, s})
	}
	got, err := FitK(samples)
	if err != nil {
		t.Fatal(err)
	}
	if got < 0.9*k || got > 1.1*k {
		t.Errorf("FitK = %.5f on samples drawn with K = %.5f", got, k)
	}
	if _, err := FitK([]Sample{{100, 1}, {50, 1}}); err == nil {
		t.Error("FitK with wins alone: no error")
	}
}

func TestIllegalMoveIsRefused(t *testing.T) {
	reg := games.Registry()
	g, err := reg.New("sixes", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Analyse(context.Background(), g, []rules.Move{rules.NoMove}, [2]string{}, Options{Limits: engine.Limits{Depth: 1}})
	if err == nil {
		t.Fatal("an illegal move was analysed")
	}
}

// playMatch plays n games between arbiter:5 (at a small node cap a move)
// and random, sides alternating, and returns each game's start and moves
// with which side arbiter was.
func playMatch(t *testing.T, reg *rules.Registry, name string, n int, nodes uint64) (starts []rules.Game, moves [][]rules.Move, arbiterSide []rules.Player) {
	t.Helper()
	opts := rules.Options{}
	if name == "upthrust" {
		opts["colours"] = "gb"
	}
	for i := range n {
		arb := engine.NewArbiter(reg, 5, 4, nil)
		rnd, err := engine.NewPlayer("random", engine.PlayerOptions{Registry: reg, Seed: uint64(i)})
		if err != nil {
			t.Fatal(err)
		}
		seats := [2]engine.Player{arb, rnd}
		side := rules.P1
		if i%2 == 1 {
			seats, side = [2]engine.Player{rnd, arb}, rules.P2
		}
		g, err := reg.New(name, opts)
		if err != nil {
			t.Fatal(err)
		}
		start := g.Clone()
		var played []rules.Move
		for g.Status() == rules.Ongoing {
			m, _, err := seats[g.ToMove()].Choose(context.Background(), g, engine.Limits{Nodes: nodes})
			if err != nil {
				t.Fatal(err)
			}
			played = append(played, m)
			g.Play(m)
		}
		starts, moves, arbiterSide = append(starts, start), append(moves, played), append(arbiterSide, side)
	}
	return starts, moves, arbiterSide
}

// farBelow is how many points of accuracy random must be below arbiter:5.
const farBelow = 15

func TestRandomPlaysFarWorseThanArbiter(t *testing.T) {
	n, nodes := 20, uint64(matchNodes)
	if testing.Short() {
		// Four games: in two, random may blunder only once (Upthrust).
		n, nodes = 4, shortNodes
	}
	reg := games.Registry()
	// The four games written in Go; in the games shipped as files (Othello,
	// Breakthrough, Connect Four) a random move loses less expected score
	// early on, and the gap is smaller than farBelow.
	for _, name := range []string{"hique", "upthrust", "hiya", "sixes"} {
		t.Run(name, func(t *testing.T) {
			starts, moves, arbSide := playMatch(t, reg, name, n, nodes)
			var acc [2]float64 // arbiter, random
			var blunders, plies [2]int
			for i := range starts {
				rep := analyseWith(t, starts[i], moves[i], engine.Limits{Nodes: nodes})
				for p := range 2 {
					who := 0
					if rules.Player(p) != arbSide[i] {
						who = 1
					}
					acc[who] += rep.Players[p].Accuracy
					blunders[who] += rep.Players[p].Counts[Blunder]
					plies[who] += rep.Players[p].Moves
				}
			}
			for who := range acc {
				acc[who] /= float64(n)
			}
			fmt.Printf("%-8s %2d games at %d positions a move: arbiter:5 accuracy %5.1f, %.2f blunders a game (%d moves); random accuracy %5.1f, %.2f blunders a game (%d moves)\n",
				name, n, nodes, acc[0], float64(blunders[0])/float64(n), plies[0], acc[1], float64(blunders[1])/float64(n), plies[1])
			if acc[1] > acc[0]-farBelow {
				t.Errorf("random's accuracy %.1f is not far below arbiter:5's %.1f", acc[1], acc[0])
			}
			if blunders[1] <= blunders[0] {
				t.Errorf("random made %d blunders, arbiter:5 %d: want random more", blunders[1], blunders[0])
			}
		})
	}
}

func TestDepthAnalysisIsRepeatable(t *testing.T) {
	reg := games.Registry()
	for _, name := range reg.Names() {
		t.Run(name, func(t *testing.T) {
			skipWideUnderShort(t, reg, name)
			starts, moves, _ := playMatch(t, reg, name, 1, 5000)
			a := analyseAt(t, starts[0], moves[0], testDepth)
			b := analyseAt(t, starts[0], moves[0], testDepth)
			a.Elapsed, b.Elapsed = 0, 0
			if !reflect.DeepEqual(a, b) {
				t.Errorf("two analyses at depth %d differ", testDepth)
			}
		})
	}
}

func TestCancelledAnalysisStops(t *testing.T) {
	reg := games.Registry()
	starts, moves, _ := playMatch(t, reg, "hique", 1, 5000)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Analyse(ctx, starts[0], moves[0], [2]string{}, Options{Limits: engine.Limits{MoveTime: time.Second}}); err == nil {
		t.Fatal("a cancelled analysis returned no error")
	}
}

// BenchmarkAnalyse100Plies analyses a game of 100 plies (Sixes between
// two random players, cut at 100) at 100 ms a position on all cores.
func BenchmarkAnalyse100Plies(b *testing.B) {
	reg := games.Registry()
	var moves []rules.Move
	var start rules.Game
	for seed := uint64(1); len(moves) < 100; seed++ {
		g, err := reg.New("sixes", nil)
		if err != nil {
			b.Fatal(err)
		}
		start, moves = g.Clone(), nil
		rng := rand.New(rand.NewPCG(seed, 100))
		var list rules.MoveList
		for len(moves) < 100 && g.Status() == rules.Ongoing {
			g.Moves(&list)
			m := list.Moves[rng.IntN(list.N)]
			moves = append(moves, m)
			g.Play(m)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Analyse(context.Background(), start, moves, [2]string{}, Options{Limits: engine.Limits{MoveTime: 100 * time.Millisecond}}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestTallyCountsByPlayerAndThird(t *testing.T) {
	rep := &Report{Players: [2]PlayerReview{{Name: "ann", Accuracy: 80}, {Name: "bob", Accuracy: 60}}}
	classes := []Class{Best, Blunder, Best, Best, Mistake, Inaccuracy}
	for i, c := range classes {
		rep.Moves = append(rep.Moves, MoveReview{Ply: i + 1, Player: rules.Player(i % 2), Class: c})
	}
	var tally Tally
	tally.Add(rep)
	rep.Players[0].Accuracy = 90
	tally.Add(rep)
	var b strings.Builder
	if err := tally.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	want := TallyHeader + "\n" +
		"ann,2,85.0,0.00,1.00,0.00,0.00,0.00,1.00\n" +
		"bob,2,60.0,1.00,0.00,1.00,1.00,0.00,1.00\n"
	if b.String() != want {
		t.Errorf("tally:\n%s\nwant:\n%s", b.String(), want)
	}
}
