package commands

import "math"

// Rating is a Glicko-2 rating on the familiar Glicko scale (1500 for a
// newcomer), with its deviation and volatility.
type Rating struct {
	Rating     float64
	Deviation  float64
	Volatility float64
}

// NewRating is the rating of a player who has not played: 1500, deviation
// 350, volatility 0.06 (Glickman's suggested start).
func NewRating() Rating { return Rating{Rating: 1500, Deviation: 350, Volatility: 0.06} }

// GameScore is one game of a rating period: the opponent's rating before
// the period and the score against them (1 win, 0.5 draw, 0 loss).
type GameScore struct {
	Opponent Rating
	Score    float64
}

// glickoScale converts between the Glicko and Glicko-2 scales.
const glickoScale = 173.7178

// glickoTau constrains the change in volatility over time; Glickman suggests
// 0.3 to 1.2.
const glickoTau = 0.5

// Update returns r after a rating period with the given games, following
// Glickman's "Example of the Glicko-2 system" (2013) step by step. With no
// games only the deviation grows.
func (r Rating) Update(games []GameScore) Rating {
	// Step 2: to the Glicko-2 scale.
	mu := (r.Rating - 1500) / glickoScale
	phi := r.Deviation / glickoScale
	sigma := r.Volatility
	if len(games) == 0 {
		phiStar := math.Sqrt(phi*phi + sigma*sigma)
		return Rating{Rating: r.Rating, Deviation: phiStar * glickoScale, Volatility: sigma}
	}
	// Steps 3 and 4: the estimated variance v and the improvement delta.
	var vInv, deltaSum float64
	for _, g := range games {
		muJ := (g.Opponent.Rating - 1500) / glickoScale
		phiJ := g.Opponent.Deviation / glickoScale
		gPhi := 1 / math.Sqrt(1+3*phiJ*phiJ/(math.Pi*math.Pi))
		e := 1 / (1 + math.Exp(-gPhi*(mu-muJ)))
		vInv += gPhi * gPhi * e * (1 - e)
		deltaSum += gPhi * (g.Score - e)
	}
	v := 1 / vInv
	delta := v * deltaSum
	// Step 5: the new volatility, by the Illinois algorithm.
	sigmaNew := newVolatility(delta, phi, v, sigma)
	// Steps 6 and 7: the new deviation and rating.
	phiStar := math.Sqrt(phi*phi + sigmaNew*sigmaNew)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*deltaSum
	// Step 8: back to the Glicko scale.
	return Rating{Rating: muNew*glickoScale + 1500, Deviation: phiNew * glickoScale, Volatility: sigmaNew}
}

// newVolatility is step 5 of Glickman's example.
func newVolatility(delta, phi, v, sigma float64) float64 {
	const epsilon = 0.000001
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(glickoTau*glickoTau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*glickoTau) < 0 {
			k++
		}
		B = a - k*glickoTau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
