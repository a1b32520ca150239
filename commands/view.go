package commands

import (
	"arbiter/render"
	"arbiter/store"
)

// Which way up a board is drawn by default, as lichess turns a board to
// its viewer: a board everyone in the channel sees is drawn from the first
// player's side; a board one person asked for (/board, the Refresh button,
// a board shown privately) from that person's own side when they play in
// the game, else from the first player's.

// publicView is the side a board everyone sees is drawn from.
const publicView = render.FromP1

// viewFor is the side userID sees g's board from: their own seat's when
// they play (the seat to move, when they hold both), else publicView.
func viewFor(g *store.Game, userID string) render.View {
	if seat, ok := seatOf(g, userID); ok {
		return render.ViewFrom(seat)
	}
	return publicView
}
