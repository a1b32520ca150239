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
		// search, and 5% of the time against 30% lost every game; the
		// levels above 1 play their search's best move.
		return ladder{
			{depth: 1, nodes: 1000, percent: 10, margin: 6},
			{nodes: 1000, percent: 15},
			{nodes: 4500, percent: 20},
			{percent: 20},
			full,
		}
	case "upthrust":
		// Narrow with deep tactics: a depth cap of 3 made level 2 far
		// below level 3, one of 1 left level 1 far below level 2.
		return ladder{
			{depth: 2, nodes: 80, percent: 10, margin: 10},
			{nodes: 900, percent: 15, margin: 10},
			{nodes: 6000, percent: 20, margin: 8},
			{percent: 30, margin: 5},
			full,
		}
	case "hiya":
		// The default ladder but for level 2: its depth cap of 3 left
		// it far below level 3.
		return ladder{
			{depth: 1, nodes: 1000, percent: 10, margin: 20},
			{nodes: 1500, percent: 15, margin: 15},
			{nodes: 6000, percent: 15, margin: 10},
			{percent: 30, margin: 5},
			full,
		}
	case "sixes":
		// Decided by small counts (pieces, then mobility): a margin
		// above 5% throws games away from level 2 up.
		return ladder{
			{depth: 1, nodes: 1000, percent: 10, margin: 20},
			{nodes: 3000, percent: 15, margin: 5},
			{nodes: 8000, percent: 20, margin: 5},
			{percent: 50, margin: 2},
			full,
		}
	}
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
