package analysis

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"arbiter/engine"
	"arbiter/rules"
	"arbiter/rules/games"
)

var (
	fit      = flag.Bool("fit", false, "play self-play games and fit each game's curve (TestFitCurves)")
	fitGames = flag.Int("fit-games", 40, "self-play games a game for -fit")
	fitDepth = flag.Int("fit-depth", 4, "search depth of the self-play moves and evaluations for -fit")
	fitOnly  = flag.String("fit-only", "", "comma-separated games to fit with -fit (default every game)")
)

// TestFitCurves makes the curves of CurveFor: with -fit it plays
// -fit-games games of each game between Arbiter's engine at two levels
// drawn from 1 to 5 for each game (so that leads of every size occur and
// are converted or spoilt as in real games), from balanced random
// openings, evaluates every position with a full search at -fit-depth and
// fits K on those evaluations (forced results left out) against the final
// score.
// It prints each game's K and the Go to paste into CurveFor.
func TestFitCurves(t *testing.T) {
	if !*fit {
		t.Skip("run with -fit to play the self-play games and fit the curves")
	}
	reg := games.Registry()
	for _, name := range reg.Names() {
		if *fitOnly != "" && !slices.Contains(strings.Split(*fitOnly, ","), name) {
			continue
		}
		samples, results := selfPlay(t, reg, name, *fitGames, *fitDepth)
		k, err := FitK(samples)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%s: K = %.5f from %d positions of %d games (p1 %d, p2 %d, draws %d); 100 ahead = %.1f%%",
			name, k, len(samples), *fitGames, results[0], results[1], results[2],
			100*(Curve{K: k}).Expected(100, rules.P1))
		fmt.Printf("\tcase %q:\n\t\treturn Curve{K: %.5f}\n", name, k)
	}
}

// selfPlay plays n games of name on all cores and returns the samples and
// the results (player 1's wins, player 2's wins, draws).
func selfPlay(t *testing.T, reg *rules.Registry, name string, n, depth int) ([]Sample, [3]int) {
	t.Helper()
	var (
		mu      sync.Mutex
		samples []Sample
		results [3]int
		wg      sync.WaitGroup
		jobs    = make(chan int)
	)
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			eng := engine.NewEngine(8)
			for i := range jobs {
				s, r, err := selfPlayGame(reg, name, uint64(i), depth, eng)
				if err != nil {
					t.Error(err)
					continue
				}
				mu.Lock()
				samples = append(samples, s...)
				results[r]++
				mu.Unlock()
			}
		}()
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return samples, results
}

// selfPlayGame plays one game from a random opening drawn with seed and
// returns its samples and its result (0 player 1 won, 1 player 2, 2 a
// draw).
func selfPlayGame(reg *rules.Registry, name string, seed uint64, depth int, eng *engine.Engine) ([]Sample, int, error) {
	opts := rules.Options{}
	if name == "upthrust" {
		opts["colours"] = "gb"
	}
	rng := rand.New(rand.NewPCG(seed, 0xf17))
	opening, err := engine.RandomOpening(reg, name, opts, engine.OpeningPlies, rng, nil)
	if err != nil {
		return nil, 0, err
	}
	g, err := reg.New(name, opts)
	if err != nil {
		return nil, 0, err
	}
	for _, m := range opening {
		g.Play(m)
	}
	var players [2]*engine.Arbiter
	for i := range players {
		players[i] = engine.NewArbiter(reg, engine.Level(1+rng.IntN(5)), 4, rng)
	}
	type seen struct {
		eval   int
		toMove rules.Player
	}
	var evals []seen
	ctx := context.Background()
	for g.Status() == rules.Ongoing {
		eng.Reset()
		info := eng.Search(ctx, g, engine.Limits{Depth: depth})
		if _, forced := engine.MateIn(info.Score); !forced {
			evals = append(evals, seen{info.Score, g.ToMove()})
		}
		m, _, err := players[g.ToMove()].Choose(ctx, g, engine.Limits{Depth: depth})
		if err != nil {
			return nil, 0, err
		}
		g.Play(m)
	}
	r := g.Status()
	var out []Sample
	for _, e := range evals {
		score := 0.5
		if w, ok := r.Winner(); ok {
			score = 0
			if w == e.toMove {
				score = 1
			}
		}
		out = append(out, Sample{Eval: e.eval, Score: score})
	}
	idx := 2
	if w, ok := r.Winner(); ok {
		idx = int(w)
	}
	return out, idx, nil
}
