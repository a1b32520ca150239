package engine

// levelSettings are what a level changes: the depth cap (0 none), the node
// cap (0 none), the share of the move time (per cent) and the randomness
// margin, in per cent of the typical loss of a root move (see typicalLoss;
// 0 is none, and also the cheaper search: a level with a margin scores
// every root move with a full window).
type levelSettings struct {
	depth   int
	percent int
	margin  int
	nodes   uint64
}

// ladder is the settings of levels 1 to 5 in one game.
type ladder [5]levelSettings

// ladderOf returns the level settings for the game named game (the rules
// package's Game.Name). The games' evaluations, branching and spread of
// strength differ too widely for one table to give even steps in all of
// them, so a game measured to need it has its own; any other game gets the
// default ladder. Only the name is used: engine imports no game package.
// The settings were tuned with `arbiter match` (docs/levels.md);
// TestLevelsAreMonotone keeps every ladder a ladder, level 5 the full
// search.
func ladderOf(game string) ladder {
	full := levelSettings{percent: 100}
	switch game {
	case "hique":
		// Wide: a full-window root (any margin) costs much of the
		// search; level 4 with a 5% margin lost 30 of 30 to level 5,
		// without one 29 of 40. Levels 2-4 play their search's best
		// move; the node caps and time shares make the steps.
		return ladder{
			{depth: 1, nodes: 1000, percent: 10, margin: 6},
			{nodes: 1000, percent: 15},
			{nodes: 4500, percent: 20},
			{percent: 20},
			full,
		}
	case "upthrust":
		// Narrow with deep tactics: a depth cap of 3 put level 2 far
		// below level 3 (90%); level 1 at 1 ply is near greedy but far
		// below level 2, at 2 plies with no position cap far above
		// greedy: 2 plies within 80 positions is between.
		return ladder{
			{depth: 2, nodes: 80, percent: 10, margin: 10},
			{nodes: 900, percent: 15, margin: 10},
			{nodes: 6000, percent: 20, margin: 8},
			{percent: 30, margin: 5},
			full,
		}
	case "hiya":
		// The default ladder but for level 2: with its depth cap of 3
		// it scored 69% against level 1 and level 3 89% against it.
		return ladder{
			{depth: 1, nodes: 1000, percent: 10, margin: 20},
			{nodes: 1500, percent: 15, margin: 15},
			{nodes: 6000, percent: 15, margin: 10},
			{percent: 30, margin: 5},
			full,
		}
	case "sixes":
		// Decided at the turn limit by small counts (pieces, then
		// mobility), with many draws: level 2 with a 15% margin and 3
		// plies scored 57-64% against level 1; level 4 takes half the
		// time, as with 30% level 3 came within 60-72% of it.
		return ladder{
			{depth: 1, nodes: 1000, percent: 10, margin: 20},
			{nodes: 3000, percent: 15, margin: 5},
			{nodes: 8000, percent: 20, margin: 5},
			{percent: 50, margin: 2},
			full,
		}
	}
	// A game with no ladder of its own (the one all four games shared
	// before they had theirs).
	return ladder{
		{depth: 1, nodes: 1000, percent: 10, margin: 20},
		{depth: 3, nodes: 1000, percent: 15, margin: 15},
		{nodes: 6000, percent: 15, margin: 10},
		{percent: 30, margin: 5},
		full,
	}
}

// settings returns the level's settings in the game named game (level 5's
// for a level outside 1..5).
func (l Level) settings(game string) levelSettings {
	if l < 1 || l > 5 {
		l = 5
	}
	return ladderOf(game)[l-1]
}
