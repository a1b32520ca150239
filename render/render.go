// Package render draws games of Arbiter for people: a monospace text board
// for a Discord code block or a terminal, an emoji grid for a Discord
// message, a PNG image, the same drawing as SVG with its squares as targets
// for the play page (and the legal moves as the squares they join), an
// animated GIF replay, and the text record of a whole game that the rules
// can load again.
//
// Every style is labelled in the game's own notation (HiQUE's 13x13
// numbers, Upthrust's columns 1-4 and rows 1-11, Hi-Ya!'s A-G and 1-8,
// Sixes' a-f and 1-6), marks the last move, says whose turn it is and shows
// the game's running figures. Each board can be seen from either player's
// side.
//
// The styles share one model: a game's position is first reduced to a scene
// (a grid of cells with pieces, marks and labels, and the lines of status
// under it) by a small adapter per game, and each style draws the scene.
// render only reads games; it never changes the game it is given.
//
// Invariants a change must keep: render never changes the game it is
// given; every style labels squares in the game's own notation; the text
// record is read back by the rules to the same game (FuzzParseRecord); the
// golden images and texts change only with a deliberate change of style.
package render

import (
	"unicode/utf16"

	"arbiter/rules"
)

// View chooses which way up a board is drawn.
type View uint8

// The views. A view from a player's side puts that player's pieces at the
// bottom, as the player sees the board from their seat; it turns the board
// half around (both axes) when the rules' own diagram has the player at the
// top. Upthrust has no sides (all pieces move up the same columns), so its
// board is always drawn the one way, row 11 at the top.
const (
	// Standard is the orientation of the rules' diagrams: HiQUE with Black
	// (player 1) at the top, Upthrust row 11 at the top, Hi-Ya! South at
	// the bottom, Sixes row a at the top.
	Standard View = iota
	// FromP1 is the board as player 1 sees it.
	FromP1
	// FromP2 is the board as player 2 sees it.
	FromP2
)

// ViewFrom returns the view from player p's side.
func ViewFrom(p rules.Player) View {
	if p == rules.P1 {
		return FromP1
	}
	return FromP2
}

// String returns "standard", "p1" or "p2".
func (v View) String() string {
	switch v {
	case FromP1:
		return "p1"
	case FromP2:
		return "p2"
	}
	return "standard"
}

// Options say how to draw a game. The zero value draws the standard view
// with the game's own names for the players and no colour.
type Options struct {
	// View is the side the board is seen from.
	View View
	// Players are the people (or programs) playing, player 1 first, as
	// they should appear beside the game's own names ("Black (alice)").
	// Empty names are left out. A Discord mention works in emoji boards.
	Players [2]string
	// Colour adds ANSI colour to text boards, for a terminal or a Discord
	// code block marked "ansi" (see CodeBlock). Other styles ignore it.
	Colour bool
	// Result, when set, is how the game ended outside its rules
	// (resignation, time, adjudication, abort); it is shown instead of the
	// game's own Outcome. A nil Result shows g.Outcome().
	Result *rules.Outcome
	// FrameDelay is the time each GIF frame is shown, in hundredths of a
	// second; 0 means 80. The last frame stays four times as long.
	FrameDelay int
}

// DiscordLimit is the most characters a Discord message may hold.
const DiscordLimit = 2000

// DiscordLength returns the length of s as Discord counts it against
// DiscordLimit. Discord counts UTF-16 code units, so an emoji outside the
// Basic Multilingual Plane counts two and a keycap digit three.
func DiscordLength(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// CodeBlock wraps a text board in a Discord code block; with colour it
// marks the block "ansi" so that Discord shows the ANSI colours Text wrote.
func CodeBlock(board string, colour bool) string {
	open, end := CodeFences(colour)
	return open + board + end
}

// CodeFences are the lines CodeBlock puts around a board: the opening
// fence with its newline, and the closing fence.
func CodeFences(colour bool) (open, end string) {
	if colour {
		return "```ansi\n", "```"
	}
	return "```\n", "```"
}

// outcome returns the result to show: the override or the game's own.
func outcome(g rules.Game, opt Options) rules.Outcome {
	if opt.Result != nil {
		return *opt.Result
	}
	return g.Outcome()
}
