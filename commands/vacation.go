package commands

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"arbiter/rules"
	"arbiter/store"
)

// Vacation: each person has vacation days in each server (referees set
// the allowance, /referee vacation days:N; DefaultVacationDays else).
// /vacation start stops the clock of every game of theirs in the server
// (a tournament's games may forbid it): the deadline of a turn of theirs
// moves on by the vacation's length, at most what is left of the
// allowance, so that the clock starts again by itself when the allowance
// runs out. /vacation end starts the clocks again, with the time that was
// left. The days are counted as used, each started day whole. The
// opponents' clocks are not touched.

// DefaultVacationDays is a person's vacation allowance in a server when
// its referees set none.
const DefaultVacationDays = 7

// maxVacationDays bounds the allowance a referee may set.
const maxVacationDays = 60

// The vacation settings, kept as the settings of the pseudo-channel
// guildKey(guild): the allowance in days, each person's days used, and a
// vacation going on ("START,UNTIL" as Unix seconds).
const (
	vacationDays = "vacation.days"
	vacationUsed = "vacation.used."
	vacationOn   = "vacation.on."
)

// VacationUsedSettings returns where a server's used vacation days are
// kept: the settings pseudo-channel, and the prefix of each person's key
// (the prefix and their user id; the value, their days as a number).
// Clearing them gives everyone their whole allowance again.
func VacationUsedSettings(guild string) (channel, keyPrefix string) {
	return guildKey(guild), vacationUsed
}

// guildKey is the pseudo-channel a server's settings are kept under.
func guildKey(guild string) string { return settingsID("guild.", guild) }

// vacation is one person's vacation standing in a server.
type vacation struct {
	allowance, used int       // days
	start, until    time.Time // a vacation going on, or zero
}

// vacationOf reads userID's vacation standing in guild; a vacation that
// ran out by itself is counted as used and ended.
func (s *Service) vacationOf(ctx context.Context, guild, userID string) (vacation, error) {
	key := guildKey(guild)
	var v vacation
	read := func(k string) (int, error) {
		raw, err := s.store.ChannelSetting(ctx, key, k)
		if err != nil || raw == "" {
			return 0, err
		}
		n, _ := strconv.Atoi(raw)
		return n, nil
	}
	var err error
	if v.allowance, err = read(vacationDays); err != nil {
		return v, err
	}
	if raw, _ := s.store.ChannelSetting(ctx, key, vacationDays); raw == "" {
		v.allowance = DefaultVacationDays
	}
	if v.used, err = read(vacationUsed + userID); err != nil {
		return v, err
	}
	on, err := s.store.ChannelSetting(ctx, key, vacationOn+userID)
	if err != nil {
		return v, err
	}
	if a, b, ok := strings.Cut(on, ","); ok {
		sa, _ := strconv.ParseInt(a, 10, 64)
		sb, _ := strconv.ParseInt(b, 10, 64)
		v.start, v.until = time.Unix(sa, 0), time.Unix(sb, 0)
	}
	if !v.until.IsZero() && !v.until.After(s.now()) {
		// It ran out by itself: every day of it is used.
		if err := s.endVacationRecord(ctx, guild, userID, &v, v.until); err != nil {
			return v, err
		}
	}
	return v, nil
}

// endVacationRecord counts v's days up to end as used and clears it.
func (s *Service) endVacationRecord(ctx context.Context, guild, userID string, v *vacation, end time.Time) error {
	days := int((end.Sub(v.start) + 24*time.Hour - time.Second) / (24 * time.Hour))
	v.used = min(v.used+max(days, 1), v.allowance+v.used)
	key := guildKey(guild)
	if err := s.store.SetChannelSetting(ctx, key, vacationUsed+userID, strconv.Itoa(v.used)); err != nil {
		return err
	}
	v.start, v.until = time.Time{}, time.Time{}
	return s.store.SetChannelSetting(ctx, key, vacationOn+userID, "")
}

