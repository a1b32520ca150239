package analysis

import (
	"errors"
	"math"
)

// Sample is one position of a finished game for fitting a curve: the
// engine's evaluation for the side to move (no forced result) and the score
// that side made in the end (1 a win, 1/2 a draw, 0 a loss).
type Sample struct {
	Eval  int
	Score float64
}

// FitK returns the K of the logistic curve 1/(1+exp(-K·e)) that makes the
// samples' scores most likely (maximum likelihood, by Newton's method on
// the log-likelihood, which is concave in K). It needs samples with a
// non-zero evaluation and with both wins and losses among them.
func FitK(samples []Sample) (float64, error) {
	var won, lost bool
	for _, s := range samples {
		if s.Eval != 0 {
			won = won || s.Score > 0.5
			lost = lost || s.Score < 0.5
		}
	}
	if !won || !lost {
		return 0, errors.New("fit: the samples need evaluated positions that were won and lost in the end")
	}
	k := 0.005
	for range 100 {
		grad, hess := 0.0, 0.0
		for _, s := range samples {
			e := float64(s.Eval)
			p := 1 / (1 + math.Exp(-k*e))
			grad += (s.Score - p) * e
			hess -= p * (1 - p) * e * e
		}
		if hess == 0 {
			break
		}
		step := grad / hess
		next := k - step
		if next <= 0 {
			next = k / 2 // stay on the side of the curves that rise
		}
		if math.Abs(next-k) < 1e-9 {
			k = next
			break
		}
		k = next
	}
	return k, nil
}
