package commands

import (
	"context"
	"errors"
	"fmt"
	"time"

	"arbiter/store"
)

// UnreachableError is a Notifier's failure that waiting will not cure: the
// channel takes no message from the bot (a permission it lacks there, a
// locked thread). Why says what to fix, for people. The game in such a
// channel is paused, not left to time out: see PauseUnreachable.
type UnreachableError struct {
	Channel string
	Why     string
	Err     error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("channel %s is unreachable: %s: %v", e.Channel, e.Why, e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// pausingNotifier pauses the game of a channel that a post found
// unreachable; every later message of the flow goes through it.
type pausingNotifier struct {
	Notifier
	s *Service
}

// Post posts msg, and pauses the channel's game when the post fails with
// an UnreachableError.
func (p pausingNotifier) Post(ctx context.Context, channel string, msg Message) error {
	err := p.Notifier.Post(ctx, channel, msg)
	var ue *UnreachableError
	if errors.As(err, &ue) {
		if perr := p.s.PauseUnreachable(context.WithoutCancel(ctx), channel, ue.Why); perr != nil {
			p.s.log.Error("game of an unreachable channel not paused", "channel", channel, "err", perr)
		}
	}
	return err
}

// PauseUnreachable pauses the running game of channel, which the bot
// cannot post in, keeping its clock (as /referee pause does) and why, so
// that nobody loses on time for what the server's settings did. /games
// and the board say why; /referee resume goes on once it is fixed. A
// channel without a running game, or whose game is paused already, is
// left as it is.
func (s *Service) PauseUnreachable(ctx context.Context, channel, why string) error {
	for range 3 {
		g, err := s.store.Load(ctx, channel)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("pause the game of unreachable channel %s: %w", channel, err)
		}
		if g.Status != store.Active || flow(g).Paused {
			return nil
		}
		flow(g).Paused, flow(g).PausedWhy = true, why
		flow(g).PausedLeft = max(g.Deadline.Sub(s.now()), 0)
		g.Deadline, g.RemindAt = time.Time{}, time.Time{}
		err = s.store.Save(ctx, g)
		if errors.Is(err, store.ErrConflict) {
			continue // the game moved meanwhile: look again
		}
		if err != nil {
			return fmt.Errorf("pause the game of unreachable channel %s: %w", channel, err)
		}
		s.log.Warn("game paused: the bot cannot post in its channel", "channel", channel, "why", why)
		return nil
	}
	return fmt.Errorf("pause the game of unreachable channel %s: it kept changing", channel)
}

// IsReferee reports whether the invoker may referee (and so diagnose) in
// the invocation's server.
func (s *Service) IsReferee(inv Invocation) bool { return s.isReferee(inv) }

// pauseNote says why a paused game waits.
func pauseNote(g *store.Game) string {
	if flow(g).PausedWhy != "" {
		return "The game is paused: " + flow(g).PausedWhy
	}
	return "The game is paused by a referee."
}
