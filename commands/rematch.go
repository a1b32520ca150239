package commands

import (
	"context"
	"errors"
	"fmt"

	"arbiter/rules"
	"arbiter/store"
)

// /rematch, and the Rematch button under a finished game's board, play the
// last game of a channel again with the sides swapped and the same game,
// options, time per move and rating. Against the bot the new game starts
// at once; against a person it is a challenge from the one who asked,
// which the other accepts or declines as any challenge.

// rematch is /rematch and the Rematch button.
func (s *Service) rematch(ctx context.Context, inv Invocation) Reply {
	if g, err := s.store.Load(ctx, inv.Channel); err == nil && g.Status == store.Active && flow(g).Challenge &&
		challenged(g).UserID == inv.User.ID && inv.Game != "" {
		// Both players pressed Rematch: the second press accepts the first.
		inv.Game, inv.Version = "", 0
		return s.accept(ctx, inv)
	}
	last, r := s.lastGame(ctx, inv)
	if r != nil {
		return *r
	}
	if last.Channel != inv.Channel {
		// Another channel's game may be private to that channel: its
		// rematch is not announced here.
		return refuse("a rematch is played in the channel of its game; ask there")
	}
	var other store.Player
	switch inv.User.ID {
	case humanID(last.Players[rules.P1]):
		other = last.Players[rules.P2]
	case humanID(last.Players[rules.P2]):
		other = last.Players[rules.P1]
	default:
		return refuse("only the players of the last game here can ask for a rematch; /play starts a new game")
	}
	if other.Kind == store.Program {
		return refuse("a rematch against a program is started by a referee")
	}
	state, err := s.reg.New(last.Name, last.Options)
	if err != nil {
		return refuse("%v", err)
	}
	req := newGameRequest{name: last.Name, state: state}
	req.flow.TurnTime, req.flow.Rated, req.flow.Adjudicate = flow(last).TurnTime, flow(last).Rated, flow(last).Adjudicate
	req.players = [2]store.Player{last.Players[rules.P2], last.Players[rules.P1]} // sides swapped
	if other.Kind == store.Human {
		req.flow.Challenge = true
		if req.players[rules.P2].UserID == inv.User.ID {
			// A challenge keeps the challenger in seat 1 until accepted.
			req.flow.ChallengerSecond = true
			req.players[0], req.players[1] = req.players[1], req.players[0]
		}
	}
	reply := s.underLimits(ctx, inv, func() Reply {
		if r := s.checkLimits(ctx, inv, req); r != nil {
			return *r
		}
		return s.start(ctx, inv, req)
	})
	if !reply.Private {
		reply.Text = fmt.Sprintf("Rematch of #%s, sides swapped.\n%s", last.ID, reply.Text)
	}
	return reply
}

// lastGame is the game a rematch repeats: the button's game, or the last
// game finished in the invocation's channel.
func (s *Service) lastGame(ctx context.Context, inv Invocation) (*store.Game, *Reply) {
	no := func(format string, args ...any) (*store.Game, *Reply) {
		r := refuse(format, args...)
		return nil, &r
	}
	if g, err := s.store.Load(ctx, inv.Channel); err == nil {
		if g.Status == store.Active {
			return no("a game is already going on in this channel: /board shows it")
		}
		if inv.Game == "" || inv.Game == g.ID {
			return g, nil // finished, not yet archived
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		r := s.storeRefusal(inv, err)
		return nil, &r
	}
	id := inv.Game
	if id == "" {
		list, _, err := s.store.Archived(ctx, inv.Guild, 0, store.MaxList)
		if err != nil {
			r := s.storeRefusal(inv, err)
			return nil, &r
		}
		for _, sum := range list {
			if sum.Channel == inv.Channel {
				id = sum.ID
				break
			}
		}
		if id == "" {
			return no("no game has finished in this channel yet; /play starts one")
		}
	}
	g, err := s.store.LoadArchived(ctx, inv.Guild, id)
	if errors.Is(err, store.ErrNotFound) {
		return no("that game is no longer in this server's archive; /play starts a new one")
	}
	if err != nil {
		r := s.storeRefusal(inv, err)
		return nil, &r
	}
	return g, nil
}

// humanID is a person's user id, or "" for the bot or a program.
func humanID(p store.Player) string {
	if p.Kind != store.Human {
		return ""
	}
	return p.UserID
}

// rematchable reports whether a finished game g can be played again by
// its players: a person against a person or the bot.
func rematchable(g *store.Game) bool {
	humans := 0
	for _, p := range g.Players {
		switch p.Kind {
		case store.Human:
			humans++
		case store.Program:
			return false
		}
	}
	return humans > 0 && g.Result != rules.Ongoing
}
