package games_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"arbiter/rules"
	"arbiter/rules/games"
)

// TestEveryGameCountsItsPositions: every game says what its positions
// hold in its own quantities, the same quantities in every position, and a
// "legal moves" count for the player to move is what move generation
// lists; Sixes' pieces are what its standing counts.
func TestEveryGameCountsItsPositions(t *testing.T) {
	reg := games.Registry()
	var list rules.MoveList
	for _, name := range reg.Names() {
		t.Run(name, func(t *testing.T) {
			g, err := reg.New(name, nil)
			if err != nil {
				t.Fatal(err)
			}
			c, ok := g.(rules.Counter)
			if !ok {
				t.Fatalf("%s does not count its positions in its own terms", name)
			}
			names := termNames(c.Terms())
			if len(names) == 0 {
				t.Fatal("no terms")
			}
			rng := rand.New(rand.NewPCG(3, 9))
			for ply := 0; g.Status() == rules.Ongoing && ply < 200; ply++ {
				terms := g.(rules.Counter).Terms()
				if got := termNames(terms); !slices.Equal(got, names) {
					t.Fatalf("ply %d: terms %v, at the start %v", ply, got, names)
				}
				g.Moves(&list)
				for _, term := range terms {
					if term.Name == "legal moves" && !rules.IsPass(g, list.Moves[0]) && term.Count[g.ToMove()] != list.N {
						t.Errorf("ply %d: %d legal moves counted for the player to move, %d generated", ply, term.Count[g.ToMove()], list.N)
					}
				}
				if sc, ok := g.(rules.Scorer); ok && name == "sixes" {
					if scores, _ := sc.Standing(); scores != terms[0].Count {
						t.Errorf("ply %d: pieces %v, standing %v", ply, terms[0].Count, scores)
					}
				}
				g.Play(list.Moves[rng.IntN(list.N)])
			}
		})
	}
}

func termNames(terms []rules.Term) []string {
	var names []string
	for _, t := range terms {
		names = append(names, t.Name)
	}
	return names
}
