package hiya

import (
	"flag"
	"math/bits"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"arbiter/engine/evalfit"
	"arbiter/rules"
)

// fitRecords names a folder of Hi-Ya! games recorded by `arbiter match
// --records` for TestFitEvaluation.
var fitRecords = flag.String("fit", "", "fit the evaluation's weights to the games recorded in this folder")

// numFeatures is the number of weighed features of Evaluate that a fit
// adjusts: the four piece values, threats, the best attack, the King in
// danger, the King's shield, the room ahead and the pieces stuck, then for
// each kind but the King (fitKinds) each row and distance from the middle
// column it may stand on (squareWeights).
const numFeatures = 10 + len(fitKinds)*rows*4

// fitKinds are the kinds whose squares are weighed, in the features' order.
var fitKinds = [...]Kind{Ninja, Samurai, MiniNinja, MiniSamurai}

// features returns p's features as Evaluate weighs them, and whether the
// side to move can attack the King now (a won position that says nothing
// of the weights).
func features(p *position) (f []float64, kingAttackNow bool) {
	f = make([]float64, numFeatures)
	us, them := p.toMove, p.toMove^1
	for i, k := range []Kind{Ninja, Samurai, MiniNinja, MiniSamurai} {
		f[i] = float64(popcount(p.kind[k]&p.side[us]) - popcount(p.kind[k]&p.side[them]))
	}
	empty := boardMask &^ (p.side[South] | p.side[North])
	hitUs, aheadUs := p.hits(us, empty)
	hitThem, aheadThem := p.hits(them, empty)
	f[4] = float64(popcount(hitUs) - popcount(hitThem))
	f[5] = float64(p.bestTake(hitUs)) / 100
	if hitThem&p.kind[King] != 0 {
		f[6] = -1
	}
	f[7] = float64(p.shielded(us) - p.shielded(them))
	f[8] = float64(popcount(aheadUs) - popcount(aheadThem))
	f[9] = float64(p.stuck(us, empty) - p.stuck(them, empty))
	for i, k := range fitKinds {
		at := 10 + i*rows*4
		for s, sign := range [2]float64{1, -1} {
			side := us ^ Side(s)
			for b := p.kind[k] & p.side[side]; b != 0; b &= b - 1 {
				row, middle := squareClass(side, bits.TrailingZeros64(b))
				f[at+row*4+middle] += sign
			}
		}
	}
	return f, hitUs&p.kind[King] != 0
}

// recordMove is a move of a record's move list, and recordTurn the start
// of a line of that list.
var (
	recordMove = regexp.MustCompile(`[A-G][1-8][A-G][1-8]`)
	recordTurn = regexp.MustCompile(`^\s*\d+\.`)
)

// samplesOf replays a game record (`arbiter match --records`) and returns
// the positions after the first four plies where the player to move made
// a quiet move (no attack) and could not attack the King.
func samplesOf(t *testing.T, text string) []evalfit.Sample {
	t.Helper()
	var winner rules.Player
	switch {
	case strings.Contains(text, "\nResult: p1"):
		winner = rules.P1
	case strings.Contains(text, "\nResult: p2"):
		winner = rules.P2
	default:
		return nil
	}
	g, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	var moves []rules.Move
	for _, line := range strings.Split(text, "\n") {
		if !recordTurn.MatchString(line) {
			continue
		}
		for _, text := range recordMove.FindAllString(line, -1) {
			m, err := g.ParseMove(text)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			moves = append(moves, m)
			g.Play(m)
		}
	}
	start, _ := New(nil)
	return evalfit.Samples(start, moves, winner, 4, func(rules.Game) ([]float64, bool) {
		f, won := features(&start.pos)
		return f, !won
	})
}

// fitWeights returns Evaluate's weights for the features, and the steps a
// fit moves them by. A step of 0 holds its weight: the piece values, the
// King in danger and the best attack's share are held, as a fit that moved
// them lost in self-play (bench/2026-11-30-strength.md).
func fitWeights() (weights, steps []float64) {
	weights = []float64{valueNinja, valueSamurai, valueMiniNinja, valueMiniSamurai, threatWeight, 100 / attackShare, kingDanger, kingShield, roomWeight, stuckWeight}
	steps = []float64{0, 0, 0, 0, 1, 0, 0, 5, 1, 2}
	squares := squareWeights()
	for _, k := range fitKinds {
		for _, row := range squares[k] {
			for _, w := range row {
				weights = append(weights, float64(w))
				steps = append(steps, 2)
			}
		}
	}
	return weights, steps
}

// TestFitEvaluation fits Evaluate's weights to the games in the folder
// that -fit names and logs them, with the loss before and after on a
// quarter of the games held out of the fit:
//
//	go test ./rules/hiya -run TestFitEvaluation -v -fit DIR
func TestFitEvaluation(t *testing.T) {
	if *fitRecords == "" {
		t.Skip("no -fit folder of records")
	}
	files, err := filepath.Glob(filepath.Join(*fitRecords, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no records in %s: %v", *fitRecords, err)
	}
	var fit, held []evalfit.Sample
	for i, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if i%4 == 3 {
			held = append(held, samplesOf(t, string(b))...)
		} else {
			fit = append(fit, samplesOf(t, string(b))...)
		}
	}
	weights, steps := fitWeights()
	k, _ := evalfit.Scale(fit, weights)
	got, loss := evalfit.Fit(fit, weights, steps, k)
	t.Logf("%d games, %d positions fitted, %d held out; k %.2f", len(files), len(fit), len(held), k)
	t.Logf("fitted loss %.5f (was %.5f); held out %.5f (was %.5f)", loss, evalfit.Loss(fit, weights, k), evalfit.Loss(held, got, k), evalfit.Loss(held, weights, k))
	t.Logf("weights %v (were %v)", got, weights)
}
