package described_test

import (
	"testing"

	"arbiter/rules"
	"arbiter/rules/described"
)

// TestHasMoveAgreesWithTheMoves: along random games of every shipped game
// on squares, whether the player to move has a move other than a pass is
// what its full list of moves says, however few moves the check lists.
func TestHasMoveAgreesWithTheMoves(t *testing.T) {
	for _, name := range shippedNames(t) {
		rng := newRand(name)
		var list rules.MoveList
		for range 3 {
			g, ok := described.Of(newShaped(t, name, nil))
			if !ok {
				break // played on pits or dots, not squares
			}
			for g.Status() == rules.Ongoing {
				g.Moves(&list)
				want := list.N > 0 && !g.IsPass(list.Moves[0])
				if has, _ := g.HasMoveListing(g.ToMove()); has != want {
					t.Fatalf("%s after %v: has a move %v, the list of %d moves says %v", name, played(g), has, list.N, want)
				}
				g.Play(list.Slice()[rng.IntN(list.N)])
			}
		}
	}
}

// TestHasMoveListsOneAmazonsMove: learning whether an Amazons player can
// move, with its two thousand moves at the start, lists only the first.
func TestHasMoveListsOneAmazonsMove(t *testing.T) {
	g := newDescribed(t, "amazons", nil)
	for _, p := range []rules.Player{rules.P1, rules.P2} {
		if has, listed := g.HasMoveListing(p); !has || listed != 1 {
			t.Errorf("player %d: has a move %v after listing %d moves, want true after 1", p+1, has, listed)
		}
	}
}
