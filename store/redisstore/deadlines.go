package redisstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"arbiter/store"
)

// Due returns the games whose wake time (see Game.Wake: a reminder or a
// deadline) is at or before now, earliest first, looking at no more than
// limit index entries (at most MaxList). A game stays due until a Save
// changes it, so a clock that crashes before acting finds it again.
//
// The deadline index is a hint; Due reads each record and puts the index
// right on the way: entries of versions that moved on or of games that are
// gone are removed, an entry earlier than its game's wake time is moved to
// it, a damaged game is logged and looked at again an hour later.
func (s *Redis) Due(ctx context.Context, now time.Time, limit int) ([]*store.Game, error) {
	limit = store.ListLimit(limit)
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()

	if s.cluster {
		s.repairIntents(ctx)
	}
	// Every partition in one pipeline (one round trip per node); a
	// partition whose node does not answer delays only its own games.
	upTo := strconv.FormatInt(now.UnixMilli(), 10)
	ranges := make([]*redis.StringSliceCmd, s.parts)
	_, _ = s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for p := range s.parts {
			ranges[p] = pipe.ZRangeByScore(ctx, deadlinesPart(p), &redis.ZRangeBy{Min: "-inf", Max: upTo, Count: int64(limit)})
		}
		return nil
	})
	type entry struct {
		key, member, channel, id string
		version                  int64
	}
	var (
		parsed  []entry
		remove  = map[string][]any{}
		reads   = map[string]gameRead{}
		failed  error
		answers int
	)
	for p, cmd := range ranges {
		entries, err := cmd.Result()
		if err != nil {
			failed = err
			s.log.Warn("store: a partition of the deadline index does not answer; its games wait", "partition", p, "err", err)
			continue
		}
		answers++
		for _, m := range entries {
			e, ok := parseMember(m)
			if !ok {
				remove[deadlinesPart(p)] = append(remove[deadlinesPart(p)], m)
				continue
			}
			parsed = append(parsed, entry{deadlinesPart(p), m, e.channel, e.id, e.version})
		}
	}
	if answers == 0 {
		return nil, fail(caller, "read the deadline index", failed)
	}
	if len(parsed) > 0 {
		// One script a channel: a record and its move list are read at
		// the same version.
		_ = s.pipeScripts(ctx, func(pipe redis.Pipeliner, retry bool) {
			clear(reads)
			for _, e := range parsed {
				if _, ok := reads[e.channel]; !ok {
					reads[e.channel] = readGame(ctx, pipe, e.channel, retry)
				}
			}
		})
	}

	var (
		due   []*store.Game
		seen  = map[string]bool{}
		moves = map[string][]redis.Z{}
		later = map[string][]redis.Z{}
	)
	for _, e := range parsed {
		read := reads[e.channel]
		vals, _, err := read.fields()
		if err != nil && !wrongType(err) {
			s.log.Warn("store: a game of the deadline index does not load; it waits", "channel", e.channel, "err", err)
			continue
		}
		if err != nil {
			s.log.Error("store: damaged game in the deadline index", "channel", e.channel, "err", "its keys hold something that is not a game record")
			later[e.key] = append(later[e.key], redis.Z{Score: float64(now.Add(store.DamagedRetry).UnixMilli()), Member: e.member})
			continue
		}
		id, _ := vals[0].(string)
		version, verr := strconv.ParseInt(fmt.Sprint(vals[1]), 10, 64)
		switch {
		case vals[2] == nil || id != e.id:
			remove[e.key] = append(remove[e.key], e.member) // the game is gone, or another game is there
			continue
		case verr != nil:
		case version > e.version:
			remove[e.key] = append(remove[e.key], e.member) // the game moved on
			continue
		case version < e.version:
			continue // a save of that version is being retried; leave it
		}
		g, err := s.gameFromRead(e.channel, read)
		if err != nil {
			var dmg *store.DamagedError
			if errors.As(err, &dmg) {
				s.log.Error("store: damaged game in the deadline index", "channel", e.channel, "err", dmg.Err)
				later[e.key] = append(later[e.key], redis.Z{Score: float64(now.Add(store.DamagedRetry).UnixMilli()), Member: e.member})
				continue
			}
			return nil, err
		}
		wake := g.Wake()
		switch {
		case wake.IsZero():
			remove[e.key] = append(remove[e.key], e.member)
		case wake.After(now):
			moves[e.key] = append(moves[e.key], redis.Z{Score: float64(wake.UnixMilli()), Member: e.member})
		case !seen[e.channel]:
			seen[e.channel] = true
			due = append(due, g)
		}
	}

	if len(remove)+len(moves)+len(later) > 0 {
		_, err := s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
			for key, ms := range remove {
				pipe.ZRem(ctx, key, ms...)
			}
			for key, zs := range moves {
				// XX: only entries still there; GT: never earlier than
				// a concurrent save made it.
				pipe.ZAddArgs(ctx, key, redis.ZAddArgs{XX: true, GT: true, Members: zs})
			}
			for key, zs := range later {
				pipe.ZAddArgs(ctx, key, redis.ZAddArgs{XX: true, Members: zs})
			}
			return nil
		})
		if err != nil {
			s.log.Warn("store: the deadline index is not tidied; the next look does it", "err", err)
		}
	}
	slices.SortFunc(due, func(a, b *store.Game) int { return a.Wake().Compare(b.Wake()) })
	if len(due) > limit {
		due = due[:limit]
	}
	return due, nil
}

