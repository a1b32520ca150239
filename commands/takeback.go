package commands

import (
	"fmt"
	"strings"

	"arbiter/rules"
	"arbiter/store"
)

// A takeback (/undo) goes back to before seat's last move: against the bot
// in an unrated game at once, against a person with their consent, rated
// or not (as lichess). Each takeback is kept in the game's Flow.Takebacks
// and shows in /history and in the game's record as a Takeback line.

// takebackNote says in words what a takeback undoes: the moves of g from
// index from on, asked for by seat and granted by who (when another
// person). g is the game before the takeback.
func takebackNote(g *store.Game, seat rules.Player, from int, who User) string {
	texts := make([]string, 0, len(g.Moves)-from)
	for _, m := range g.Moves[from:] {
		texts = append(texts, m.Text)
	}
	note := fmt.Sprintf("move %d: %s took back %s", from+1, seatTitle(g, seat), strings.Join(texts, ", "))
	if other := g.Players[seat.Other()]; other.Kind == store.Human && other.UserID == who.ID && who.ID != g.Players[seat].UserID {
		note += fmt.Sprintf(", with %s's consent", EscapeMarkdown(other.Name))
	}
	return note
}
