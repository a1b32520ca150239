package hiya

import (
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fitRecords names a folder of Hi-Ya! games recorded by `arbiter match
// --records` for TestFitEvaluation.
var fitRecords = flag.String("fit", "", "fit the evaluation's weights to the games recorded in this folder")

// numFeatures is the number of weighed features of Evaluate that a fit
// adjusts: the four piece values, advancement, threats, the best attack,
// the King in danger and the King's shield.
const numFeatures = 9

// sample is a position's features, each the side to move's minus the
// opponent's, and the game's result for the side to move: 1 won, 0 lost.
type sample struct {
	features [numFeatures]float64
	result   float64
}

// features returns p's features as Evaluate weighs them, and whether the
// side to move can attack the King now (a won position that says nothing
// of the weights).
func features(p *position) (f [numFeatures]float64, kingAttackNow bool) {
	us, them := p.toMove, p.toMove^1
	for i, k := range []Kind{Ninja, Samurai, MiniNinja, MiniSamurai} {
		f[i] = float64(popcount(p.kind[k]&p.side[us]) - popcount(p.kind[k]&p.side[them]))
	}
	f[4] = float64(p.advancement(us) - p.advancement(them))
	empty := boardMask &^ (p.side[South] | p.side[North])
	hitUs, hitThem := p.hits(us, empty), p.hits(them, empty)
	f[5] = float64(popcount(hitUs) - popcount(hitThem))
	f[6] = float64(p.bestTake(hitUs)) / 100
	if hitThem&p.kind[King] != 0 {
		f[7] = -1
	}
	f[8] = float64(p.shielded(us) - p.shielded(them))
	return f, hitUs&p.kind[King] != 0
}

// recordMove is a move of a record's move list, with its "Hi-YA!", and
// recordTurn the start of a line of that list.
var (
	recordMove = regexp.MustCompile(`([A-G][1-8][A-G][1-8])( Hi-YA!)?`)
	recordTurn = regexp.MustCompile(`^\s*\d+\.`)
)

// samplesOf replays a game record (`arbiter match --records`) and returns
// the positions after the first four plies where the player to move made
// a quiet move (no attack) and could not attack the King.
func samplesOf(t *testing.T, text string) []sample {
	t.Helper()
	var winner Side
	switch {
	case strings.Contains(text, "\nResult: p1"):
		winner = South
	case strings.Contains(text, "\nResult: p2"):
		winner = North
	default:
		return nil
	}
	g, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []sample
	for _, line := range strings.Split(text, "\n") {
		if !recordTurn.MatchString(line) {
			continue
		}
		for _, mv := range recordMove.FindAllStringSubmatch(line, -1) {
			if g.Ply() >= 4 && mv[2] == "" {
				if f, won := features(&g.pos); !won {
					s := sample{features: f}
					if g.pos.toMove == winner {
						s.result = 1
					}
					out = append(out, s)
				}
			}
			m, err := g.ParseMove(mv[1])
			if err != nil {
				t.Fatalf("%s: %v", mv[1], err)
			}
			g.Play(m)
		}
	}
	return out
}

// fitLoss is the mean squared error of the results predicted from the
// weights: the logistic of k·eval/400.
func fitLoss(samples []sample, w [numFeatures]float64, k float64) float64 {
	sum := 0.0
	for _, s := range samples {
		e := 0.0
		for i, f := range s.features {
			e += w[i] * f
		}
		d := s.result - 1/(1+math.Exp(-k*e/400))
		sum += d * d
	}
	return sum / float64(len(samples))
}

// fitWeights fits k to the samples at the weights w, then moves each
// weight by its step while the loss falls, until no step lowers it
// (Texel's method). A step of 0 keeps its weight.
func fitWeights(samples []sample, w, steps [numFeatures]float64) (fitted [numFeatures]float64, k, loss float64) {
	k, loss = 0, math.Inf(1)
	for try := 0.2; try < 5; try += 0.05 {
		if l := fitLoss(samples, w, try); l < loss {
			k, loss = try, l
		}
	}
	for improved := true; improved; {
		improved = false
		for i := range w {
			for _, sign := range []float64{1, -1} {
				for steps[i] != 0 {
					next := w
					next[i] += sign * steps[i]
					l := fitLoss(samples, next, k)
					if l >= loss-1e-7 {
						break
					}
					w, loss, improved = next, l, true
				}
			}
		}
	}
	return w, k, loss
}

// weights are Evaluate's weights for the features, and fitSteps the steps
// a fit moves them by.
var (
	weights  = [numFeatures]float64{valueNinja, valueSamurai, valueMiniNinja, valueMiniSamurai, advanceWeight, threatWeight, 100 / attackShare, kingDanger, kingShield}
	fitSteps = [numFeatures]float64{10, 10, 10, 10, 1, 1, 5, 10, 5}
)

// TestFitWeightsFindsTheWeightsOfItsSamples: results drawn from known
// weights give back weights near them.
func TestFitWeightsFindsTheWeightsOfItsSamples(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	truth := [numFeatures]float64{300, 200, 100, 100, -5, 40, 20, 200, 100}
	var samples []sample
	for range 20000 {
		var s sample
		e := 0.0
		for i := range s.features {
			s.features[i] = float64(r.IntN(5) - 2)
			e += truth[i] * s.features[i]
		}
		if r.Float64() < 1/(1+math.Exp(-e/400)) {
			s.result = 1
		}
		samples = append(samples, s)
	}
	got, _, loss := fitWeights(samples, weights, fitSteps)
	if want := fitLoss(samples, truth, 1); loss > want+0.002 {
		t.Errorf("fitted %v, loss %.4f; the true weights' loss %.4f", got, loss, want)
	}
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
	var fit, held []sample
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
	got, k, loss := fitWeights(fit, weights, fitSteps)
	t.Logf("%d games, %d positions fitted, %d held out; k %.2f", len(files), len(fit), len(held), k)
	t.Logf("fitted loss %.5f (was %.5f); held out %.5f (was %.5f)", loss, fitLoss(fit, weights, k), fitLoss(held, got, k), fitLoss(held, weights, k))
	t.Logf("weights %v (were %v)", got, weights)
}
