package tournament

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"arbiter/rules/games"
)

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

// swissRun plays rounds Swiss rounds of n players through PairSwiss, the
// results drawn from rng (a draw now and then), and checks every round's
// pairings: each player once a round, no pairing met before, a bye only
// to a player with the fewest byes so far and worth a win, sides within
// ±2, and no pairing met before when some pairing avoids it (pairable). It returns the players' records at the end.
func swissRun(t *testing.T, n, rounds int, rng *rand.Rand) []SwissPlayer {
	t.Helper()
	players := make([]SwissPlayer, n)
	for round := 1; round <= rounds; round++ {
		fewest := players[0].Byes
		for _, p := range players {
			fewest = min(fewest, p.Byes)
		}
		seen := map[int]bool{}
		avoidable := pairable(players, fewest)
		pairs := PairSwiss(round, players)
		for _, p := range pairs {
			for _, x := range []int{p.First, p.Second} {
				if x >= 0 && seen[x] {
					t.Fatalf("n=%d round %d: player %d twice in %+v", n, round, x, pairs)
				}
				seen[x] = true
			}
			if p.Round != round {
				t.Fatalf("pairing %+v in round %d", p, round)
			}
			if p.Second < 0 {
				if players[p.First].Byes != fewest {
					t.Fatalf("n=%d round %d: a bye to %d, who had %d byes, while someone had %d", n, round, p.First, players[p.First].Byes, fewest)
				}
				players[p.First].Byes++
				players[p.First].Points++
				continue
			}
			if slices.Contains(players[p.First].Met, p.Second) && avoidable {
				t.Fatalf("n=%d round %d: %d and %d meet again", n, round, p.First, p.Second)
			}
			a, b := &players[p.First], &players[p.Second]
			a.Met, b.Met = append(a.Met, p.Second), append(b.Met, p.First)
			a.Balance, a.Last = a.Balance+1, 1
			b.Balance, b.Last = b.Balance-1, -1
			switch rng.IntN(5) {
			case 0:
				a.Points, b.Points = a.Points+0.5, b.Points+0.5
			case 1, 2:
				a.Points++
			default:
				b.Points++
			}
			for _, x := range []*SwissPlayer{a, b} {
				if x.Balance > maxColourBalance || x.Balance < -maxColourBalance {
					t.Fatalf("n=%d round %d: a side balance of %d", n, round, x.Balance)
				}
			}
		}
		if len(seen) != n+n%2 {
			t.Fatalf("n=%d round %d: %d seats for %d players: %+v", n, round, len(seen), n, pairs)
		}
	}
	return players
}

// TestPairSwissRules: over many random Swiss tournaments of 3 to 12
// players and the default number of rounds plus one, nobody meets anyone
// twice while a pairing without repeats exists, nobody has a second bye
// and sides never differ by more than 2.
func TestPairSwissRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 3; n <= 12; n++ {
		for range 60 {
			rounds := SwissRounds(n) + 1
			end := swissRun(t, n, rounds, rng)
			for i, p := range end {
				if p.Byes > 1 {
					t.Fatalf("n=%d: player %d had %d byes", n, i, p.Byes)
				}
			}
		}
	}
}

