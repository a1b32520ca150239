package commands

import (
	"context"
	"errors"
	"fmt"
	"time"

	"arbiter/render"
	"arbiter/rules"
	"arbiter/store"
)

// RunClock looks for due games every cfg.ClockTick until ctx ends:
// reminders, timeouts, lapsed challenges and lost bot turns. A lock in the
// store keeps it to one clock at a time across processes; nothing here
// sleeps on a timer that a restart would forget.
func (s *Service) RunClock(ctx context.Context) {
	ttl := 10 * s.cfg.ClockTick
	var lock store.Lock
	defer func() {
		if lock != nil {
			_ = lock.Release(context.WithoutCancel(ctx))
		}
	}()
	for ctx.Err() == nil {
		var err error
		if lock == nil {
			lock, err = s.store.TryLock(ctx, "clock", ttl)
		} else if err = lock.Renew(ctx); err != nil {
			lock = nil
		}
		if err == nil {
			if err := s.Tick(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("clock tick failed", "err", err)
			}
		} else if !errors.Is(err, store.ErrLocked) && ctx.Err() == nil {
			s.log.Warn("clock lock failed", "err", err)
		}
		sleep(ctx, s.cfg.ClockTick)
	}
}

// Tick handles every game that is due now, once.
func (s *Service) Tick(ctx context.Context) error {
	due, err := s.store.Due(ctx, s.now(), store.MaxList)
	if err != nil {
		return fmt.Errorf("clock: %w", err)
	}
	for _, g := range due {
		if err := s.wake(ctx, g); err != nil && !errors.Is(err, store.ErrConflict) {
			s.log.Warn("clock could not handle a game", "channel", g.Channel, "err", err)
		}
	}
	return nil
}

// wake handles one due game: a lapsed challenge, a lost bot turn, a
// person's timeout or reminder. The change is saved (compare-and-set)
// before anything is posted, so two clocks never post twice.
func (s *Service) wake(ctx context.Context, g *store.Game) error {
	now := s.now()
	if g.Status != store.Active || g.Flow.Paused {
		return nil
	}
	seat := g.State.ToMove()
	p := g.Players[seat]
	var msg Message
	switch {
	case g.Flow.Challenge:
		if now.Before(g.Deadline) {
			return nil
		}
		g.Flow.Rated = false
		s.finish(g, rules.Ongoing, fmt.Sprintf("the challenge to %s lapsed unanswered", challenged(g).Name))
		if err := s.saveAndFollow(ctx, g); err != nil {
			return err
		}
		msg = Message{Text: fmt.Sprintf("The challenge from %s to %s lapsed unanswered; the channel is free.", plainName(challenger(g)), plainName(challenged(g)))}
	case p.Kind == store.Bot:
		if now.Before(g.Deadline) {
			return nil
		}
		// The bot's turn outlived its deadline: its job was lost. Queue it
		// again (saving bumps the version, so any old job is void).
		s.log.Warn("bot turn lost; queueing it again", "channel", g.Channel)
		s.setDeadline(g, now)
		return s.saveAndFollow(ctx, g)
	case !g.Deadline.IsZero() && !now.Before(g.Deadline):
		out, scored := scoreOutcome(g.State, fmt.Sprintf("%s ran out of time", g.State.PlayerName(seat)))
		if !g.Flow.Adjudicate || !scored {
			out = rules.Outcome{Result: rules.Win(seat.Other()), Reason: fmt.Sprintf("%s ran out of time", g.State.PlayerName(seat))}
		}
		s.finish(g, out.Result, out.Reason)
		if err := s.saveAndFollow(ctx, g); err != nil {
			return err
		}
		msg = s.moveMessage(g, fmt.Sprintf("%s did not move in time.", seatTitle(g, seat)), nil)
	case !g.RemindAt.IsZero() && !now.Before(g.RemindAt):
		g.Flow.Reminders++
		g.RemindAt = time.Time{}
		left := g.Deadline.Sub(now)
		if g.Flow.Reminders == 1 && left > 0 {
			g.RemindAt = g.Deadline.Add(-left / 5) // again near the end
		}
		if err := s.store.Save(ctx, g); err != nil {
			return err
		}
		msg = Message{
			Text:     fmt.Sprintf("%s, reminder: your move in %s is due %s (%s left).", label(p), s.title(g.Name), when(g.Deadline), FormatDuration(max(left, 0))),
			Mentions: humanIDs(p),
		}
		msg.Buttons = s.boardMessage(g, render.Standard, "").Buttons
	default:
		return nil
	}
	if err := s.notify.Post(ctx, g.Channel, msg); err != nil {
		return fmt.Errorf("post to channel %s: %w", g.Channel, err)
	}
	return nil
}
