package tournament

import (
	"math/bits"
	"sort"
)

// Pairing is two entrants (indices into Config.Players) meeting in a
// round, First moving first; Second is -1 for a bye.
type Pairing struct {
	Round         int
	First, Second int
}

// Schedule returns every pairing of a round robin or gauntlet of players
// entrants over cycles cycles (the second cycle with the sides turned),
// round by round, as `arbiter tournament` plays them with one game a
// pairing. Other formats pair from results and are not scheduled ahead:
// Swiss rounds by PairSwiss, knockout rounds by KnockoutSlots and
// KnockoutRound.
func Schedule(format Format, players, cycles int) []Pairing {
	if format != RoundRobin && format != Gauntlet {
		return nil
	}
	s := newScheduler(Config{Format: format, Rounds: max(cycles, 1), Players: make([]Entrant, players)})
	var out []Pairing
	for _, p := range s.next(nil) {
		if p.b >= 0 {
			out = append(out, Pairing{Round: p.round, First: p.a, Second: p.b})
		}
	}
	return out
}

// SwissRounds is the default length of a Swiss tournament of players
// entrants: enough rounds, ceil(log2(players)), for one player to be left
// with a perfect score.
func SwissRounds(players int) int {
	if players < 2 {
		return 1
	}
	return bits.Len(uint(players - 1))
}

// SwissPlayer is one entrant's record so far, as PairSwiss reads it.
type SwissPlayer struct {
	Points float64
	Byes   int
	Met    []int // the entrants met so far (indices), one entry a game
	// Balance is the games moved first less the games moved second; Last
	// is the side of the last game: +1 first, -1 second, 0 none yet.
	Balance, Last int
}

// maxColourBalance is how far a player's games first and second may
// differ when a pairing can avoid it (FIDE's Swiss rules: at most 2).
const maxColourBalance = 2

// PairSwiss pairs round round of a Swiss tournament from the players'
// records. Players rank by points, ties by entry order (their seeding);
// each is paired with the nearest below not met yet, backtracking when
// that would leave someone without a partner, so no two players meet
// twice while another pairing avoids it. With an odd number one player
// has a bye: the lowest ranked who has had the fewest (so nobody has two
// byes before everyone has had one) and whose bye leaves the rest
// pairable without repeats. Sides are balanced: the player who has moved
// first less often moves first, on equal counts the one who moved second
// last time, then the higher ranked on odd boards (1st, 3rd...) and the
// lower on even ones; a pairing that would take either player's balance
// beyond ±2 is avoided when another is possible. Only when no pairing
// without a repeat exists are players paired down the ranking.
func PairSwiss(round int, players []SwissPlayer) []Pairing {
	n := len(players)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return players[order[x]].Points > players[order[y]].Points })
	met := map[[2]int]bool{}
	for i, p := range players {
		for _, o := range p.Met {
			met[key(i, o)] = true
		}
	}
	// byeFirst lists who may have the bye, best candidate first.
	var byeFirst []int
	if n%2 == 1 {
		fewest := players[order[0]].Byes
		for _, i := range order {
			fewest = min(fewest, players[i].Byes)
		}
		for k := n - 1; k >= 0; k-- {
			if players[order[k]].Byes == fewest {
				byeFirst = append(byeFirst, order[k])
			}
		}
	}
	allowed := []func(a, b int) bool{
		func(a, b int) bool { return !met[key(a, b)] && coloursFit(players[a], players[b]) },
		func(a, b int) bool { return !met[key(a, b)] },
	}
	for _, ok := range allowed {
		for k := 0; k < max(len(byeFirst), 1); k++ {
			rest, bye := order, -1
			if len(byeFirst) > 0 {
				bye = byeFirst[k]
				rest = without(order, bye)
			}
			if pairs, found := matchFrom(rest, ok); found {
				return swissPairings(round, players, pairs, bye)
			}
		}
	}
	// Everyone left has met: pair down the ranking.
	rest, bye := order, -1
	if len(byeFirst) > 0 {
		bye = byeFirst[0]
		rest = without(order, bye)
	}
	return swissPairings(round, players, rest, bye)
}

// coloursFit reports whether a and b can meet with both balances kept
// within maxColourBalance.
func coloursFit(a, b SwissPlayer) bool {
	fit := func(first, second SwissPlayer) bool {
		return first.Balance+1 <= maxColourBalance && second.Balance-1 >= -maxColourBalance
	}
	return fit(a, b) || fit(b, a)
}