// repairIntents writes the deadline entry of each channel whose save on a
// cluster noted its intent (see Redis.run) longer ago than a save can
// still apply, and never cleared it: its process died between the
// compare-and-set and the entry, or lost the answer. The entry written is
// that of the game as stored, whatever that save did; the intent goes.
// A partition or game that does not answer is left for the next look.
func (s *Redis) repairIntents(ctx context.Context) {
	before := strconv.FormatInt(s.redisNow().Add(-2*s.timeout-time.Second).UnixMilli(), 10)
	ranges := make([]*redis.StringSliceCmd, s.parts)
	_, _ = s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for p := range s.parts {
			ranges[p] = pipe.ZRangeByScore(ctx, intentsPart(p), &redis.ZRangeBy{Min: "-inf", Max: before, Count: store.MaxList})
		}
		return nil
	})
	type intent struct{ key, member, channel string }
	var left []intent
	reads := map[string]gameRead{}
	for p, cmd := range ranges {
		members, err := cmd.Result()
		if err != nil {
			continue
		}
		for _, m := range members {
			channel, _, _ := cutLast(m, '/')
			left = append(left, intent{intentsPart(p), m, channel})
		}
	}
	if len(left) == 0 {
		return
	}
	if err := s.pipeScripts(ctx, func(pipe redis.Pipeliner, retry bool) {
		clear(reads)
		for _, in := range left {
			if _, ok := reads[in.channel]; !ok && in.channel != "" {
				reads[in.channel] = readGame(ctx, pipe, in.channel, retry)
			}
		}
	}); err != nil && !wrongType(err) {
		s.log.Warn("store: saves left unfinished on the cluster are not repaired yet; the next look does it", "err", err)
		return
	}
	_, err := s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for _, in := range left {
			if read, ok := reads[in.channel]; ok {
				if g, err := s.gameFromRead(in.channel, read); err == nil && !g.Wake().IsZero() {
					pipe.ZAdd(ctx, s.deadlineKey(in.channel), redis.Z{Score: float64(g.Wake().UnixMilli()), Member: deadlineMember(in.channel, g.ID, g.Version)})
				}
			}
			pipe.ZRem(ctx, in.key, in.member)
		}
		return nil
	})
	if err != nil {
		s.log.Warn("store: saves left unfinished on the cluster are not repaired yet; the next look does it", "err", err)
		return
	}
	s.log.Info("store: repaired the deadline entries of saves left unfinished", "saves", len(left))
}

// cutLast slices s around the last sep.
func cutLast(s string, sep byte) (before, after string, found bool) {
	if i := strings.LastIndexByte(s, sep); i >= 0 {
		return s[:i], s[i+1:], true
	}
	return s, "", false
}

// member is a deadline index entry: a game at one version.
type member struct {
	channel, id string
	version     int64
}

// parseMember reads "<channel>/<id>/<version>".
func parseMember(m string) (member, bool) {
	parts := strings.Split(m, "/")
	if len(parts) != 3 || store.CheckID("channel", parts[0]) != nil || store.CheckID("archive", parts[1]) != nil {
		return member{}, false
	}
	v, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil || v < 1 {
		return member{}, false
	}
	return member{parts[0], parts[1], v}, true
}
