package engine

// levelSettings are what a level changes: the depth cap (0 none), the node
// cap (0 none) and the randomness margin, in per cent of the typical loss
// of a root move (see typicalLoss; 0 is none, and also the cheaper search:
// a level with a margin scores every root move with a full window). Every
// level may use the whole move time.
type levelSettings struct {
	depth  int
	margin int
	nodes  uint64
}

// ladder is the settings of levels 1 to 5 in one game.
type ladder [5]levelSettings

// ladderOf returns the level settings for the game named game (the rules
// package's Game.Name). Levels 1-4 are capped by positions visited, so they
// play the same at any move time and on any machine once the move time is
// not the binding limit; level 5 alone grows with the time. The games'
// branching and spread of strength differ too widely for one table to give
// even steps in all of them, so each game has its own; any other game gets
// the default ladder. Only the name is used: engine imports no game
// package. The settings were tuned with `arbiter match` at 10 ms a move
// (docs/explanation/levels.md); TestLevelsAreMonotone keeps every ladder a ladder,
// level 5 the full search.
func ladderOf(game string) ladder {
	full := levelSettings{}
	switch game {
	case "hique":
		return ladder{
			{depth: 1, nodes: 450, margin: 40},
			{nodes: 450},
			{nodes: 3500},
			{nodes: 18000},
			full,
		}
	case "upthrust":
		return ladder{
			{depth: 1, nodes: 280, margin: 50},
			{nodes: 280},
			{nodes: 1300},
			{nodes: 6500},
			full,
		}
	case "hiya":
		// Level 1's 1-ply search with its capture search beats greedy
		// 61% with a margin of 20-60% of the typical loss: it needs 70%.
		return ladder{
			{depth: 1, nodes: 300, margin: 70},
			{nodes: 300},
			{nodes: 1200},
			{nodes: 7000},
			full,
		}
	case "sixes":
		// Many draws make every step shorter in Elo than in the other
		// games, so the caps are closer to level 5.
		return ladder{
			{depth: 1, nodes: 500, margin: 20},
			{nodes: 500},
			{nodes: 1600},
			{nodes: 7000},
			full,
		}
	case "breakthrough":
		// Greedy sees captures but not recaptures: level 1's capture
		// search alone beats it 99% with a margin of 50%, so level 1 picks
		// at random within a wide margin.
		return ladder{
			{depth: 1, nodes: 600, margin: 70},
			{nodes: 600},
			{nodes: 3000},
			{nodes: 8000},
			full,
		}
	case "othello":
		// Positions are costly (mobility is in the evaluation): level 5
		// searches about 5,000 positions in 10 ms, so level 4 stays below.
		return ladder{
			{depth: 1, nodes: 150, margin: 30},
			{nodes: 150},
			{nodes: 700},
			{nodes: 2500},
			full,
		}
	case "connect4":
		return ladder{
			{depth: 1, nodes: 120, margin: 50},
			{nodes: 120},
			{nodes: 700},
			{nodes: 4000},
			full,
		}
	}
	// A game with no ladder of its own (a game described in an
	// instructor's file): the middle of the four games' figures, not
	// measured.
	return ladder{
		{depth: 1, nodes: 400, margin: 50},
		{nodes: 400},
		{nodes: 1500},
		{nodes: 7000},
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
