package analysis

import (
	"math/rand/v2"
	"strings"
	"testing"

	"arbiter/rules"
	"arbiter/rules/games"
)

// TestMistakesAreToldInTheGamesTerms: in random Sixes games analysed at a
// fixed depth, an inaccuracy, mistake or blunder that does not walk into a
// forced loss says how the expected lines end in the game's own
// quantities (pieces, legal moves, pieces one move from removal).
func TestMistakesAreToldInTheGamesTerms(t *testing.T) {
	reg := games.Registry()
	told := 0
	var list rules.MoveList
	var terms []string
	for _, term := range seeded(t, reg, "sixes", 1).(rules.Counter).Terms() {
		terms = append(terms, term.Name)
	}
	for seed := uint64(1); seed <= 3 && told == 0; seed++ {
		g := seeded(t, reg, "sixes", seed)
		start := g.Clone()
		rng := rand.New(rand.NewPCG(seed, 11))
		var moves []rules.Move
		for g.Status() == rules.Ongoing && len(moves) < 40 {
			g.Moves(&list)
			m := list.Moves[rng.IntN(list.N)]
			moves = append(moves, m)
			g.Play(m)
		}
		for _, m := range analyseAt(t, start, moves, 3).Moves {
			if m.Why == "" || strings.Contains(m.Why, "forced loss") {
				continue
			}
			_, counts, ok := strings.Cut(m.Why, "at the end of the expected lines, ")
			if !ok {
				t.Errorf("ply %d %s (%s): %q does not say how the lines end", m.Ply, m.Move, m.Class, m.Why)
				continue
			}
			if !namesATerm(counts, terms) {
				t.Errorf("ply %d: %q names none of %v", m.Ply, counts, terms)
			}
			told++
		}
	}
	if told == 0 {
		t.Fatal("no inaccuracy, mistake or blunder in three random games of Sixes")
	}
}

// namesATerm reports whether text names one of terms as "N to M in TERM".
func namesATerm(text string, terms []string) bool {
	for _, term := range terms {
		if strings.Contains(text, " in "+term) {
			return true
		}
	}
	return false
}
