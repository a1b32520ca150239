package tournament

import (
	"fmt"
	"sort"
)

// Format is how players are paired.
type Format string

// The formats.
const (
	// RoundRobin pairs everyone with everyone, Rounds times.
	RoundRobin Format = "roundrobin"
	// Gauntlet pairs the first player with every other, Rounds times.
	Gauntlet Format = "gauntlet"
	// Swiss plays Rounds rounds, each pairing players with equal or near
	// points who have not met, the lowest without a partner taking a bye.
	Swiss Format = "swiss"
	// Knockout pairs by entry order (1st with last), the loser of each
	// pairing leaving; a tie after the pairing's games is played off by
	// up to three more pairs of games, then the higher seed goes through.
	Knockout Format = "knockout"
)

// ParseFormat reads a format's name.
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case RoundRobin, Gauntlet, Swiss, Knockout:
		return f, nil
	}
	return "", fmt.Errorf("unknown format %q: roundrobin, gauntlet, swiss or knockout", s)
}

// pairing is two players (indices into Config.Players) meeting in a round;
// b is -1 for a bye.
type pairing struct {
	round int
	a, b  int
	extra int // knockout play-off pairs already added (0 for the first games)
}

// roundRobin returns the pairings of one cycle by the circle method, round
// after round, numbering rounds from first.
func roundRobin(n, first int) []pairing {
	ids := make([]int, 0, n+1)
	for i := range n {
		ids = append(ids, i)
	}
	if n%2 == 1 {
		ids = append(ids, -1)
	}
	m := len(ids)
	var out []pairing
	for r := 0; r < m-1; r++ {
		for k := 0; k < m/2; k++ {
			a, b := ids[k], ids[m-1-k]
			if a == -1 || b == -1 {
				continue // the odd one out rests this round
			}
			if r%2 == 1 && k == 0 {
				a, b = b, a
			}
			out = append(out, pairing{round: first + r, a: a, b: b})
		}
		// Rotate all but the first.
		last := ids[m-1]
		copy(ids[2:], ids[1:m-1])
		ids[1] = last
	}
	return out
}

// swissRound pairs players by points (ties by entry order), each with the
// next one below whom they have not met; with an odd number the lowest
// without a bye so far sits out.
func swissRound(n, round int, points []float64, met map[[2]int]bool, byes []int) []pairing {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return points[order[x]] > points[order[y]] })
	var out []pairing
	if n%2 == 1 {
		pick := len(order) - 1
		for k := len(order) - 1; k >= 0; k-- {
			if byes[order[k]] == 0 {
				pick = k
				break
			}
		}
		out = append(out, pairing{round: round, a: order[pick], b: -1})
		order = append(order[:pick:pick], order[pick+1:]...)
	}
	if pairs, ok := matchUnmet(order, met); ok {
		for k := 0; k < len(pairs); k += 2 {
			out = append(out, pairing{round: round, a: pairs[k], b: pairs[k+1]})
		}
		return out
	}
	// Everyone has met everyone left: pair down the order.
	for k := 0; k+1 < len(order); k += 2 {
		out = append(out, pairing{round: round, a: order[k], b: order[k+1]})
	}
	return out
}

// matchUnmet pairs the players in order, each with the nearest below not
// met yet, backtracking when that leaves someone without a partner.
func matchUnmet(order []int, met map[[2]int]bool) ([]int, bool) {
	if len(order) == 0 {
		return nil, true
	}
	a := order[0]
	for y := 1; y < len(order); y++ {
		if met[key(a, order[y])] {
			continue
		}
		rest := make([]int, 0, len(order)-2)
		rest = append(rest, order[1:y]...)
		rest = append(rest, order[y+1:]...)
		if pairs, ok := matchUnmet(rest, met); ok {
			return append([]int{a, order[y]}, pairs...), true
		}
	}
	return nil, false
}

// key names a meeting of two players whatever their order.
func key(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}
