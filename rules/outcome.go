package rules

// Result is how a game stands: still going, won by a player, or drawn.
type Result uint8

// The results a game can have.
const (
	Ongoing Result = iota
	P1Wins
	P2Wins
	Draw
)

// Win returns the result in which p wins.
func Win(p Player) Result { return P1Wins + Result(p) }

// String returns "ongoing", "p1", "p2" or "draw", the words of `arbiter status`.
func (r Result) String() string {
	switch r {
	case Ongoing:
		return "ongoing"
	case P1Wins:
		return "p1"
	case P2Wins:
		return "p2"
	case Draw:
		return "draw"
	}
	return "unknown"
}

// Winner returns the winning player and true, or false for a draw or an
// ongoing game.
func (r Result) Winner() (Player, bool) {
	switch r {
	case P1Wins:
		return P1, true
	case P2Wins:
		return P2, true
	}
	return P1, false
}

// Outcome is a result with its reason in words and, where the game has
// them, the players' scores (player 1 first).
type Outcome struct {
	Result    Result
	Reason    string
	Scores    [2]int
	HasScores bool
}
