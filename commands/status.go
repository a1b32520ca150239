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
	// BotToMove says the game waits for the bot's move: it is the turn of
	// Arbiter's engine, or a bot turn of this process is being thought
	// about or posted. A program's turn is not the bot's: nothing here
	// knows when, or whether, its bridge moves.
	BotToMove bool
	// ProgramToMove names the program whose move the game waits for
	// ("alice (program)"); empty when it waits for none.
	ProgramToMove string
	// ProgramOnline says that program's bridge is connected.
	ProgramOnline bool
	// Moves is the number of moves played, telling one turn from the next.
	Moves int
}

// Status says whether a game is going on in channel and whether it waits
// for the bot or a program. A channel without a game is no error.
func (s *Service) Status(ctx context.Context, channel string) (ChannelStatus, error) {
	g, err := s.store.Load(ctx, channel)
	if errors.Is(err, store.ErrNotFound) {
		return ChannelStatus{BotToMove: s.BotTurnsInFlight() > 0}, nil
	}
	if err != nil {
		return ChannelStatus{}, err
	}
	active := g.Status == store.Active
	playing := active && !flow(g).Challenge && !flow(g).Paused
	p := g.Players[g.State.ToMove()]
	st := ChannelStatus{Game: active, BotToMove: playing && p.Kind == store.Bot || s.BotTurnsInFlight() > 0, Moves: len(g.Moves)}
	if playing && p.Kind == store.Program {
		st.ProgramToMove, st.ProgramOnline = p.Program, s.programOnline(g.Guild, p.UserID)
	}
	return st, nil
}
