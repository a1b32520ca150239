package tournament

import "fmt"

// Format is how players are paired.
type Format string

// The formats.
const (
	// RoundRobin pairs everyone with everyone, Rounds times.
	RoundRobin Format = "roundrobin"
	// Gauntlet pairs the first player with every other, Rounds times.
	Gauntlet Format = "gauntlet"
	// Swiss plays Rounds rounds, each pairing players with equal or near
	// points who have not met, the lowest without a partner taking a bye
	// (PairSwiss).
	Swiss Format = "swiss"
	// Knockout plays a bracket seeded by entry order (KnockoutSlots), the
	// top seeds having the byes when the players are not a power of two,
	// the loser of each pairing leaving; a tie after the pairing's games
	// is played off by up to three more pairs of games, then the higher
	// seed goes through (KnockoutTie).
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

// key names a meeting of two players whatever their order.
func key(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}