// vacationCmd is /vacation start|end (no subcommand: the standing).
func (s *Service) vacationCmd(ctx context.Context, inv Invocation) Reply {
	v, err := s.vacationOf(ctx, inv.Guild, inv.User.ID)
	if err != nil {
		return s.storeRefusal(inv, err)
	}
	left := max(v.allowance-v.used, 0)
	now := s.now()
	switch inv.Sub {
	case "start":
		if !v.until.IsZero() {
			return refuse("you are on vacation already, until %s at the latest; /vacation end ends it", s.when(v.until))
		}
		if left == 0 {
			return refuse("you have used all %s of vacation in this server", plural(v.allowance, "day"))
		}
		v.start = now.Truncate(time.Second)
		v.until = v.start.Add(time.Duration(left) * 24 * time.Hour)
		rec := fmt.Sprintf("%d,%d", v.start.Unix(), v.until.Unix())
		if err := s.store.SetChannelSetting(ctx, guildKey(inv.Guild), vacationOn+inv.User.ID, rec); err != nil {
			return s.storeRefusal(inv, err)
		}
		stopped, kept := s.eachGameOf(ctx, inv, func(g *store.Game, seat rules.Player) string {
			flow(g).VacationUntil[seat] = v.until
			if g.State.ToMove() == seat && !flow(g).Paused && !g.Deadline.IsZero() {
				by := v.until.Sub(now)
				g.Deadline = g.Deadline.Add(by)
				if !g.RemindAt.IsZero() {
					g.RemindAt = g.RemindAt.Add(by)
				}
			}
			return fmt.Sprintf("%s is on vacation, until %s at the latest: their clock is stopped; %s's is not.",
				seatTitle(g, seat), s.when(v.until), seatTitle(g, seat.Other()))
		})
		return Reply{Message: Message{Text: fmt.Sprintf("Your vacation starts: %s, until %s at the latest (%s left). %s",
			plural(stopped, "clock")+" stopped", s.when(v.until), plural(left, "day"), kept)}, Private: true}
	case "end":
		if v.until.IsZero() {
			return refuse("you are not on vacation; /vacation start starts one (%s left)", plural(left, "day"))
		}
		until := v.until
		if err := s.endVacationRecord(ctx, inv.Guild, inv.User.ID, &v, now); err != nil {
			return s.storeRefusal(inv, err)
		}
		restarted, _ := s.eachGameOf(ctx, inv, func(g *store.Game, seat rules.Player) string {
			if !flow(g).VacationUntil[seat].Equal(until) {
				return ""
			}
			flow(g).VacationUntil[seat] = time.Time{}
			if g.State.ToMove() == seat && !flow(g).Paused && g.Deadline.After(until) {
				rest := g.Deadline.Sub(until)
				g.Deadline, g.RemindAt = now.Add(rest), now.Add(rest/2)
			}
			return fmt.Sprintf("%s is back from vacation: their clock runs again.", seatTitle(g, seat))
		})
		return Reply{Message: Message{Text: fmt.Sprintf("Welcome back: %s again. %s of vacation used, %s left in this server.",
			plural(restarted, "clock")+" running", plural(v.used, "day"), plural(max(v.allowance-v.used, 0), "day"))}, Private: true}
	}
	on := "You are not on vacation."
	if !v.until.IsZero() {
		on = fmt.Sprintf("You are on vacation until %s at the latest.", s.when(v.until))
	}
	return Reply{Message: Message{Text: fmt.Sprintf("%s Vacation in this server: %s used of %s. /vacation start stops the clocks of your games here, /vacation end starts them again.",
		on, plural(v.used, "day"), plural(v.allowance, "day"))}, Private: true}
}

// eachGameOf changes every game the invoker plays in the invoker's
// server with change, saves it and posts what change says in its
// channel. It returns how many games changed, and a note on the games
// whose tournament forbids vacation.
func (s *Service) eachGameOf(ctx context.Context, inv Invocation, change func(g *store.Game, seat rules.Player) string) (int, string) {
	var forbidden []string
	n, err := s.changeGames(ctx, inv.Guild, inv.User.ID, func(g *store.Game, seat rules.Player) bool {
		if flow(g).NoVacation {
			forbidden = append(forbidden, "<#"+g.Channel+">")
			return false
		}
		text := change(g, seat)
		flow(g).announce = text
		return text != ""
	})
	if err != nil {
		s.log.Warn("running games not read for a vacation", "guild", inv.Guild, "err", err)
		return n, "Some games could not be read just now; try again."
	}
	if len(forbidden) == 0 {
		return n, ""
	}
	return n, fmt.Sprintf("The clock goes on in %s: its tournament allows no vacation.", strings.Join(forbidden, ", "))
}

// changeGames changes each running game of guild in which userID plays a
// seat, when change says so, and saves it (again on a conflict: a move
// came in meanwhile); what change leaves in the game's Flow.announce is
// posted in its channel once saved. It returns how many games changed.
func (s *Service) changeGames(ctx context.Context, guild, userID string, change func(g *store.Game, seat rules.Player) bool) (int, error) {
	running, err := s.store.Running(ctx, guild)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, head := range running {
		for range 3 {
			g, err := s.store.Load(ctx, head.Channel)
			if err != nil || g.ID != head.ID || g.Status != store.Active {
				break
			}
			seat, ok := seatOf(g, userID)
			if !ok || g.Players[seat].Kind != store.Human || !change(g, seat) {
				break
			}
			err = s.store.Save(ctx, g)
			if errors.Is(err, store.ErrConflict) {
				continue
			}
			if err != nil {
				s.log.Warn("game not changed", "channel", g.Channel, "err", err)
				break
			}
			n++
			if text := flow(g).announce; text != "" {
				if err := s.notify.Post(ctx, g.Channel, Message{Text: text}); err != nil {
					s.log.Warn("change not announced", "channel", g.Channel, "err", err)
				}
			}
			break
		}
	}
	return n, nil
}

// refereeVacation is /referee vacation days:N: the vacation allowance of
// everyone in this server (for the term); no days shows it.
func (s *Service) refereeVacation(ctx context.Context, inv Invocation) Reply {
	raw, ok := inv.Options["days"]
	if !ok {
		v, err := s.vacationOf(ctx, inv.Guild, inv.User.ID)
		if err != nil {
			return s.storeRefusal(inv, err)
		}
		return Reply{Message: Message{Text: fmt.Sprintf("Everyone here has %s of vacation; /referee vacation days:N changes it.", plural(v.allowance, "day"))}, Private: true}
	}
	days, err := strconv.Atoi(raw)
	if err != nil || days < 0 || days > maxVacationDays {
		return refuse("days must be a whole number from 0 to %d, not %.20q", maxVacationDays, raw)
	}
	if err := s.store.SetChannelSetting(ctx, guildKey(inv.Guild), vacationDays, strconv.Itoa(days)); err != nil {
		return s.storeRefusal(inv, err)
	}
	return Reply{Message: Message{Text: fmt.Sprintf("%s sets everyone's vacation in this server to %s.", EscapeMarkdown(inv.User.Name), plural(days, "day"))}}
}
