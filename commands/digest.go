package commands

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"arbiter/store"
)

// The daily digest: a person who set /notify digest:HH:MM gets, once a
// day at that time in their time zone (/notify tz:), a direct message
// listing every game waiting for their move, in every server where they
// play. The people with a digest are listed in one setting (digestsKey);
// the servers a person plays in are noted when a game of theirs starts
// and when they use /notify (notifyGuilds). A digest is sent once per
// person and day, across processes (a lock named by both).

// The digest's settings: the list of people with a digest (comma
// separated, under the pseudo-channel digestsChannel), and a person's
// servers.
const (
	digestsChannel = "notify"
	digestsKey     = "digests"
	notifyGuilds   = "notify.guilds"
	maxGuildsNoted = 50
)

// digestLockTTL keeps a day's digest from being sent twice.
const digestLockTTL = 26 * time.Hour

// noteDigest adds userID to the people with a digest, or removes them.
func (s *Service) noteDigest(ctx context.Context, userID string, on bool) error {
	return s.editList(ctx, digestsChannel, digestsKey, userID, on, 0)
}

// noteGuild notes that userID plays in guild, for their digest.
func (s *Service) noteGuild(ctx context.Context, userID, guild string) error {
	return s.editList(ctx, personKey(userID), notifyGuilds, guild, true, maxGuildsNoted)
}

// editList adds item to (or removes it from) the comma-separated list in
// a setting, under a lock so that concurrent edits lose nothing; limit,
// when above zero, keeps the newest items only.
func (s *Service) editList(ctx context.Context, channel, key, item string, add bool, limit int) error {
	raw, err := s.store.ChannelSetting(ctx, channel, key)
	if err != nil {
		return err
	}
	list := splitList(raw)
	if slices.Contains(list, item) == add {
		return nil // nothing to change: no lock taken
	}
	var lock store.Lock
	for range 50 {
		lock, err = s.store.TryLock(ctx, "list-"+channel+"-"+key, 5*time.Second)
		if !errors.Is(err, store.ErrLocked) {
			break
		}
		t := time.NewTimer(20 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	if err != nil {
		return err
	}
	defer func() { _ = lock.Release(context.WithoutCancel(ctx)) }()
	if raw, err = s.store.ChannelSetting(ctx, channel, key); err != nil {
		return err
	}
	list = slices.DeleteFunc(splitList(raw), func(x string) bool { return x == item })
	if add {
		list = append(list, item)
	}
	if limit > 0 && len(list) > limit {
		list = list[len(list)-limit:]
	}
	return s.store.SetChannelSetting(ctx, channel, key, strings.Join(list, ","))
}

// splitList reads a comma-separated list.
func splitList(raw string) []string {
	if raw == "" {
		return nil
	}
	return strings.Split(raw, ",")
}

// sendDigests sends the digests due at now: to each person whose digest
// time, in their time zone, is this minute. The clock calls it once a
// minute.
func (s *Service) sendDigests(ctx context.Context, now time.Time) {
	if s.direct == nil {
		return
	}
	raw, err := s.store.ChannelSetting(ctx, digestsChannel, digestsKey)
	if err != nil {
		s.log.Warn("digests not read", "err", err)
		return
	}
	for _, userID := range splitList(raw) {
		p, err := s.person(ctx, userID)
		if err != nil || p.digest == "" {
			continue
		}
		at, err := parseClock(p.digest)
		local := now.In(p.tz)
		if err != nil || local.Hour()*60+local.Minute() != at {
			continue
		}
		day := local.Format("2006-01-02")
		if _, err := s.store.TryLock(ctx, "digest-"+userID+"-"+day, digestLockTTL); err != nil {
			continue // sent today already, by this process or another
		}
		s.sendDigest(ctx, userID)
	}
}

// sendDigest sends userID the list of the games waiting for their move.
// A day without any sends nothing.
func (s *Service) sendDigest(ctx context.Context, userID string) {
	raw, err := s.store.ChannelSetting(ctx, personKey(userID), notifyGuilds)
	if err != nil {
		return
	}
	var lines []string
	channel, guild := "", ""
	for _, g := range splitList(raw) {
		running, err := s.store.Running(ctx, g)
		if err != nil {
			s.log.Warn("digest: running games not read", "guild", g, "err", err)
			continue
		}
		for _, game := range running {
			if game.Status != store.Active || flow(game).Challenge {
				continue
			}
			p := game.Players[game.State.ToMove()]
			if p.Kind != store.Human || p.UserID != userID {
				continue
			}
			channel, guild = game.Channel, game.Guild
			lines = append(lines, fmt.Sprintf("- %s in <#%s>: your move as %s, due %s", s.title(game.Name), game.Channel,
				game.State.PlayerName(game.State.ToMove()), s.when(game.Deadline)))
		}
	}
	if len(lines) == 0 {
		return
	}
	note := DirectNote{UserID: userID, Digest: true, Guild: guild, Channel: channel,
		Text: fmt.Sprintf("Your daily digest: %s waiting for your move.\n%s", plural(len(lines), "game"), strings.Join(lines, "\n"))}
	s.sendDirect(ctx, note)
}
