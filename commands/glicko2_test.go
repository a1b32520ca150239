package commands

import (
	"math"
	"testing"
)

// TestGlickoWorkedExample is the example in Glickman's "Example of the
// Glicko-2 system": a 1500 player (RD 200, volatility 0.06) beats a 1400
// (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300), with tau 0.5.
func TestGlickoWorkedExample(t *testing.T) {
	p := Rating{Rating: 1500, Deviation: 200, Volatility: 0.06}
	got := p.Update([]GameScore{
		{Opponent: Rating{Rating: 1400, Deviation: 30, Volatility: 0.06}, Score: 1},
		{Opponent: Rating{Rating: 1550, Deviation: 100, Volatility: 0.06}, Score: 0},
		{Opponent: Rating{Rating: 1700, Deviation: 300, Volatility: 0.06}, Score: 0},
	})
	check := func(name string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %.5f, want %.5f", name, got, want)
		}
	}
	check("rating", got.Rating, 1464.06, 0.01)
	check("deviation", got.Deviation, 151.52, 0.01)
	check("volatility", got.Volatility, 0.05999, 0.00001)
}

func TestGlickoNoGamesWidensDeviation(t *testing.T) {
	p := Rating{Rating: 1600, Deviation: 50, Volatility: 0.06}
	got := p.Update(nil)
	if got.Rating != 1600 || got.Deviation <= 50 || got.Volatility != 0.06 {
		t.Errorf("Update(nil) = %+v", got)
	}
}

func TestGlickoWinRaisesLossLowers(t *testing.T) {
	a, b := NewRating(), NewRating()
	win := a.Update([]GameScore{{Opponent: b, Score: 1}})
	loss := b.Update([]GameScore{{Opponent: a, Score: 0}})
	draw := a.Update([]GameScore{{Opponent: b, Score: 0.5}})
	if win.Rating <= 1500 || loss.Rating >= 1500 || math.Abs(draw.Rating-1500) > 1e-9 {
		t.Errorf("win %v loss %v draw %v", win.Rating, loss.Rating, draw.Rating)
	}
	if math.Abs((win.Rating-1500)-(1500-loss.Rating)) > 1e-6 {
		t.Errorf("win and loss are not symmetric: %v %v", win.Rating, loss.Rating)
	}
}
