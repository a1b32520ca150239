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
// reminders, timeouts, lapsed challenges and lost bot turns, and the
// outbox's leftovers. A lock in the store keeps it to one clock at a time
// across processes; nothing here sleeps on a timer that a restart would
// forget. In a process that takes commands it also beats the heartbeat
// (first, so that an outage's time is given back before anyone is timed
// out), and it keeps the service's time on the store's.
func (s *Service) RunClock(ctx context.Context) {
	ttl := 10 * s.cfg.ClockTick
	var lock store.Lock
	defer func() {
		if lock != nil {
			_ = lock.Release(context.WithoutCancel(ctx))
		}
	}()
	for n := 0; ctx.Err() == nil; n++ {
		if n%60 == 0 {
			if err := s.SyncClock(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("clock sync failed", "err", err)
				n = -1 // again at the next tick
			}
		}
		if s.cfg.TakesCommands {
			s.Beat(ctx)
		}
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

// Tick finishes what crashes left in the outbox (Sweep), then handles
// every game that is due now, once: but only while a process that takes
// players' commands is up, and after giving each game the time of any
// outage it was not given yet. A game whose handling panics is tried again
// at the next tick, and set aside after 3 panics (or 10 tries whose process
// died).
func (s *Service) Tick(ctx context.Context) error {
	if err := s.Sweep(ctx); err != nil {
		s.log.Warn("outbox sweep failed", "err", err)
	}
	up, err := s.alive(ctx)
	if err != nil {
		return fmt.Errorf("clock: %w", err)
	}
	if !up {
		return nil // nobody can move: nobody is timed out
	}
	now := s.now()
	if minute := now.Unix() / 60; s.digestMinute.Swap(minute) != minute {
		s.sendDigests(ctx, now)
	}
	due, err := s.store.Due(ctx, now, store.MaxList)
	if err != nil {
		return fmt.Errorf("clock: %w", err)
	}
	if len(due) == 0 {
		return nil
	}
	outs, err := s.store.Outages(ctx, now.Add(-outageMemory))
	if err != nil {
		return fmt.Errorf("clock: %w", err)
	}
	for _, g := range due {
		key := fmt.Sprintf("clock/%s/%s/%d", g.Channel, g.ID, g.Version)
		attempts, err := s.store.Attempt(ctx, key)
		if err != nil {
			return fmt.Errorf("clock: %w", err)
		}
		if attempts > maxDeaths {
			s.jobFailed(ctx, key, g.Channel, maxAttempts, fmt.Sprintf("the clock's process died or hung on this game %d times", attempts-1))
			continue
		}
		var werr error
		if perr := recovered(func() { werr = s.wakeFair(ctx, g, outs) }); perr != nil {
			s.jobFailed(ctx, key, g.Channel, s.panicked(ctx, key), perr.Error())
			continue
		}
		if werr != nil && !errors.Is(werr, store.ErrConflict) {
			s.log.Warn("clock could not handle a game", "channel", g.Channel, "err", werr)
		}
		if err := s.store.Finished(ctx, key); err != nil {
			s.log.Warn("clock: attempts not cleared", "job", key, "err", err)
		}
	}
	return nil
}

// wakeFair gives g the time of outages it was not given, or else wakes it.
func (s *Service) wakeFair(ctx context.Context, g *store.Game, outs []store.Outage) error {
	if gave, err := s.giveBack(ctx, g, outs); gave || err != nil {
		return err
	}
	return s.wake(ctx, g)
}

// wake handles one due game: a lapsed challenge, a lost bot turn, a
// person's timeout or reminder. The change is saved (compare-and-set)
// before anything is posted, so two clocks never post twice.
func (s *Service) wake(ctx context.Context, g *store.Game) error {
	now := s.now()
	if g.Status != store.Active || flow(g).Paused {
		return nil
	}
	seat := g.State.ToMove()
	p := g.Players[seat]
	switch {
	case flow(g).Challenge:
		if now.Before(g.Deadline) {
			return nil
		}
		flow(g).Rated = false
		s.finish(g, rules.Ongoing, fmt.Sprintf("the challenge to %s lapsed unanswered", EscapeMarkdown(challenged(g).Name)))
		return s.commit(ctx, g, func(*store.Game) *Message {
			return &Message{Text: fmt.Sprintf("The challenge from %s to %s lapsed unanswered; the channel is free.", plainName(challenger(g)), plainName(challenged(g)))}
		})
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
		if !flow(g).Adjudicate || !scored {
			out = rules.Outcome{Result: rules.Win(seat.Other()), Reason: fmt.Sprintf("%s ran out of time", g.State.PlayerName(seat))}
		}
		s.finish(g, out.Result, out.Reason)
		return s.commit(ctx, g, func(next *store.Game) *Message {
			msg := s.moveMessage(next, fmt.Sprintf("%s did not move in time.", seatTitle(next, seat)), nil)
			return &msg
		})
	case !g.RemindAt.IsZero() && !now.Before(g.RemindAt):
		flow(g).Reminders++
		g.RemindAt = time.Time{}
		left := g.Deadline.Sub(now)
		if flow(g).Reminders == 1 && left > 0 {
			g.RemindAt = g.Deadline.Add(-left / 5) // again near the end
		}
		return s.commit(ctx, g, func(next *store.Game) *Message {
			return &Message{
				Text:     fmt.Sprintf("%s, reminder: your move in %s is due %s (%s left).", label(p), s.title(g.Name), s.when(g.Deadline), FormatDuration(max(left, 0))),
				Mentions: humanIDs(p),
				Buttons:  s.boardMessage(next, render.Standard, "").Buttons,
			}
		})
	}
	return nil
}
