package analysis

import (
	"context"
	"math/rand/v2"
	"testing"

	"arbiter/engine"
	"arbiter/rules"
	"arbiter/rules/games"
)

// mixedGame plays a game of name of up to maxPlies, each move the engine's
// at depth 2 or, one time in two, a random legal one (seeded), so that its
// moves are of every class.
func mixedGame(t *testing.T, name string, seed uint64, maxPlies int) (rules.Game, []rules.Move) {
	t.Helper()
	g := seeded(t, games.Registry(), name, seed)
	start := g.Clone()
	rng := rand.New(rand.NewPCG(seed, 11))
	eng := engine.NewEngine(8)
	var moves []rules.Move
	var list rules.MoveList
	for len(moves) < maxPlies && g.Status() == rules.Ongoing {
		g.Moves(&list)
		if list.N == 0 {
			break
		}
		m := list.Moves[rng.IntN(list.N)]
		if rng.IntN(2) == 0 {
			eng.Reset()
			m = eng.Search(context.Background(), g, engine.Limits{Depth: 2}).Move
		}
		moves = append(moves, m)
		g.Play(m)
	}
	return start, moves
}

// TestClassesAgreeWithADeeperSearch checks the classes of a review against
// those of a search two plies deeper, game by game: the share of moves
// whose class is the same must be at least minAgreement, and the share is
// logged (docs/explanation/analysis.md states it). Under -short one game
// of Sixes is checked.
func TestClassesAgreeWithADeeperSearch(t *testing.T) {
	const shallow, deep, minAgreement = 3, 5, 0.5
	names := []string{"sixes", "hique", "upthrust", "hiya"}
	plies := 80
	if testing.Short() {
		names, plies = names[:1], 30
	}
	for _, name := range names {
		start, moves := mixedGame(t, name, 1, plies)
		a := analyseAt(t, start, moves, shallow)
		b := analyseAt(t, start, moves, deep)
		same, near := 0, 0
		for i := range a.Moves {
			if a.Moves[i].Class == b.Moves[i].Class {
				same++
			}
			if classRank(a.Moves[i].Class)-classRank(b.Moves[i].Class) <= 1 && classRank(b.Moves[i].Class)-classRank(a.Moves[i].Class) <= 1 {
				near++
			}
		}
		share := float64(same) / float64(len(a.Moves))
		t.Logf("%s: depth %d against depth %d: %d of %d moves (%.0f%%) in the same class, %.0f%% within one class", name, shallow, deep, same, len(a.Moves), 100*share, 100*float64(near)/float64(len(a.Moves)))
		if share < minAgreement {
			t.Errorf("%s: only %.0f%% of the classes agree with the deeper search", name, 100*share)
		}
	}
}

// classRank orders the classes from best (0) to blunder (4); forced is
// ranked with best.
func classRank(c Class) int {
	switch c {
	case Good:
		return 1
	case Inaccuracy:
		return 2
	case Mistake:
		return 3
	case Blunder:
		return 4
	}
	return 0
}
