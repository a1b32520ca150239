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

// ByScore decides a game by two totals, player 1's first: the higher total
// wins and equal totals are a draw (HiQUE's timing option, Upthrust's row
// points, Sixes' turn-limit counts).
func ByScore(p1, p2 int) Result {
	switch {
	case p1 > p2:
		return P1Wins
	case p2 > p1:
		return P2Wins
	}
	return Draw
}

// Outcome is a result with its reason in words and, where the game has
// them, the players' scores (player 1 first).
type Outcome struct {
	Result    Result
	Reason    string
	Scores    [2]int
	HasScores bool
}
