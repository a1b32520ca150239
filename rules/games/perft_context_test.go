package games_test

import (
	"context"
	"errors"
	"testing"

	"arbiter/rules"
	"arbiter/rules/games"
)

// cancelAfter is a context whose Err reports context.Canceled from its
// n-th call on: a cancellation in the middle of a walk, at a known point.
type cancelAfter struct {
	context.Context
	n, calls int
}

func (c *cancelAfter) Err() error {
	c.calls++
	if c.calls >= c.n {
		return context.Canceled
	}
	return nil
}

// perftLeaves bounds the walks TestPerftContext compares: it goes as deep
// as 4 plies, and past 2 only while the last depth had at most this many
// leaves, so games with hundreds of first moves (Gomoku, Pentago) are
// checked at a bounded cost.
const perftLeaves = 5_000

// TestPerftContext: for every game, PerftContext and DivideContext count
// what Perft and Divide count; a context that ends mid-walk stops a perft
// that would take far longer than any test, with the context's error and
// the game left as it was.
func TestPerftContext(t *testing.T) {
	reg := games.Registry()
	for _, d := range reg.Definitions() {
		t.Run(d.Name, func(t *testing.T) {
			g, err := reg.Replay(d.Name, rules.Options{"colours": "gb"}, nil)
			if err != nil {
				g, err = reg.Replay(d.Name, nil, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			deepest, last := 0, uint64(0)
			for depth := 0; depth <= 4 && (depth <= 2 || last <= perftLeaves); depth++ {
				want := rules.Perft(g, depth)
				deepest, last = depth, want
				n, err := rules.PerftContext(context.Background(), g, depth)
				if err != nil || n != want {
					t.Errorf("depth %d: PerftContext = %d, %v; Perft = %d", depth, n, err, want)
				}
			}
			moves, counts, err := rules.DivideContext(context.Background(), g, deepest)
			wantMoves, wantCounts := rules.Divide(g, deepest)
			if err != nil || len(moves) != len(wantMoves) || len(counts) != len(wantCounts) {
				t.Fatalf("DivideContext: %d moves, %v; Divide: %d", len(moves), err, len(wantMoves))
			}
			for i := range counts {
				if moves[i] != wantMoves[i] || counts[i] != wantCounts[i] {
					t.Errorf("move %d: %v %d, want %v %d", i, moves[i], counts[i], wantMoves[i], wantCounts[i])
				}
			}
			before, ply := g.Hash(), g.Ply()
			ctx := &cancelAfter{Context: context.Background(), n: 50}
			if n, err := rules.PerftContext(ctx, g, 40); !errors.Is(err, context.Canceled) || n != 0 {
				t.Errorf("cancelled depth 40: %d, %v", n, err)
			}
			if _, _, err := rules.DivideContext(&cancelAfter{Context: context.Background(), n: 50}, g, 40); !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled divide at depth 40: %v", err)
			}
			if g.Hash() != before || g.Ply() != ply {
				t.Errorf("the walk left the game changed")
			}
		})
	}
}
