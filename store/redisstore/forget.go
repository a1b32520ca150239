package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"arbiter/store"
)

// Forget removes or anonymises the person user everywhere in Redis
// (store.Store's promise, by store.Scrubber's rules): each running game
// that mentions them through Load and Save (so the save is a
// compare-and-set that moves the game and its deadline on a version);
// every other key by its type, a hash field, set or sorted-set member
// that holds their id deleted with the entry. Then, on every master, it
// has Redis write its RDB snapshot again and, with the append-only file
// on, rewrite that file, and waits for both: a file Redis wrote before
// still holds the person until then. A backup (RDB or append-only file)
// copied before Forget still does.
func (s *Redis) Forget(ctx context.Context, user string) (store.ForgetReport, error) {
	var rep store.ForgetReport
	sc, err := store.NewScrubber(user)
	if err != nil {
		return rep, fmt.Errorf("forget: %w", err)
	}
	// Learn the person's names from everything first.
	if err := s.scanKeys(ctx, "*", func(c redis.Cmdable, key string) error {
		return s.eachValue(ctx, c, key, func(v string) { sc.Learn([]byte(v)) })
	}); err != nil {
		return rep, fail(ctx, "forget: read", err)
	}
	var channels []string
	if err := s.scanKeys(ctx, "*", func(c redis.Cmdable, key string) error {
		if strings.HasPrefix(key, "{ch:") && strings.HasSuffix(key, "}:game") {
			channels = append(channels, tagOf(key, "{ch:"))
			return nil
		}
		if strings.HasPrefix(key, "{ch:") && strings.HasSuffix(key, "}:moves") && !sc.KeyMentions([]byte(key)) {
			return nil // a running game's moves: with its game
		}
		r, err := s.forgetKey(ctx, c, sc, key)
		rep.Add(r)
		return err
	}); err != nil {
		return rep, fail(ctx, "forget", err)
	}
	for _, ch := range channels {
		r, err := s.forgetGame(ctx, sc, ch)
		rep.Add(r)
		if err != nil {
			return rep, err
		}
	}
	if err := s.rewriteFiles(ctx); err != nil {
		return rep, fmt.Errorf("forget: the person is forgotten in Redis, but its files were not written again: %w", err)
	}
	s.log.Info("store: a person forgotten", "rewritten", rep.Rewritten, "deleted", rep.Deleted, "names", sc.Names())
	return rep, nil
}

// forgetGame rewrites the running game of channel without the person,
// through Load and Save, again on a conflict.
func (s *Redis) forgetGame(ctx context.Context, sc *store.Scrubber, channel string) (store.ForgetReport, error) {
	var rep store.ForgetReport
	if sc.KeyMentions([]byte(channel)) {
		return rep, nil // the person's own settings channel holds no game
	}
	for try := 0; ; try++ {
		g, err := s.Load(ctx, channel)
		if errors.Is(err, store.ErrNotFound) {
			return rep, nil
		}
		var dmg *store.DamagedError
		if errors.As(err, &dmg) || err == nil && g.Status != store.Active {
			// Not a game record, or a finished one left in its channel
			// (whose archive copy is scrubbed with the archive): its keys
			// are scrubbed as they are.
			for _, key := range []string{gameKey(channel), movesKey(channel)} {
				r, err := s.forgetKey(ctx, s.rdb, sc, key)
				rep.Add(r)
				if err != nil {
					return rep, err
				}
			}
			return rep, nil
		}
		if err != nil {
			return rep, fmt.Errorf("forget: %w", err)
		}
		rec, err := store.EncodeRecord(g)
		if err != nil {
			return rep, fmt.Errorf("forget: the game in channel %s: %w", channel, err)
		}
		out, changed, err := sc.RewriteRecord(rec, false)
		if err != nil || !changed {
			return rep, err
		}
		r, err := store.DecodeRecord(out)
		if err != nil {
			return rep, fmt.Errorf("forget: the game in channel %s: %w", channel, err)
		}
		n, err := r.Game(s.reg)
		if err != nil {
			return rep, fmt.Errorf("forget: the game in channel %s: %w", channel, err)
		}
		n.SetStoredMoves(nil) // every move is written again
		err = s.Save(ctx, n)
		if errors.Is(err, store.ErrConflict) && try < 10 {
			continue
		}
		if err != nil {
			return rep, fmt.Errorf("forget: %w", err)
		}
		rep.Rewritten++
		return rep, nil
	}
}

// eachValue calls fn with every value the key holds (fields and members
// too).
func (s *Redis) eachValue(ctx context.Context, c redis.Cmdable, key string, fn func(string)) error {
	typ, err := c.Type(ctx, key).Result()
	if err != nil {
		return err
	}
	switch typ {
	case "string":
		v, err := c.Get(ctx, key).Result()
		if errors.Is(err, redis.Nil) {
			return nil
		}
		fn(v)
		return err
	case "hash":
		m, err := c.HGetAll(ctx, key).Result()
		for _, v := range m {
			fn(v)
		}
		return err
	case "list":
		l, err := c.LRange(ctx, key, 0, -1).Result()
		for _, v := range l {
			fn(v)
		}
		return err
	}
	return nil
}

