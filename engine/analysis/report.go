package analysis

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"arbiter/engine"
	"arbiter/rules"
)

// jsonReport is the shape of `arbiter analyse --json`, a contract: player 1
// first, evaluations from player 1's side in the game's unit, the loss in
// percentage points of expected score.
type jsonReport struct {
	Game    string       `json:"game"`
	Players []jsonPlayer `json:"players"`
	Moves   []jsonMove   `json:"moves"`
}

type jsonPlayer struct {
	Name         string  `json:"name"`
	Accuracy     float64 `json:"accuracy"`
	Inaccuracies int     `json:"inaccuracies"`
	Mistakes     int     `json:"mistakes"`
	Blunders     int     `json:"blunders"`
}

type jsonMove struct {
	Ply        int     `json:"ply"`
	Move       string  `json:"move"`
	Best       string  `json:"best"`
	EvalBefore int     `json:"eval_before"`
	EvalAfter  int     `json:"eval_after"`
	Loss       float64 `json:"loss"`
	Class      Class   `json:"class"`
	Why        string  `json:"why,omitempty"` // in words, for an inaccuracy, a mistake or a blunder
}

// JSON returns the report as one JSON object, the output of `arbiter
// analyse --json`:
//
//	{"game":..., "players":[{"name":..., "accuracy":..., "inaccuracies":N,
//	"mistakes":N, "blunders":N}, {...}], "moves":[{"ply":N, "move":"...",
//	"best":"...", "eval_before":x, "eval_after":x, "loss":x, "class":"...",
//	"why":"..."}...]}
//
// "why" is there only for an inaccuracy, a mistake or a blunder.
//
// Accuracy and loss are rounded to tenths.
func (r *Report) JSON() ([]byte, error) {
	out := jsonReport{Game: r.Game, Moves: []jsonMove{}}
	for _, p := range r.Players {
		out.Players = append(out.Players, jsonPlayer{Name: p.Name, Accuracy: p.Accuracy,
			Inaccuracies: p.Counts[Inaccuracy], Mistakes: p.Counts[Mistake], Blunders: p.Counts[Blunder]})
	}
	for _, m := range r.Moves {
		out.Moves = append(out.Moves, jsonMove{Ply: m.Ply, Move: m.Move, Best: m.Best,
			EvalBefore: m.EvalBefore, EvalAfter: m.EvalAfter, Loss: tenths(m.Loss), Class: m.Class, Why: m.Why})
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	return b, nil
}

func tenths(x float64) float64 { return math.Round(x*10) / 10 }

// Worst returns up to n of p's moves classed inaccuracy or worse, the
// largest losses first (a move into a forced loss before all), earlier
// moves first among equals.
func (r *Report) Worst(p rules.Player, n int) []MoveReview {
	var out []MoveReview
	for _, m := range r.Moves {
		if m.Player == p && (m.Class == Inaccuracy || m.Class == Mistake || m.Class == Blunder) {
			out = append(out, m)
		}
	}
	rank := func(m MoveReview) float64 {
		if m.Class == Blunder {
			return m.Loss + 1000
		}
		return m.Loss
	}
	slices.SortStableFunc(out, func(a, b MoveReview) int {
		switch x, y := rank(a), rank(b); {
		case x > y:
			return -1
		case x < y:
			return 1
		}
		return 0
	})
	return out[:min(n, len(out))]
}

// Summary writes the report for people: a line per player with the
// accuracy and the counts, then every move on a line with its
// evaluations, the class, and for an inaccuracy or worse the engine's
// better move and why.
func (r *Report) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s analysed (%s a position) in %s\n", r.Game, r.Limits, r.Elapsed.Round(1e7))
	for _, p := range r.Players {
		b.WriteString(p.Line() + "\n")
	}
	b.WriteByte('\n')
	for _, m := range r.Moves {
		better := ""
		if m.Best != m.Move && m.Class != Best && m.Class != Forced {
			better = "  better " + m.Best
		}
		if m.Why != "" {
			better += ": " + m.Why
		}
		fmt.Fprintf(&b, "%4d. %-12s %10s -> %-10s %5.1f %-10s%s\n", m.Ply, m.Move,
			EvalString(m.EvalBefore, false), EvalString(m.EvalAfter, m.Ply == r.Moves[len(r.Moves)-1].Ply && r.Over), m.Loss, m.Class, better)
	}
	return b.String()
}

// EvalString writes an evaluation (player 1's side) for people: "+0.35",
// "win in 3" or "loss in 2" for player 1 as engine.ScoreString does, and
// "p1 won", "p2 won" or "drawn" for a finished game.
func EvalString(eval int, over bool) string {
	switch {
	case over && eval >= engine.Mate:
		return "p1 won"
	case over && eval <= -engine.Mate:
		return "p2 won"
	case over && eval == 0:
		return "drawn"
	}
	return engine.ScoreString(eval)
}

// Line writes the player's accuracy and counts on one line.
func (p PlayerReview) Line() string {
	return fmt.Sprintf("%s: accuracy %.1f, %d inaccuracies, %d mistakes, %d blunders (%d moves)",
		p.Name, p.Accuracy, p.Counts[Inaccuracy], p.Counts[Mistake], p.Counts[Blunder], p.Moves)
}
