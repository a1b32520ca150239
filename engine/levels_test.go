package engine

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"arbiter/rules"
	"arbiter/rules/games"
)

// TestLevelsAreMonotone keeps every game's ladder climbable: each level
// searches at least as deep and as many positions (0 is no cap, the most)
// and picks at random within no larger a margin than the level below it;
// level 5 is the full search, level 1 a capped, random one, and levels 1-4
// are capped by positions (the same at any move time). It checks each registered game's
// ladder and the default one (a game with no ladder of its own).
func TestLevelsAreMonotone(t *testing.T) {
	// A cap of 0 is none: the largest.
	deeper := func(d, below int) bool { return d == 0 || (below != 0 && d >= below) }
	wider := func(n, below uint64) bool { return n == 0 || (below != 0 && n >= below) }
	names := append(slices.Clone(games.Registry().Names()), "no such game")
	for _, game := range names {
		for l := Level(2); l <= 5; l++ {
			lo, hi := (l - 1).settings(game), l.settings(game)
			if !deeper(hi.depth, lo.depth) {
				t.Errorf("%s: level %d searches %d plies, level %d %d", game, l, hi.depth, l-1, lo.depth)
			}
			if !wider(hi.nodes, lo.nodes) {
				t.Errorf("%s: level %d visits at most %d positions, level %d %d", game, l, hi.nodes, l-1, lo.nodes)
			}
			if hi.margin > lo.margin {
				t.Errorf("%s: level %d picks within %d%% of the typical loss, level %d within %d%%", game, l, hi.margin, l-1, lo.margin)
			}
		}
		if top := Level(5).settings(game); top != (levelSettings{}) {
			t.Errorf("%s: level 5 is %+v, want the full search in the whole move time", game, top)
		}
		if low := Level(1).settings(game); low.margin == 0 || low.depth == 0 {
			t.Errorf("%s: level 1 is %+v, want a capped depth and a random margin", game, low)
		}
		for l := Level(1); l <= 4; l++ {
			if l.settings(game).nodes == 0 {
				t.Errorf("%s: level %d has no position cap, so it plays differently at each move time and on each machine", game, l)
			}
		}
		if Level(9).settings(game) != Level(5).settings(game) {
			t.Errorf("%s: an unknown level is not level 5", game)
		}
	}
}

// TestLevelsDifferByGame checks that a game's own ladder reaches the
// player: the limits a level searches with come from the game it is given.
func TestLevelsDifferByGame(t *testing.T) {
	a := NewArbiter(nil, 3, 1, nil)
	lim := Limits{MoveTime: 100 * time.Millisecond}
	for _, name := range games.Registry().Names() {
		g := startOf(t, name)
		set := Level(3).settings(name)
		got := a.Limits(g, lim)
		want := Limits{MoveTime: lim.MoveTime, Nodes: set.nodes, Depth: set.depth}
		if got != want {
			t.Errorf("%s: level 3 searches with %+v, want %+v", name, got, want)
		}
	}
	if ladderOf("hique") == ladderOf("no such game") {
		t.Error("hique has the default ladder: its own was measured to be needed (docs/explanation/levels.md)")
	}
}

// TestTypicalLossIgnoresForcedResults checks the spread a margin is a
// share of: the mean loss of the root moves against the best, leaving out
// forced wins and losses, and the same share whatever the game's scale.
func TestTypicalLossIgnoresForcedResults(t *testing.T) {
	scores := []rootScore{{Score: 30}, {Score: 10}, {Score: -20}, {Score: -Mate + 3}}
	if got := typicalLoss(scores, 30); got != (0+20+50)/3 {
		t.Errorf("typicalLoss = %d, want %d", got, (0+20+50)/3)
	}
	for i := range scores[:3] {
		scores[i].Score *= 10
	}
	if got := typicalLoss(scores, 300); got != (0+200+500)/3 {
		t.Errorf("typicalLoss scaled = %d, want %d", got, (0+200+500)/3)
	}
	if got := typicalLoss([]rootScore{{Score: Mate - 1}}, Mate-1); got != 0 {
		t.Errorf("typicalLoss of a forced win = %d, want 0", got)
	}
}

// TestCutFirstIterationStillScoresMoves checks that a search stopped
// inside its first iteration (a low level's node cap in a wide position)
// still gives the random choice the moves it scored, not none (which made
// the level play the first move generated).
func TestCutFirstIterationStillScoresMoves(t *testing.T) {
	for _, name := range games.Registry().Names() {
		g := startOf(t, name)
		// One node short of the whole first iteration: the last move is cut.
		full, _ := NewEngine(1).search(context.Background(), g, Limits{Depth: 1}, true)
		info, scores := NewEngine(1).search(context.Background(), g, Limits{Nodes: full.Nodes - 1}, true)
		if len(scores) == 0 {
			t.Errorf("%s: a search cut in its first iteration scored no move (it plays %s)", name, g.FormatMove(info.Move))
		}
		for _, s := range scores {
			if !legal(g, s.Move) || s.Score <= -inf {
				t.Errorf("%s: scored %s at %d", name, g.FormatMove(s.Move), s.Score)
			}
		}
	}
}

// TestLowLevelsPlayTheSameAtAnyMoveTime checks what the position caps are
// for: levels 1-4 choose the same moves whether they have 1 s or 3 s a
// move (given the same random choices), so the ladder measured at one move
// time (docs/explanation/levels.md) is the ladder at the class's. The
// searches run in virtual time, where a search's clock stands still while
// it computes: each stops at its cap, as on a machine fast enough to reach
// it within either move time, and nothing else about the move time may
// change the choice.
func TestLowLevelsPlayTheSameAtAnyMoveTime(t *testing.T) {
	for _, name := range games.Registry().Names() {
		synctest.Test(t, func(t *testing.T) {
			plies := 6
			if sampled(startOf(t, name)) {
				plies = 1 // the first move of each level
			}
			for l := Level(1); l <= 4; l++ {
				short := NewArbiter(nil, l, 1, rand.New(rand.NewPCG(3, 4)))
				long := NewArbiter(nil, l, 1, rand.New(rand.NewPCG(3, 4)))
				g := startOf(t, name)
				for ply := 0; ply < plies && g.Status() == rules.Ongoing; ply++ {
					a, _, err := short.Choose(context.Background(), g, Limits{MoveTime: time.Second})
					if err != nil {
						t.Fatalf("%s level %d: %v", name, l, err)
					}
					b, _, err := long.Choose(context.Background(), g, Limits{MoveTime: 3 * time.Second})
					if err != nil {
						t.Fatalf("%s level %d: %v", name, l, err)
					}
					if a != b {
						t.Errorf("%s level %d, ply %d: %s with 1 s a move, %s with 3 s", name, l, ply, g.FormatMove(a), g.FormatMove(b))
						break
					}
					g.Play(a)
				}
			}
		})
	}
}
