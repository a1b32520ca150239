package analysis

import (
	"math"

	"arbiter/engine"
	"arbiter/rules"
)

// Curve turns an evaluation into an expected score: 1/(1+exp(-K·e)) for
// the side the evaluation e favours when positive. K is per game, in the
// inverse of the game's unit (hundredths of a piece).
type Curve struct {
	K float64
}

// defaultK is the curve of a game that has no fit of its own: a lead of
// one piece (100) is worth about a 62% expected score.
const defaultK = 0.005

// CurveFor returns the fitted curve of the game named game, or the default
// for a game without a fit.
//
// Each game's K was fitted by maximum likelihood (FitK) on Arbiter's
// self-play with TestFitCurves; docs/explanation/analysis.md gives the
// command and the data.
func CurveFor(game string) Curve {
	switch game {
	case "hique":
		return Curve{K: 0.00733}
	case "upthrust":
		return Curve{K: 0.00217}
	case "hiya":
		return Curve{K: 0.00391}
	case "sixes":
		return Curve{K: 0.16980}
	case "breakthrough":
		return Curve{K: 0.00578}
	case "othello":
		return Curve{K: 0.01815}
	case "connect4":
		return Curve{K: 0.01440}
	}
	return Curve{K: defaultK}
}

// Expected returns p's expected score, 0 to 1, in a position that player
// 1's evaluation eval describes: a forced result counts 1 or 0, anything
// else goes through the logistic curve.
func (c Curve) Expected(eval int, p rules.Player) float64 {
	e := forP1(eval, p) // the same sign flip turns player 1's view into p's
	switch {
	case e > engine.MateBound:
		return 1
	case e < -engine.MateBound:
		return 0
	}
	return 1 / (1 + math.Exp(-c.K*float64(e)))
}

// moveAccuracy is a move's accuracy from its loss in percentage points,
// lichess's fit of accuracy to the drop in win percentage (with its one
// point of allowance for the engine's uncertainty), kept within 0-100.
func moveAccuracy(loss float64) float64 {
	if loss <= 0 {
		return maxAccuracyMove
	}
	a := 103.1668100711649*math.Exp(-0.04354415386753951*loss) - 3.166924740191411 + 1
	return min(maxAccuracyMove, max(0, a))
}

// gameAccuracy is a player's accuracy over a game: the mean of the
// arithmetic and the harmonic means of the moves' accuracies (the harmonic
// mean lets a few bad moves count, as lichess's does), 100 with no moves.
func gameAccuracy(accs []float64) float64 {
	if len(accs) == 0 {
		return 100
	}
	sum, inv := 0.0, 0.0
	for _, a := range accs {
		sum += a
		inv += 1 / max(a, 1)
	}
	mean := sum / float64(len(accs))
	harmonic := float64(len(accs)) / inv
	return math.Round((mean+harmonic)/2*10) / 10
}
