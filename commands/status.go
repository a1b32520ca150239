package commands

import (
	"context"
	"errors"

	"arbiter/store"
)

// ChannelStatus is what a front end that waits for the bot (the console)
// needs to know of a channel.
type ChannelStatus struct {
	// Game says a game (or a challenge) is going on in the channel.
	Game bool
	// BotToMove says the game waits for the bot's move: it is the bot's
	// turn, or a bot turn of this process is being thought about or posted.
	BotToMove bool
}

// Status says whether a game is going on in channel and whether it waits
// for the bot. A channel without a game is no error.
func (s *Service) Status(ctx context.Context, channel string) (ChannelStatus, error) {
	g, err := s.store.Load(ctx, channel)
	if errors.Is(err, store.ErrNotFound) {
		return ChannelStatus{BotToMove: s.BotTurnsInFlight() > 0}, nil
	}
	if err != nil {
		return ChannelStatus{}, err
	}
	active := g.Status == store.Active
	botTurn := active && !flow(g).Challenge && !flow(g).Paused && g.Players[g.State.ToMove()].Kind != store.Human
	return ChannelStatus{Game: active, BotToMove: botTurn || s.BotTurnsInFlight() > 0}, nil
}
