package redisstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/redis/go-redis/v9"

	"arbiter/store"
)

// Archived lists the guild's archived games, newest first, from offset on
// (at most limit, at most MaxList), and says how many there are in all. A
// damaged entry is left out of the list and logged.
func (s *Redis) Archived(ctx context.Context, guild string, offset, limit int) ([]store.Summary, int64, error) {
	if err := store.CheckID("guild", guild); err != nil {
		return nil, 0, fmt.Errorf("list archive: %w", err)
	}
	offset = max(offset, 0)
	limit = store.ListLimit(limit)
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	var ids *redis.StringSliceCmd
	var total *redis.IntCmd
	_, err := s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		ids = pipe.ZRevRange(ctx, archiveIndexKey(guild), int64(offset), int64(offset+limit-1))
		total = pipe.ZCard(ctx, archiveIndexKey(guild))
		return nil
	})
	if err != nil {
		return nil, 0, fail(caller, "list archive of guild "+guild, err)
	}
	if len(ids.Val()) == 0 {
		return nil, total.Val(), nil
	}
	vals, err := s.rdb.HMGet(ctx, archiveKey(guild), ids.Val()...).Result()
	if err != nil {
		return nil, 0, fail(caller, "list archive of guild "+guild, err)
	}
	out := make([]store.Summary, 0, len(vals))
	for i, v := range vals {
		data, ok := v.(string)
		if !ok {
			s.log.Warn("store: archive index names a game that is not archived", "guild", guild, "id", ids.Val()[i])
			continue
		}
		g, err := store.DecodeArchived(nil, guild, ids.Val()[i], []byte(data))
		if err != nil {
			s.log.Warn("store: damaged archive entry left out of a listing", "err", err)
			continue
		}
		out = append(out, store.Summary{
			ID: g.ID, Channel: g.Channel, Name: g.Name, Players: g.Players, Result: g.Result,
			Reason: g.Reason, Moves: len(g.Moves), Created: g.Created, Finished: g.Finished,
		})
	}
	return out, total.Val(), nil
}

// LoadArchived returns the archived game id of guild, with its state:
// ErrNotFound when there is none, a *DamagedError when it cannot be read.
func (s *Redis) LoadArchived(ctx context.Context, guild, id string) (*store.Game, error) {
	if err := store.CheckID("guild", guild); err != nil {
		return nil, fmt.Errorf("load archived game: %w", err)
	}
	if err := store.CheckID("archive", id); err != nil {
		return nil, fmt.Errorf("load archived game: %w", err)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	data, err := s.rdb.HGet(ctx, archiveKey(guild), id).Result()
	if errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("load archived game %s of guild %s: %w", id, guild, store.ErrNotFound)
	}
	if err != nil {
		if wrongType(err) {
			return nil, &store.DamagedError{Guild: guild, ID: id, Err: errors.New("the guild's archive key holds something that is not an archive")}
		}
		return nil, fail(caller, fmt.Sprintf("load archived game %s of guild %s", id, guild), err)
	}
	return store.DecodeArchived(s.reg, guild, id, []byte(data))
}

// Running returns the games going on in guild's channels (at most
// MaxList), found through the guild's index of channels with a game. The
// index is a hint: channels whose game is gone, finished or of another
// guild are dropped from it on the way, and a damaged record is left out.
func (s *Redis) Running(ctx context.Context, guild string) ([]*store.Game, error) {
	if err := store.CheckID("guild", guild); err != nil {
		return nil, fmt.Errorf("running games: %w", err)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	channels, err := s.rdb.SRandMemberN(ctx, activeKey(guild), store.MaxList).Result()
	cancel()
	if err != nil {
		return nil, fail(caller, "running games of guild "+guild, err)
	}
	var out []*store.Game
	for _, ch := range channels {
		g, err := s.runningGame(caller, guild, ch)
		if err != nil {
			return nil, err
		}
		if g != nil {
			out = append(out, g)
		}
	}
	slices.SortFunc(out, func(a, b *store.Game) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return strings.Compare(a.Channel, b.Channel)
	})
	return out, nil
}

// runningGame returns the game going on in channel, which guild's index
// lists, or nil when there is none (the channel then leaves the index) or
// its record is damaged.
func (s *Redis) runningGame(caller context.Context, guild, channel string) (*store.Game, error) {
	g, err := s.Load(caller, channel)
	g, drop, err := runningIn(guild, g, err)
	if !drop {
		return g, err
	}
	return s.dropRunning(caller, guild, channel)
}

// runningIn says what a Load of a channel in guild's index of running
// games means: the game to list, or whether the channel leaves the index.
// A damaged record stays in the index and is not listed.
func runningIn(guild string, g *store.Game, err error) (*store.Game, bool, error) {
	var damaged *store.DamagedError
	switch {
	case err == nil && g.Guild == guild && g.Status == store.Active:
		return g, false, nil
	case err == nil || errors.Is(err, store.ErrNotFound):
		return nil, true, nil
	case errors.As(err, &damaged):
		return nil, false, nil
	}
	return nil, false, err
}

// dropRunning removes channel from guild's index of running games, whose
// game there is gone or over. A Create in the channel meanwhile may have
// sent its SADD (a no-op then) before the SREM, and it writes its game
// before that SADD: so dropRunning looks again after the SREM, and puts
// the channel back, returning its game, if a game goes on there now.
func (s *Redis) dropRunning(caller context.Context, guild, channel string) (*store.Game, error) {
	if err := s.indexRunning(caller, guild, channel, false); err != nil {
		return nil, err
	}
	g, err := s.Load(caller, channel)
	g, drop, err := runningIn(guild, g, err)
	if drop {
		return nil, nil
	}
	if ierr := s.indexRunning(caller, guild, channel, true); ierr != nil {
		return nil, ierr
	}
	return g, err
}

// indexRunning adds channel to guild's index of running games, or removes
// it.
func (s *Redis) indexRunning(caller context.Context, guild, channel string, add bool) error {
	ctx, cancel := s.op(caller, 0)
	defer cancel()
	var err error
	if add {
		err = s.rdb.SAdd(ctx, activeKey(guild), channel).Err()
	} else {
		err = s.rdb.SRem(ctx, activeKey(guild), channel).Err()
	}
	return fail(caller, "index the running games of guild "+guild, err)
}