// TestPairSwissCases: the rules one at a time, on records made for each.
func TestPairSwissCases(t *testing.T) {
	t.Run("by points", func(t *testing.T) {
		// 2 and 3 lead: they meet; 0 and 1 meet.
		got := PairSwiss(2, []SwissPlayer{{Points: 0, Met: []int{2}, Balance: 1, Last: 1}, {Points: 0, Met: []int{3}, Balance: -1, Last: -1},
			{Points: 1, Met: []int{0}, Balance: -1, Last: -1}, {Points: 1, Met: []int{1}, Balance: 1, Last: 1}})
		if !sameMeetings(got, [][2]int{{2, 3}, {0, 1}}) {
			t.Errorf("pairings %+v, want 2-3 and 0-1", got)
		}
	})
	t.Run("no repeat", func(t *testing.T) {
		// 0 and 1 lead and have met: 0 meets 2, 1 meets 3.
		got := PairSwiss(2, []SwissPlayer{{Points: 1, Met: []int{1}}, {Points: 1, Met: []int{0}}, {Points: 0, Met: []int{3}}, {Points: 0, Met: []int{2}}})
		if !sameMeetings(got, [][2]int{{0, 2}, {1, 3}}) {
			t.Errorf("pairings %+v, want 0-2 and 1-3", got)
		}
	})
	t.Run("backtrack", func(t *testing.T) {
		// 0 met 1 and 1 met 3: 0 with the nearest not met, 2, leaves 1-3,
		// a repeat; the search goes back and pairs 0-3 and 1-2.
		got := PairSwiss(3, []SwissPlayer{{Points: 2, Met: []int{1}}, {Points: 2, Met: []int{0, 3}}, {Points: 1}, {Points: 0, Met: []int{1}}})
		if !sameMeetings(got, [][2]int{{0, 3}, {1, 2}}) {
			t.Errorf("pairings %+v, want 0-3 and 1-2", got)
		}
	})
	t.Run("bye to the lowest without one", func(t *testing.T) {
		// 2 is last but had a bye: 1 has it.
		got := PairSwiss(2, []SwissPlayer{{Points: 1, Met: []int{1}}, {Points: 0.5, Met: []int{0}}, {Points: 0, Byes: 1}})
		if !sameMeetings(got, [][2]int{{0, 2}, {1, -1}}) {
			t.Errorf("pairings %+v, want 0-2 and a bye to 1", got)
		}
	})
	t.Run("bye that leaves no repeat", func(t *testing.T) {
		// 4 is lowest, but 0 has met 1, 2 and 3: with 4 out, 0 meets
		// someone again; 4 plays 0 and the next lowest, 3, has the bye.
		got := PairSwiss(4, []SwissPlayer{{Points: 3, Met: []int{1, 2, 3}}, {Points: 1, Met: []int{0}}, {Points: 1, Met: []int{0}},
			{Points: 1, Met: []int{0}}, {Points: 0}})
		if sameMeetings(got, [][2]int{{0, 4}, {1, 2}, {3, -1}}) {
			return
		}
		t.Errorf("pairings %+v: the lowest took the bye and forced a repeat", got)
	})
	t.Run("sides", func(t *testing.T) {
		// 1 moved first less often: 1 moves first though ranked lower.
		got := PairSwiss(2, []SwissPlayer{{Points: 1, Balance: 1, Last: 1, Met: []int{2}}, {Points: 1, Balance: -1, Last: -1, Met: []int{3}}, {Met: []int{0}}, {Met: []int{1}}})
		if got[0] != (Pairing{Round: 2, First: 1, Second: 0}) {
			t.Errorf("pairing %+v, want 1 first against 0", got[0])
		}
		// Round 1: the higher ranked moves first on board 1, second on board 2.
		got = PairSwiss(1, make([]SwissPlayer, 4))
		if got[0] != (Pairing{1, 0, 1}) || got[1] != (Pairing{1, 3, 2}) {
			t.Errorf("round 1: %+v, want 0-1 and 3-2", got)
		}
		// Both at +2 cannot meet when another pairing exists.
		got = PairSwiss(5, []SwissPlayer{{Points: 3, Balance: 2}, {Points: 3, Balance: 2}, {Points: 2, Balance: -2}, {Points: 2, Balance: -2}})
		if !sameMeetings(got, [][2]int{{0, 2}, {1, 3}}) || got[0].First != 2 {
			t.Errorf("pairings %+v, want 2 first against 0, 3 first against 1", got)
		}
	})
}

// sameMeetings reports whether pairings hold exactly the meetings want
// (either side first; -1 a bye).
func sameMeetings(pairings []Pairing, want [][2]int) bool {
	if len(pairings) != len(want) {
		return false
	}
	for _, w := range want {
		if !slices.ContainsFunc(pairings, func(p Pairing) bool {
			return p.First == w[0] && p.Second == w[1] || p.First == w[1] && p.Second == w[0]
		}) {
			return false
		}
	}
	return true
}

func TestSwissRounds(t *testing.T) {
	for n, want := range map[int]int{2: 1, 3: 2, 4: 2, 5: 3, 8: 3, 9: 4, 16: 4, 17: 5} {
		if got := SwissRounds(n); got != want {
			t.Errorf("SwissRounds(%d) = %d, want %d", n, got, want)
		}
	}
}

// TestSwissDefaultRounds: a command-line Swiss tournament without
// --rounds plays as many rounds as one made with Discord's /tournament
// create without rounds: SwissRounds of its players.
func TestSwissDefaultRounds(t *testing.T) {
	for _, n := range []int{2, 3, 5, 8, 9} {
		players := make([]Entrant, n)
		for i := range players {
			players[i] = Entrant{Name: fmt.Sprintf("p%d", i), Spec: "random"}
		}
		r, err := newRunner(Config{Registry: games.Registry(), Game: "sixes", Players: players, Format: Swiss})
		if err != nil {
			t.Fatal(err)
		}
		if r.cfg.Rounds != SwissRounds(n) {
			t.Errorf("%d players: %d rounds, want SwissRounds = %d", n, r.cfg.Rounds, SwissRounds(n))
		}
	}
}

