package evalfit

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"arbiter/render"
	"arbiter/rules"
	"arbiter/rules/games"
)

// fitRecords names a folder of game records for TestFitTerms.
var fitRecords = flag.String("fit", "", "fit corrections to the evaluation from the games recorded in this folder")

// TestFitFindsTheWeightsOfItsSamples: results drawn from known weights
// give back weights near them, from a start far from them.
func TestFitFindsTheWeightsOfItsSamples(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	truth := []float64{300, 200, 100, -5, 40}
	var samples []Sample
	for range 20000 {
		s := Sample{Features: make([]float64, len(truth))}
		e := 0.0
		for i := range s.Features {
			s.Features[i] = float64(r.IntN(5) - 2)
			e += truth[i] * s.Features[i]
		}
		if r.Float64() < 1/(1+math.Exp(-e/400)) {
			s.Result = 1
		}
		samples = append(samples, s)
	}
	start := []float64{200, 200, 200, 0, 0}
	got, loss := Fit(samples, start, []float64{10, 10, 10, 1, 1}, 1)
	if want := Loss(samples, truth, 1); loss > want+0.002 {
		t.Errorf("fitted %v, loss %.4f; the true weights' loss %.4f", got, loss, want)
	}
	if start[0] != 200 {
		t.Errorf("Fit changed its start weights to %v", start)
	}
	if k, _ := Scale(samples, truth); math.Abs(k-1) > 0.2 {
		t.Errorf("Scale at the true weights is %.2f, want about 1", k)
	}
}

// hiyaGame is a Hi-Ya! game of 32 plies, won by North, that mixes quiet
// moves and attacks.
const hiyaGame = `E3E4 F6E5 F2E3 E5F4 A3B4 G6F5 B4A5 G7G4 E2A6 F5E4 C3B4 G4G3 B4C5 E4F3 C2C3 C7D6
E3F2 E6D5 A6B5 B7C6 F2E3 E7E4 C3E3 D6E5 G2F3 E4F4 E3E4 G3G2 B5A6 C6A4 A6B7 G2D2`

