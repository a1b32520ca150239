package described_test

import (
	"slices"
	"testing"

	"arbiter/rules"
)

// TestCalmGamesHaveNoTacticalMove: the shipped games that say they are
// calm are those without captures or wins in one move, and along random
// games of each no move of theirs is tactical.
func TestCalmGamesHaveNoTacticalMove(t *testing.T) {
	var calm []string
	for _, name := range shippedNames(t) {
		if c, ok := newShaped(t, name, nil).(rules.Calm); !ok || !c.Calm() {
			continue
		}
		calm = append(calm, name)
		rng := newRand(name)
		var list rules.MoveList
		for range 5 {
			g := newShaped(t, name, nil)
			for g.Status() == rules.Ongoing {
				g.Moves(&list)
				for _, m := range list.Slice() {
					if g.Tactical(m) {
						t.Fatalf("%s after %v: %s is tactical in a calm game", name, played(g), g.FormatMove(m))
					}
				}
				g.Play(list.Slice()[rng.IntN(list.N)])
			}
		}
	}
	if want := []string{"amazons", "hex", "othello", "pentago"}; !slices.Equal(calm, want) {
		t.Fatalf("calm games %v, want %v", calm, want)
	}
}
