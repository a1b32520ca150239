package rules

// Counter is a game whose positions can be counted in its own terms: the
// quantities its evaluation weighs, as a player would count them on the
// board (pieces, legal moves, points). The analysis uses them to say in
// words what a move gave away.
type Counter interface {
	// Terms returns the game's quantities in the current position, each
	// counted for both players, in an order fixed for the game.
	Terms() []Term
}

// Term is one quantity of a position, counted for each player.
type Term struct {
	Name  string // plural, in the game's words: "pieces", "legal moves"
	Count [2]int // player 1's count, then player 2's
}
