package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"arbiter/rules"
	"arbiter/store"
)

// MaxExtension is the most time one /referee extend gives.
const MaxExtension = 30 * 24 * time.Hour

// referee is /referee: the tools of a referee.
func (s *Service) referee(ctx context.Context, inv Invocation) Reply {
	if !s.isReferee(inv) {
		if s.cfg.RefereeRole != "" {
			return refuse("only referees (the %s role, or Manage Server) can use /referee", s.cfg.RefereeRole)
		}
		return refuse("only referees (people with Manage Server) can use /referee")
	}
	if inv.Sub == "start" {
		return s.refereeStart(ctx, inv)
	}
	if inv.Sub == "vacation" {
		return s.refereeVacation(ctx, inv)
	}
	if inv.Sub == "term-close" {
		return s.refereeTermClose(ctx, inv)
	}
	if inv.Sub == "export" {
		return s.refereeExport(ctx, inv)
	}
	if inv.Sub == "abort" {
		if r, done := s.abortDamaged(ctx, inv); done {
			return r
		}
	}
	g, r := s.load(ctx, inv)
	if r != nil {
		return *r
	}
	now := s.now()
	var text string
	switch inv.Sub {
	case "abort":
		flow(g).Rated = false
		s.finish(g, rules.Ongoing, "aborted by referee "+EscapeMarkdown(inv.User.Name))
		text = fmt.Sprintf("The game is aborted by %s; it is not rated and the channel is free.", EscapeMarkdown(inv.User.Name))
	case "adjudicate":
		var result rules.Result
		switch inv.Options["result"] {
		case "p1":
			result = rules.P1Wins
		case "p2":
			result = rules.P2Wins
		case "draw":
			result = rules.Draw
		default:
			return refuse("result must be p1, p2 or draw, not %q", inv.Options["result"])
		}
		reason := strings.TrimSpace(inv.Options["reason"])
		if reason == "" {
			return refuse("give the reason for the adjudication")
		}
		s.finish(g, result, "adjudicated by "+EscapeMarkdown(inv.User.Name)+": "+EscapeMarkdown(reason))
		text = fmt.Sprintf("Referee %s decides the game.", EscapeMarkdown(inv.User.Name))
	case "extend":
		by, err := ParseDuration(inv.Options["by"])
		if err != nil {
			return refuse("by: %v", err)
		}
		if by > MaxExtension {
			return refuse("by: an extension is at most %s; %s is more", FormatDuration(MaxExtension), FormatDuration(by))
		}
		if flow(g).Paused {
			flow(g).PausedLeft += by
		} else if !g.Deadline.IsZero() {
			g.Deadline = g.Deadline.Add(by)
			g.RemindAt = time.Time{}
			if left := g.Deadline.Sub(now); left > 0 {
				g.RemindAt = now.Add(left / 2)
			}
		}
		text = fmt.Sprintf("%s gives %s more time: the move is due %s.", EscapeMarkdown(inv.User.Name), FormatDuration(by), s.when(g.Deadline))
	case "pause":
		if flow(g).Paused {
			return refuse("the game is paused already")
		}
		flow(g).Paused = true
		flow(g).PausedLeft = max(g.Deadline.Sub(now), 0)
		g.Deadline, g.RemindAt = time.Time{}, time.Time{}
		text = fmt.Sprintf("%s pauses the game; moves wait until /referee resume.", EscapeMarkdown(inv.User.Name))
	case "resume":
		if !flow(g).Paused {
			return refuse("the game is not paused")
		}
		flow(g).Paused, flow(g).PausedWhy = false, ""
		left := flow(g).PausedLeft
		flow(g).PausedLeft = 0
		s.setDeadline(g, now)
		if left > 0 && g.Players[g.State.ToMove()].Kind == store.Human {
			g.Deadline = now.Add(left)
			g.RemindAt = now.Add(left / 2)
		}
		text = fmt.Sprintf("%s resumes the game.", EscapeMarkdown(inv.User.Name))
	default:
		return refuse("/referee takes start, abort, adjudicate, extend, pause or resume")
	}
	if err := s.saveAndFollow(ctx, g); err != nil {
		return s.storeRefusal(inv, err)
	}
	return Reply{Message: s.moveMessage(g, text, nil)}
}

// abortDamaged handles /referee abort of a game whose record cannot be
// read: the record is moved aside (kept for inspection) and the channel
// freed. It reports false when the channel's record is not damaged.
func (s *Service) abortDamaged(ctx context.Context, inv Invocation) (Reply, bool) {
	_, err := s.store.Load(ctx, inv.Channel)
	var damaged *store.DamagedError
	if !errors.As(err, &damaged) {
		return Reply{}, false
	}
	key, err := s.store.Quarantine(ctx, inv.Channel)
	if err != nil {
		return s.storeRefusal(inv, err), true
	}
	s.log.Warn("damaged game record moved aside", "channel", inv.Channel, "key", key, "by", inv.User.ID)
	return Reply{Message: Message{Text: fmt.Sprintf("The damaged game record of this channel is moved aside (kept as %s) by %s; the channel is free for a new game.", key, EscapeMarkdown(inv.User.Name))}}, true
}
