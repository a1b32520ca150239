package engine

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// SPRT is a sequential probability ratio test of "player A is stronger than
// player B by Elo1" (H1) against "by Elo0" (H0), as cutechess-cli and
// fastchess run it: after each game the log-likelihood ratio of the results
// so far is compared with the bounds log(Beta/(1-Alpha)) (H0 accepted) and
// log((1-Beta)/Alpha) (H1 accepted).
//
// The ratio is the generalised SPRT (GSPRT) on the trinomial model (wins,
// draws, losses) with logistic Elo, in its normal approximation:
// LLR = N·(s1-s0)·(2s-s0-s1) / (2σ²), where s is the mean score, σ² the
// variance of a game's score, and s0, s1 the scores Elo0 and Elo1 stand for.
// So that a run of equal results (σ² = 0) does not decide at once, the
// counts are taken with half a win, half a draw and half a loss more.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// ParseSPRT reads "elo0=0 elo1=20 alpha=0.05 beta=0.05" (alpha and beta
// optional, 0.05 each; separated by spaces or commas).
func ParseSPRT(text string) (SPRT, error) {
	t := SPRT{Alpha: 0.05, Beta: 0.05}
	seen := map[string]bool{}
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' }) {
		k, v, ok := strings.Cut(f, "=")
		x, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return t, fmt.Errorf("sprt %q: write key=number, e.g. elo0=0 elo1=20 alpha=0.05 beta=0.05", f)
		}
		switch strings.ToLower(k) {
		case "elo0":
			t.Elo0 = x
		case "elo1":
			t.Elo1 = x
		case "alpha":
			t.Alpha = x
		case "beta":
			t.Beta = x
		default:
			return t, fmt.Errorf("sprt: unknown key %q (elo0, elo1, alpha, beta)", k)
		}
		seen[strings.ToLower(k)] = true
	}
	switch {
	case !seen["elo0"] || !seen["elo1"]:
		return t, fmt.Errorf("sprt %q: give elo0 and elo1", text)
	case t.Elo1 <= t.Elo0:
		return t, fmt.Errorf("sprt: elo1 (%g) must be above elo0 (%g)", t.Elo1, t.Elo0)
	case t.Alpha <= 0 || t.Alpha >= 0.5 || t.Beta <= 0 || t.Beta >= 0.5:
		return t, fmt.Errorf("sprt: alpha and beta must be between 0 and 0.5")
	}
	return t, nil
}

// Bounds returns the lower (H0) and upper (H1) bounds of the LLR.
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// LLR returns the log-likelihood ratio of H1 to H0 after the results.
func (t SPRT) LLR(wins, draws, losses int) float64 {
	w, d, l := float64(wins)+0.5, float64(draws)+0.5, float64(losses)+0.5
	n := w + d + l
	s := (w + d/2) / n
	variance := (w*(1-s)*(1-s) + d*(0.5-s)*(0.5-s) + l*s*s) / n
	s0, s1 := scoreOf(t.Elo0), scoreOf(t.Elo1)
	games := float64(wins + draws + losses)
	return games * (s1 - s0) * (2*s - s0 - s1) / (2 * variance)
}

// Decide returns +1 when H1 is accepted, -1 when H0 is, 0 while undecided.
func (t SPRT) Decide(wins, draws, losses int) int {
	llr := t.LLR(wins, draws, losses)
	lower, upper := t.Bounds()
	switch {
	case llr >= upper:
		return 1
	case llr <= lower:
		return -1
	}
	return 0
}

// scoreOf is the expected score at an Elo difference (logistic).
func scoreOf(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }
