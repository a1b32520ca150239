package analysis

import (
	"context"
	"strings"
	"testing"

	"arbiter/engine"
	"arbiter/rules"
	"arbiter/rules/games"
)

// engineGame plays a game of name from its start with the engine at depth
// against itself, each move the engine's choice from a cleared engine (as
// the analysis searches), until the game ends or maxPlies.
func engineGame(t *testing.T, name string, opts map[string]string, depth, maxPlies int) (rules.Game, []rules.Move) {
	t.Helper()
	g, err := games.Registry().New(name, opts)
	if err != nil {
		t.Fatal(err)
	}
	start := g.Clone()
	eng := engine.NewEngine(8)
	var moves []rules.Move
	for len(moves) < maxPlies && g.Status() == rules.Ongoing {
		eng.Reset()
		info := eng.Search(context.Background(), g, engine.Limits{Depth: depth})
		if info.Move == rules.NoMove {
			break
		}
		moves = append(moves, info.Move)
		g.Play(info.Move)
	}
	return start, moves
}

// TestMoveIntoForcedLossIsABlunder: a move after which the engine finds a
// forced loss for the mover, from a position it did not find lost, is a
// blunder, even when the search before chose that very move (as in a
// review of Sixes that called "93. c4 c2", "+0.00 -> loss in 4", best):
// the position before is searched again knowing what the search after
// found. The games are the engine's own at the analysis's depth, so that
// every move played is the engine's choice.
func TestMoveIntoForcedLossIsABlunder(t *testing.T) {
	found := 0
	for _, c := range []struct {
		name string
		opts map[string]string
	}{{"sixes", nil}, {"hique", nil}, {"sixes", map[string]string{"turns": "60"}}} {
		const depth = 3
		start, moves := engineGame(t, c.name, c.opts, depth, 300)
		rep := analyseAt(t, start, moves, depth)
		for _, mr := range rep.Moves {
			lostBefore, lostAfter := lostFor(mr.EvalBefore, mr.Player), lostFor(mr.EvalAfter, mr.Player)
			if !lostAfter || lostBefore {
				continue
			}
			found++
			if mr.Class != Blunder && mr.Class != Forced {
				t.Errorf("%s move %d %s: %+d -> %+d (lost after, not before) is %q, want a blunder", c.name, mr.Ply, mr.Move, mr.EvalBefore, mr.EvalAfter, mr.Class)
			}
			if mr.Class == Blunder && !strings.Contains(mr.Why, "forced loss") {
				t.Errorf("%s move %d %s: the blunder is explained as %q", c.name, mr.Ply, mr.Move, mr.Why)
			}
		}
	}
	t.Logf("%d moves into a forced loss found", found)
}