// swissPairings turns pairs (higher ranked first in each) and the bye
// into a round's pairings, choosing the sides.
func swissPairings(round int, players []SwissPlayer, pairs []int, bye int) []Pairing {
	var out []Pairing
	for k := 0; k+1 < len(pairs); k += 2 {
		a, b := pairs[k], pairs[k+1]
		pa, pb := players[a], players[b]
		switch {
		case pa.Balance != pb.Balance:
			if pb.Balance < pa.Balance {
				a, b = b, a
			}
		case pa.Last != pb.Last:
			if pb.Last < pa.Last {
				a, b = b, a
			}
		case (k/2)%2 == 1:
			a, b = b, a
		}
		out = append(out, Pairing{Round: round, First: a, Second: b})
	}
	if bye >= 0 {
		out = append(out, Pairing{Round: round, First: bye, Second: -1})
	}
	return out
}

// without returns order less x, in a new slice.
func without(order []int, x int) []int {
	out := make([]int, 0, len(order))
	for _, y := range order {
		if y != x {
			out = append(out, y)
		}
	}
	return out
}

// matchFrom pairs the players in order, each with the nearest below whom
// ok allows, backtracking when that leaves someone without a partner.
func matchFrom(order []int, ok func(a, b int) bool) ([]int, bool) {
	if len(order) == 0 {
		return nil, true
	}
	a := order[0]
	for y := 1; y < len(order); y++ {
		if !ok(a, order[y]) {
			continue
		}
		rest := make([]int, 0, len(order)-2)
		rest = append(rest, order[1:y]...)
		rest = append(rest, order[y+1:]...)
		if pairs, found := matchFrom(rest, ok); found {
			return append([]int{a, order[y]}, pairs...), true
		}
	}
	return nil, false
}

// KnockoutSlots returns the first round of a knockout bracket for n
// entrants seeded 0 (the top seed) to n-1: a power of two of slots, the
// fewest that hold them all, slots 2i and 2i+1 meeting in the first
// round and their winners moving on in order (KnockoutRound). Seeds are
// placed as tennis and chess brackets place them: the top two can meet
// only in the final, the top four only in the semi-finals, and so on;
// the empty slots (-1), the byes, face the top seeds.
func KnockoutSlots(n int) []int {
	slots := []int{0}
	for len(slots) < n {
		size := 2 * len(slots)
		next := make([]int, 0, size)
		for _, s := range slots {
			next = append(next, s, size-1-s)
		}
		slots = next
	}
	for i, s := range slots {
		if s >= n {
			slots[i] = -1
		}
	}
	return slots
}

// KnockoutRound pairs a knockout round's slots (from KnockoutSlots, then
// the winners of the round before in the order of its pairings): slots
// 2i and 2i+1 meet, the higher seed (lower index) first; against an
// empty slot the other has a bye (Second -1).
func KnockoutRound(round int, slots []int) []Pairing {
	var out []Pairing
	for k := 0; k+1 < len(slots); k += 2 {
		a, b := slots[k], slots[k+1]
		if a < 0 || (b >= 0 && b < a) {
			a, b = b, a
		}
		out = append(out, Pairing{Round: round, First: a, Second: b})
	}
	return out
}

// KnockoutTie decides a knockout pairing of a (the higher seed) and b
// from their points in its games so far, after playoffs extra pairs of
// games: the one with more points goes through; when level, another pair
// of games is due (-1) until maxPlayoffs have been played, then the
// higher seed a goes through.
func KnockoutTie(a, b int, pa, pb float64, playoffs, maxPlayoffs int) int {
	switch {
	case pa > pb:
		return a
	case pb > pa:
		return b
	case playoffs < maxPlayoffs:
		return -1
	}
	return a
}

// Buchholz is Swiss's usual tie-break: for each player (by name), the
// sum of the final points of the opponents met in games (byes add
// nothing), so that a player who met stronger opposition ranks higher on
// equal points.
func Buchholz(players []Entrant, results []GameResult) map[string]float64 {
	points := map[string]float64{}
	for _, st := range Standings(players, results) {
		points[st.Player] = st.Points
	}
	out := make(map[string]float64, len(players))
	for _, p := range players {
		out[p.Name] = 0
	}
	for _, r := range results {
		if r.Bye {
			continue
		}
		if _, ok := out[r.First]; ok {
			out[r.First] += points[r.Second]
		}
		if _, ok := out[r.Second]; ok {
			out[r.Second] += points[r.First]
		}
	}
	return out
}