// TestKnockoutSlots: every seed once in a power of two of slots, the
// byes facing the top seeds, the top two in different halves, the top
// four in different quarters, and the standard order for 8.
func TestKnockoutSlots(t *testing.T) {
	if got := KnockoutSlots(8); !slices.Equal(got, []int{0, 7, 3, 4, 1, 6, 2, 5}) {
		t.Errorf("8 players: %v", got)
	}
	if got := KnockoutSlots(6); !slices.Equal(got, []int{0, -1, 3, 4, 1, -1, 2, 5}) {
		t.Errorf("6 players: %v, want byes for seeds 0 and 1", got)
	}
	for n := 2; n <= 40; n++ {
		slots := KnockoutSlots(n)
		size := len(slots)
		if size&(size-1) != 0 || size < n || size >= 2*n {
			t.Fatalf("n=%d: %d slots", n, size)
		}
		seen := map[int]int{}
		for i, s := range slots {
			seen[s]++
			if s < 0 && (slots[i^1] < 0 || slots[i^1] >= size-n) {
				t.Errorf("n=%d: a bye against seed %d, not one of the top %d", n, slots[i^1], size-n)
			}
		}
		if seen[-1] != size-n || len(seen) != n+min(1, size-n) {
			t.Errorf("n=%d: slots %v", n, slots)
		}
		half := func(seed int, parts int) int { return slices.Index(slots, seed) * parts / size }
		if n >= 2 && half(0, 2) == half(1, 2) {
			t.Errorf("n=%d: seeds 0 and 1 in one half: %v", n, slots)
		}
		if n >= 4 {
			q := map[int]bool{half(0, 4): true, half(1, 4): true, half(2, 4): true, half(3, 4): true}
			if len(q) != 4 {
				t.Errorf("n=%d: the top four not in four quarters: %v", n, slots)
			}
		}
	}
}

func TestKnockoutRoundAndTie(t *testing.T) {
	got := KnockoutRound(1, KnockoutSlots(6))
	want := []Pairing{{1, 0, -1}, {1, 3, 4}, {1, 1, -1}, {1, 2, 5}}
	if !slices.Equal(got, want) {
		t.Errorf("round 1 of 6: %+v, want %+v", got, want)
	}
	// Later rounds: the higher seed first, wherever its slot.
	if got := KnockoutRound(2, []int{4, 1}); got[0] != (Pairing{2, 1, 4}) {
		t.Errorf("round 2: %+v", got)
	}
	for _, tt := range []struct {
		pa, pb         float64
		playoffs, most int
		want           int
	}{
		{2, 0, 0, 1, 3}, {0.5, 1.5, 0, 1, 7}, {1, 1, 0, 1, -1}, {1, 1, 1, 1, 3}, {1.5, 1.5, 2, 3, -1}, {1, 1, 3, 3, 3},
	} {
		if got := KnockoutTie(3, 7, tt.pa, tt.pb, tt.playoffs, tt.most); got != tt.want {
			t.Errorf("KnockoutTie(3, 7, %v, %v, %d, %d) = %d, want %d", tt.pa, tt.pb, tt.playoffs, tt.most, got, tt.want)
		}
	}
}

// pairable reports whether players can be paired without a repeat, a
// bye (for an odd number) going to one with fewest byes: every way is
// tried.
func pairable(players []SwissPlayer, fewest int) bool {
	free := make([]bool, len(players))
	for i := range free {
		free[i] = true
	}
	var try func(byeDue bool) bool
	try = func(byeDue bool) bool {
		a := slices.Index(free, true)
		if a < 0 {
			return true
		}
		free[a] = false
		defer func() { free[a] = true }()
		if byeDue && players[a].Byes == fewest && try(false) {
			return true
		}
		for b := a + 1; b < len(players); b++ {
			if free[b] && !slices.Contains(players[a].Met, b) {
				free[b] = false
				ok := try(byeDue)
				free[b] = true
				if ok {
					return true
				}
			}
		}
		return false
	}
	return try(len(players)%2 == 1)
}

// TestBuchholz: opponents' points summed, byes adding nothing.
func TestBuchholz(t *testing.T) {
	players := []Entrant{{Name: "a"}, {Name: "b"}, {Name: "c"}}
	results := []GameResult{
		{Round: 1, First: "a", Second: "b", Result: "p1"},
		{Round: 1, First: "c", Bye: true, ByePoints: 1, Result: "bye"},
		{Round: 2, First: "c", Second: "a", Result: "draw"},
		{Round: 2, First: "b", Bye: true, ByePoints: 1, Result: "bye"},
	}
	// Points: a 1.5, b 1, c 1.5.
	got := Buchholz(players, results)
	want := map[string]float64{"a": 1 + 1.5, "b": 1.5, "c": 1.5}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("Buchholz of %s = %v, want %v (all: %v)", k, got[k], v, got)
		}
	}
}
