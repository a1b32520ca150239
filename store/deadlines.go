package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// damagedRetry is how long Due leaves a damaged game's entry alone before
// it looks (and logs) again.
const damagedRetry = time.Hour

// Due returns the games whose wake time (see Game.Wake: a reminder or a
// deadline) is at or before now, earliest first, looking at no more than
// limit index entries (at most MaxList). A game stays due until a Save
// changes it, so a clock that crashes before acting finds it again.
//
// The deadline index is a hint; Due reads each record and puts the index
// right on the way: entries of versions that moved on or of games that are
// gone are removed, an entry earlier than its game's wake time is moved to
// it, a damaged game is logged and looked at again an hour later.
func (s *Redis) Due(ctx context.Context, now time.Time, limit int) ([]*Game, error) {
	if limit <= 0 || limit > MaxList {
		limit = MaxList
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	entries, err := s.rdb.ZRangeByScore(ctx, deadlinesKey, &redis.ZRangeBy{
		Min: "-inf", Max: strconv.FormatInt(now.UnixMilli(), 10), Count: int64(limit),
	}).Result()
	if err != nil {
		return nil, fail(caller, "read the deadline index", err)
	}
	if len(entries) == 0 {
		return nil, nil
	}

	type entry struct {
		member, channel, id string
		version             int64
	}
	var (
		parsed  []entry
		remove  []any
		records = map[string]*redis.SliceCmd{}
	)
	pipe := s.rdb.Pipeline()
	for _, m := range entries {
		e, ok := parseMember(m)
		if !ok {
			remove = append(remove, m)
			continue
		}
		parsed = append(parsed, entry{m, e.channel, e.id, e.version})
		if records[e.channel] == nil {
			records[e.channel] = pipe.HMGet(ctx, gameKey(e.channel), "id", "version", "record")
		}
	}
	if len(records) > 0 {
		_, _ = pipe.Exec(ctx) // each command's error is looked at below
	}

	var (
		due   []*Game
		seen  = map[string]bool{}
		moves []redis.Z
		later []redis.Z
	)
	for _, e := range parsed {
		cmd := records[e.channel]
		vals, err := cmd.Result()
		if err != nil && !wrongType(err) {
			return nil, fail(caller, "read the games of the deadline index", err)
		}
		if err != nil {
			s.log.Error("store: damaged game in the deadline index", "channel", e.channel, "err", "its key holds something that is not a game record")
			later = append(later, redis.Z{Score: float64(now.Add(damagedRetry).UnixMilli()), Member: e.member})
			continue
		}
		id, _ := vals[0].(string)
		version, verr := strconv.ParseInt(fmt.Sprint(vals[1]), 10, 64)
		switch {
		case vals[2] == nil || id != e.id:
			remove = append(remove, e.member) // the game is gone, or another game is there
			continue
		case verr != nil:
		case version > e.version:
			remove = append(remove, e.member) // the game moved on
			continue
		case version < e.version:
			continue // a save of that version is in flight (or failed); leave it
		}
		g, err := s.gameFromHash(e.channel, vals)
		if err != nil {
			var dmg *DamagedError
			if errors.As(err, &dmg) {
				s.log.Error("store: damaged game in the deadline index", "channel", e.channel, "err", dmg.Err)
				later = append(later, redis.Z{Score: float64(now.Add(damagedRetry).UnixMilli()), Member: e.member})
				continue
			}
			return nil, err
		}
		wake := g.Wake()
		switch {
		case wake.IsZero():
			remove = append(remove, e.member)
		case wake.After(now):
			moves = append(moves, redis.Z{Score: float64(wake.UnixMilli()), Member: e.member})
		case !seen[e.channel]:
			seen[e.channel] = true
			due = append(due, g)
		}
	}

	if len(remove)+len(moves)+len(later) > 0 {
		_, err := s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
			if len(remove) > 0 {
				pipe.ZRem(ctx, deadlinesKey, remove...)
			}
			if len(moves) > 0 {
				// XX: only entries still there; GT: never earlier than
				// a concurrent save made it.
				pipe.ZAddArgs(ctx, deadlinesKey, redis.ZAddArgs{XX: true, GT: true, Members: moves})
			}
			if len(later) > 0 {
				pipe.ZAddArgs(ctx, deadlinesKey, redis.ZAddArgs{XX: true, Members: later})
			}
			return nil
		})
		if err != nil {
			return nil, fail(caller, "tidy the deadline index", err)
		}
	}
	slices.SortFunc(due, func(a, b *Game) int { return a.Wake().Compare(b.Wake()) })
	return due, nil
}

// member is a deadline index entry: a game at one version.
type member struct {
	channel, id string
	version     int64
}

// parseMember reads "<channel>/<id>/<version>".
func parseMember(m string) (member, bool) {
	parts := strings.Split(m, "/")
	if len(parts) != 3 || checkID("channel", parts[0]) != nil || checkID("archive", parts[1]) != nil {
		return member{}, false
	}
	v, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil || v < 1 {
		return member{}, false
	}
	return member{parts[0], parts[1], v}, true
}
