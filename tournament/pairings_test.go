package tournament

import "testing"

// TestSchedule: a round robin meets every pair once a cycle, each player
// once a round, the second cycle with the sides turned; a gauntlet pairs
// the first entrant with each other; other formats are not scheduled.
func TestSchedule(t *testing.T) {
	rr := Schedule(RoundRobin, 4, 2)
	if len(rr) != 12 {
		t.Fatalf("%d pairings, want 12", len(rr))
	}
	first := map[[2]int]int{}
	busy := map[[2]int]bool{} // round, player
	for _, p := range rr {
		first[[2]int{p.First, p.Second}]++
		for _, x := range []int{p.First, p.Second} {
			if busy[[2]int{p.Round, x}] {
				t.Errorf("player %d twice in round %d", x, p.Round)
			}
			busy[[2]int{p.Round, x}] = true
		}
		if p.Round < 1 || p.Round > 6 {
			t.Errorf("round %d of 6", p.Round)
		}
	}
	for a := range 4 {
		for b := range 4 {
			if a != b && first[[2]int{a, b}] != 1 {
				t.Errorf("%d moved first against %d %d times, want once", a, b, first[[2]int{a, b}])
			}
		}
	}
	if odd := Schedule(RoundRobin, 3, 1); len(odd) != 3 || odd[2].Round != 3 {
		t.Errorf("3 players: %+v, want one game a round over 3 rounds", odd)
	}
	g := Schedule(Gauntlet, 4, 1)
	if len(g) != 3 || g[0].First != 0 || g[2].Second != 3 {
		t.Errorf("gauntlet: %+v", g)
	}
	if Schedule(Swiss, 4, 1) != nil {
		t.Error("a Swiss tournament scheduled ahead")
	}
}
