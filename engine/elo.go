package engine

import "math"

// Elo returns the Elo difference that a match of wins, draws and losses
// stands for (from the score fraction s: -400·log10(1/s-1)) and the
// half-width of its 95% interval (from the spread of the per-game scores;
// when every game had the same result, from a binomial at the score). A
// perfect score would be infinite: it is counted as n-1/2 points of n (or
// 1/2), so the figure is a bound.
func Elo(wins, draws, losses int) (elo, errorMargin float64) {
	n := float64(wins + draws + losses)
	if n == 0 {
		return 0, 0
	}
	s := (float64(wins) + float64(draws)/2) / n
	eps := 1 / (2 * n)
	clamped := math.Min(math.Max(s, eps), 1-eps)
	var variance float64
	if (wins == 0 && draws == 0) || (losses == 0 && draws == 0) || (wins == 0 && losses == 0) {
		// Every game the same: the spread of a binomial at the clamped score.
		variance = clamped * (1 - clamped)
	} else {
		variance = (float64(wins)*(1-s)*(1-s) + float64(draws)*(0.5-s)*(0.5-s) + float64(losses)*s*s) / n
	}
	sd := math.Sqrt(variance / n)
	lo := math.Min(math.Max(clamped-1.96*sd, eps), 1-eps)
	hi := math.Min(math.Max(clamped+1.96*sd, eps), 1-eps)
	return eloOf(clamped), (eloOf(hi) - eloOf(lo)) / 2
}

// eloOf is the Elo difference at which the expected score is s.
func eloOf(s float64) float64 {
	return -400 * math.Log10(1/s-1)
}