// forgetKey scrubs one key that is not a running game's: the whole key
// when its name holds the person's id, else each value, field and member
// by its type. A stream (the bot-turn queue) holds channels and games,
// never a person, and is left alone.
func (s *Redis) forgetKey(ctx context.Context, c redis.Cmdable, sc *store.Scrubber, key string) (store.ForgetReport, error) {
	var rep store.ForgetReport
	if sc.KeyMentions([]byte(key)) {
		n, err := c.Del(ctx, key).Result()
		rep.Deleted += int(n)
		return rep, err
	}
	typ, err := c.Type(ctx, key).Result()
	if err != nil {
		return rep, err
	}
	switch typ {
	case "string":
		v, err := c.Get(ctx, key).Result()
		if errors.Is(err, redis.Nil) {
			return rep, nil
		}
		if err != nil {
			return rep, err
		}
		out, drop, changed := sc.Rewrite([]byte(v))
		switch {
		case drop:
			rep.Deleted++
			return rep, c.Del(ctx, key).Err()
		case changed:
			rep.Rewritten++
			return rep, c.SetArgs(ctx, key, out, redis.SetArgs{KeepTTL: true}).Err()
		}
	case "hash":
		m, err := c.HGetAll(ctx, key).Result()
		if err != nil {
			return rep, err
		}
		for f, v := range m {
			out, drop, changed := sc.Rewrite([]byte(v))
			switch {
			case sc.KeyMentions([]byte(f)) || drop:
				rep.Deleted++
				err = c.HDel(ctx, key, f).Err()
			case changed:
				rep.Rewritten++
				err = c.HSet(ctx, key, f, out).Err()
			}
			if err != nil {
				return rep, err
			}
		}
	case "list":
		l, err := c.LRange(ctx, key, 0, -1).Result()
		if err != nil {
			return rep, err
		}
		for i, v := range l {
			out, drop, changed := sc.Rewrite([]byte(v))
			switch {
			case drop:
				// Marked, then removed by its mark, so that the indexes
				// of the rest stay.
				rep.Deleted++
				if err := c.LSet(ctx, key, int64(i), "\x00forgotten").Err(); err != nil {
					return rep, err
				}
			case changed:
				rep.Rewritten++
				if err := c.LSet(ctx, key, int64(i), out).Err(); err != nil {
					return rep, err
				}
			}
		}
		return rep, c.LRem(ctx, key, 0, "\x00forgotten").Err()
	case "set":
		members, err := c.SMembers(ctx, key).Result()
		if err != nil {
			return rep, err
		}
		for _, m := range members {
			if sc.Mentions([]byte(m)) {
				rep.Deleted++
				if err := c.SRem(ctx, key, m).Err(); err != nil {
					return rep, err
				}
			}
		}
	case "zset":
		members, err := c.ZRange(ctx, key, 0, -1).Result()
		if err != nil {
			return rep, err
		}
		for _, m := range members {
			if sc.Mentions([]byte(m)) {
				rep.Deleted++
				if err := c.ZRem(ctx, key, m).Err(); err != nil {
					return rep, err
				}
			}
		}
	}
	return rep, nil
}

// rewriteFiles has every master write its RDB snapshot again and, when
// its append-only file is on, rewrite that file, and waits until both
// are done.
func (s *Redis) rewriteFiles(ctx context.Context) error {
	each := func(ctx context.Context, c *redis.Client) error {
		if err := waitPersistence(ctx, c); err != nil {
			return err
		}
		info, err := c.Info(ctx, "persistence").Result()
		if err != nil {
			return err
		}
		if err := c.BgSave(ctx).Err(); err != nil {
			return fmt.Errorf("BGSAVE: %w", err)
		}
		if strings.Contains(info, "aof_enabled:1") {
			if err := waitPersistence(ctx, c); err != nil {
				return err
			}
			if err := c.BgRewriteAOF(ctx).Err(); err != nil {
				return fmt.Errorf("BGREWRITEAOF: %w", err)
			}
		}
		return waitPersistence(ctx, c)
	}
	switch c := s.rdb.(type) {
	case *redis.ClusterClient:
		return c.ForEachMaster(ctx, each)
	case *redis.Client:
		return each(ctx, c)
	}
	return fmt.Errorf("a Redis client of type %T", s.rdb)
}

// waitPersistence waits until Redis writes neither its snapshot nor its
// append-only file in the background, nor has a rewrite scheduled.
func waitPersistence(ctx context.Context, c *redis.Client) error {
	for {
		info, err := c.Info(ctx, "persistence").Result()
		if err != nil {
			return err
		}
		if !strings.Contains(info, "rdb_bgsave_in_progress:1") && !strings.Contains(info, "aof_rewrite_in_progress:1") &&
			!strings.Contains(info, "aof_rewrite_scheduled:1") {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// ForgetFinished deletes, in every guild, the archived games that
// finished before before: from the archive's index by finish time, then
// from the archive.
func (s *Redis) ForgetFinished(ctx context.Context, before time.Time) (int, error) {
	if before.IsZero() {
		return 0, nil
	}
	n := 0
	max := fmt.Sprintf("(%d", before.UnixMilli())
	err := s.scanKeys(ctx, "{g:*}:archived", func(c redis.Cmdable, key string) error {
		guild := tagOf(key, "{g:")
		for {
			ids, err := c.ZRangeByScore(ctx, key, &redis.ZRangeBy{Min: "-inf", Max: max, Count: 500}).Result()
			if err != nil || len(ids) == 0 {
				return err
			}
			if err := c.HDel(ctx, archiveKey(guild), ids...).Err(); err != nil {
				return err
			}
			members := make([]any, len(ids))
			for i, id := range ids {
				members[i] = id
			}
			if err := c.ZRem(ctx, key, members...).Err(); err != nil {
				return err
			}
			n += len(ids)
		}
	})
	if err != nil {
		return n, fail(ctx, "forget old finished games", err)
	}
	if n > 0 {
		s.log.Info("store: old finished games forgotten", "games", n, "finished_before", before.UTC())
	}
	return n, nil
}
