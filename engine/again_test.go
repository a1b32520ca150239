package engine

import (
	"context"
	"math/rand/v2"
	"testing"

	"arbiter/rules"
	"arbiter/rules/games"
)

// exactScoreAgain is exactScore for games in which a move may give its
// mover the next move too.
func exactScoreAgain(g rules.Game, ply int) int {
	if r := g.Status(); r != rules.Ongoing {
		w, ok := r.Winner()
		switch {
		case !ok:
			return 0
		case w == g.ToMove():
			return Mate - ply
		}
		return -(Mate - ply)
	}
	var list rules.MoveList
	g.Moves(&list)
	best := -inf
	me := g.ToMove()
	for _, m := range list.Slice() {
		g.Play(m)
		score := -exactScoreAgain(g, ply+1)
		if g.ToMove() == me {
			score = -score
		}
		best = max(best, score)
		g.Undo()
	}
	return best
}

// TestSearchMovesAgain checks the search in Dots and Boxes, where a move
// that completes a box gives its mover the next move: its score is
// minimax's, which does not negate across a move again.
func TestSearchMovesAgain(t *testing.T) {
	d, err := games.Registry().Lookup("dots")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	s := NewSearcher[rules.Game](NewTable(1), nil)
	var list rules.MoveList
	tested := 0
	for range 60 {
		g, err := d.New(rules.Options{"columns": "2", "rows": "2"})
		if err != nil {
			t.Fatal(err)
		}
		for range 6 {
			g.Moves(&list)
			g.Play(list.Moves[r.IntN(list.N)])
		}
		if g.Status() != rules.Ongoing {
			continue
		}
		tested++
		want := exactScoreAgain(g.Clone(), 0)
		info := s.Search(context.Background(), g, Limits{Depth: 8})
		if info.Score != want {
			t.Fatalf("position after %v: score %d, minimax %d", g.History(), info.Score, want)
		}
	}
	if tested < 20 {
		t.Fatalf("only %d positions tested", tested)
	}
}