// TestSamplesKeepsQuietPositionsWithTheirResults: a Hi-Ya! game replayed
// gives one sample for each quiet move from the skipped plies on, with 1
// for the winner to move and 0 for the loser.
func TestSamplesKeepsQuietPositionsWithTheirResults(t *testing.T) {
	reg := games.Registry()
	g, err := reg.New("hiya", nil)
	if err != nil {
		t.Fatal(err)
	}
	var moves []rules.Move
	for _, text := range strings.Fields(hiyaGame) {
		m, err := g.ParseMove(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		moves = append(moves, m)
		g.Play(m)
	}
	start, _ := reg.New("hiya", nil)
	quiet, wins := 0, 0
	for i, m := range moves {
		if i >= 2 && !start.Tactical(m) {
			quiet++
			if start.ToMove() == rules.P2 {
				wins++
			}
		}
		start.Play(m)
	}
	if quiet == 0 || quiet == len(moves)-2 {
		t.Fatalf("the line has %d quiet moves of %d; it should mix quiet and tactical ones", quiet, len(moves)-2)
	}
	replay, _ := reg.New("hiya", nil)
	calls := 0
	got := Samples(replay, moves, rules.P2, 2, func(g rules.Game) ([]float64, bool) {
		calls++
		return []float64{float64(g.Ply())}, calls%2 == 1
	})
	if calls != quiet {
		t.Errorf("features called %d times, want once for each of the %d quiet moves", calls, quiet)
	}
	if want := (quiet + 1) / 2; len(got) != want {
		t.Errorf("%d samples, want %d (the positions features kept)", len(got), want)
	}
	won := 0
	for _, s := range got {
		won += int(s.Result)
		if ply := int(s.Features[0]); ply < 2 {
			t.Errorf("a sample at ply %d, before the 2 skipped", ply)
		}
	}
	if won == 0 || won == len(got) {
		t.Errorf("results %v: want wins for North to move and losses for South", got)
	}
	if replay.Ply() != len(moves) {
		t.Errorf("the game is left at ply %d, want %d", replay.Ply(), len(moves))
	}
}

// TestFitTerms fits corrections to a game's evaluation from the games in
// the folder that -fit names (written by `arbiter match --records`). Its
// model is a·Evaluate plus a weight for each term of the game's Terms,
// counted for the player to move and for the opponent, so that a term's
// weight in Evaluate becomes a times it plus the fitted correction. It
// logs the loss of Evaluate alone and of the fit, each also on a quarter
// of the games held out:
//
//	go test ./engine/evalfit -run TestFitTerms -v -fit DIR
func TestFitTerms(t *testing.T) {
	if *fitRecords == "" {
		t.Skip("no -fit folder of records")
	}
	files, err := filepath.Glob(filepath.Join(*fitRecords, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no records in %s: %v", *fitRecords, err)
	}
	reg := games.Registry()
	var fit, held []Sample
	var names []string
	for i, file := range files {
		samples, terms, err := recordSamples(reg, file)
		if err != nil {
			t.Fatal(err)
		}
		if names != nil && !slices.Equal(terms, names) {
			t.Fatalf("%s counts %v, the records before it %v: fit one game at a time", file, terms, names)
		}
		names = terms
		if i%4 == 3 {
			held = append(held, samples...)
		} else {
			fit = append(fit, samples...)
		}
	}
	if len(fit) == 0 {
		t.Fatalf("no positions in %d records", len(files))
	}
	n := len(fit[0].Features)
	start, steps := make([]float64, n), make([]float64, n)
	start[0], steps[0] = 1, 0.02
	for i := 1; i < n; i++ {
		steps[i] = 1
	}
	k, _ := Scale(fit, start)
	got, loss := Fit(fit, start, steps, k)
	t.Logf("%d games, %d positions fitted, %d held out; k %.2f", len(files), len(fit), len(held), k)
	t.Logf("loss %.5f (Evaluate alone %.5f); held out %.5f (Evaluate alone %.5f)",
		loss, Loss(fit, start, k), Loss(held, got, k), Loss(held, start, k))
	t.Logf("Evaluate × %.2f", got[0])
	for i, name := range names {
		t.Logf("%s: %+.0f for the player to move's, %+.0f for the opponent's", name, got[1+2*i], got[2+2*i])
	}
}

// recordSamples reads a record and returns the samples of its quiet
// positions after the first four plies, each Evaluate then the Terms'
// counts, and the terms' names. A record without a winner gives none.
func recordSamples(reg *rules.Registry, file string) ([]Sample, []string, error) {
	text, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	rec, err := render.ParseRecord(reg, string(text))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	counter, ok := rec.Game.(rules.Counter)
	if !ok {
		return nil, nil, fmt.Errorf("%s: %s counts no terms", file, rec.Game.Name())
	}
	var names []string
	for _, term := range counter.Terms() {
		names = append(names, term.Name)
	}
	winner, ok := rec.Outcome.Result.Winner()
	if !ok {
		return nil, names, nil
	}
	g, err := reg.New(rec.Game.Name(), rec.Game.Options())
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	moves := append([]rules.Move(nil), rec.Game.History()...)
	return Samples(g, moves, winner, 4, func(g rules.Game) ([]float64, bool) {
		return append([]float64{float64(g.Evaluate())}, TermFeatures(g.(rules.Counter), g.ToMove())...), true
	}), names, nil
}

// counted is a rules.Counter with fixed terms.
type counted []rules.Term

func (c counted) Terms() []rules.Term { return c }

// TestTermFeaturesPutThePlayerToMoveFirst: each term gives the count of
// the player to move, then the opponent's.
func TestTermFeaturesPutThePlayerToMoveFirst(t *testing.T) {
	c := counted{{Name: "pieces", Count: [2]int{3, 5}}, {Name: "moves", Count: [2]int{7, 2}}}
	if got, want := TermFeatures(c, rules.P1), []float64{3, 5, 7, 2}; !slices.Equal(got, want) {
		t.Errorf("player 1 to move: %v, want %v", got, want)
	}
	if got, want := TermFeatures(c, rules.P2), []float64{5, 3, 2, 7}; !slices.Equal(got, want) {
		t.Errorf("player 2 to move: %v, want %v", got, want)
	}
}
