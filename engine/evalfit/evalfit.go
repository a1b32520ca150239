// Package evalfit fits an evaluation's weights to the results of played
// games by Texel's method: each quiet position of a game is a sample of
// weighed features and of the game's result for the player to move, and the
// fit moves each weight while the mean squared error between the results
// and the logistic of the weighed sum falls.
//
// A game's tests use it on games written by `arbiter match --records`; the
// fitted weights are then tried in play (a match with --sprt) before they
// replace the game's own.
package evalfit

import (
	"math"

	"arbiter/rules"
)

// Sample is one position: its features, each as the evaluation weighs them
// for the player to move, and the game's result for that player (1 won,
// 0 lost).
type Sample struct {
	Features []float64
	Result   float64
}

// Loss is the mean squared error between the samples' results and the
// results the weights predict: the logistic of k·(w·features)/400.
func Loss(samples []Sample, w []float64, k float64) float64 {
	if len(samples) == 0 {
		return 0
	}
	sum := 0.0
	for _, s := range samples {
		e := 0.0
		for i, f := range s.Features {
			e += w[i] * f
		}
		d := s.Result - 1/(1+math.Exp(-k*e/400))
		sum += d * d
	}
	return sum / float64(len(samples))
}

// Scale returns the k in (0, 5) that gives the weights w their least loss
// on the samples, to a twentieth, and that loss.
func Scale(samples []Sample, w []float64) (k, loss float64) {
	k, loss = 0, math.Inf(1)
	for try := 0.05; try < 5; try += 0.05 {
		if l := Loss(samples, w, try); l < loss {
			k, loss = try, l
		}
	}
	return k, loss
}

// Fit moves each weight of w by its step, up or down, while the loss at
// scale k falls, over and over until no step lowers it, and returns the
// weights and their loss. A step of 0 holds its weight. w is not changed.
func Fit(samples []Sample, w, steps []float64, k float64) (fitted []float64, loss float64) {
	fitted = append([]float64(nil), w...)
	loss = Loss(samples, fitted, k)
	next := make([]float64, len(w))
	for improved := true; improved; {
		improved = false
		for i := range fitted {
			for _, sign := range []float64{1, -1} {
				for steps[i] != 0 {
					copy(next, fitted)
					next[i] += sign * steps[i]
					l := Loss(samples, next, k)
					if l >= loss-1e-7 {
						break
					}
					copy(fitted, next)
					loss, improved = l, true
				}
			}
		}
	}
	return fitted, loss
}

// Samples replays moves from g's position and returns a sample of each
// position from ply skip on where the player to move played a quiet move
// (not rules.Game.Tactical) and features accepts the position, with the
// result 1 where that player is winner. g is left after the last move.
// features is called with g at the position and returns its features and
// whether to keep it (a position won or lost outright says nothing of the
// weights).
func Samples(g rules.Game, moves []rules.Move, winner rules.Player, skip int, features func(rules.Game) ([]float64, bool)) []Sample {
	var out []Sample
	for _, m := range moves {
		if g.Ply() >= skip && !g.Tactical(m) {
			if f, ok := features(g); ok {
				s := Sample{Features: f}
				if g.ToMove() == winner {
					s.Result = 1
				}
				out = append(out, s)
			}
		}
		g.Play(m)
	}
	return out
}

// TermFeatures returns the features of c's Terms for the player to move:
// each term's count for that player, then for the opponent, in the order
// of the terms.
func TermFeatures(c rules.Counter, toMove rules.Player) []float64 {
	terms := c.Terms()
	f := make([]float64, 0, 2*len(terms))
	for _, t := range terms {
		f = append(f, float64(t.Count[toMove]), float64(t.Count[toMove.Other()]))
	}
	return f
}
