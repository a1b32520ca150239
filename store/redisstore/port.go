package redisstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"

	"arbiter/store"
)

var _ store.Porter = (*Redis)(nil)

// scanKeys calls fn with every key matching pattern, on every master of a
// cluster.
func (s *Redis) scanKeys(ctx context.Context, pattern string, fn func(c redis.Cmdable, key string) error) error {
	scan := func(ctx context.Context, c *redis.Client) error {
		it := c.Scan(ctx, 0, pattern, 500).Iterator()
		for it.Next(ctx) {
			if err := fn(c, it.Val()); err != nil {
				return err
			}
		}
		return it.Err()
	}
	switch c := s.rdb.(type) {
	case *redis.ClusterClient:
		return c.ForEachMaster(ctx, scan)
	case *redis.Client:
		return scan(ctx, c)
	}
	return fmt.Errorf("scan %s: a Redis client of type %T", pattern, s.rdb)
}

// tagOf returns the id inside a key's hash tag: "{ch:C}:game" -> "C".
func tagOf(key, prefix string) string {
	id, _, _ := strings.Cut(strings.TrimPrefix(key, prefix), "}")
	return id
}

// Walk calls fn with every item in Redis, key by key (not one snapshot:
// stop the bot while exporting).
func (s *Redis) Walk(ctx context.Context, fn func(store.Item) error) error {
	steps := []struct {
		pattern string
		each    func(c redis.Cmdable, key string) error
	}{
		{"{ch:*}:game", func(c redis.Cmdable, key string) error {
			channel := tagOf(key, "{ch:")
			g, err := s.Load(ctx, channel)
			if err != nil {
				return nil // damaged: left out, Load reports it
			}
			rec, err := store.EncodeRecord(g) // with its moves inline
			if err != nil {
				return err
			}
			return fn(store.Item{Type: "game", Channel: channel, Record: json.RawMessage(rec)})
		}},
		{"{ch:*}:settings", func(c redis.Cmdable, key string) error {
			vals, err := c.HGetAll(ctx, key).Result()
			if err != nil {
				return err
			}
			for k, v := range vals {
				if err := fn(store.Item{Type: "setting", Channel: tagOf(key, "{ch:"), Key: k, Value: v}); err != nil {
					return err
				}
			}
			return nil
		}},
		{"{g:*}:seq", func(c redis.Cmdable, key string) error {
			n, err := c.Get(ctx, key).Uint64()
			if err != nil {
				return err
			}
			return fn(store.Item{Type: "sequence", Guild: tagOf(key, "{g:"), Next: n})
		}},
		{"{g:*}:archive", func(c redis.Cmdable, key string) error {
			vals, err := c.HGetAll(ctx, key).Result()
			if err != nil {
				return err
			}
			for id, rec := range vals {
				if err := fn(store.Item{Type: "archived", Guild: tagOf(key, "{g:"), ID: id, Record: json.RawMessage(rec)}); err != nil {
					return err
				}
			}
			return nil
		}},
		{"{g:*}:ratings:*", func(c redis.Cmdable, key string) error {
			vals, err := c.HGetAll(ctx, key).Result()
			if err != nil {
				return err
			}
			_, game, _ := strings.Cut(key, "}:ratings:")
			for player, data := range vals {
				var r store.Rating
				if json.Unmarshal([]byte(data), &r) != nil {
					continue // damaged: left out, as the leaderboard does
				}
				r.Player = player
				if err := fn(store.Item{Type: "rating", Guild: tagOf(key, "{g:"), Game: game, Rating: &r}); err != nil {
					return err
				}
			}
			return nil
		}},
		{"{g:*}:rated:*", func(c redis.Cmdable, key string) error {
			ids, err := c.SMembers(ctx, key).Result()
			if err != nil {
				return err
			}
			_, game, _ := strings.Cut(key, "}:rated:")
			for _, id := range ids {
				if err := fn(store.Item{Type: "rated", Guild: tagOf(key, "{g:"), Game: game, Result: id}); err != nil {
					return err
				}
			}
			return nil
		}},
	}
	for _, st := range steps {
		if err := s.scanKeys(ctx, st.pattern, st.each); err != nil {
			return fail(ctx, "walk "+st.pattern, err)
		}
	}
	for p := range s.parts {
		msgs, err := s.rdb.XRange(ctx, queuePart(p), "-", "+").Result()
		if err != nil {
			return fail(ctx, "walk the bot-turn queue", err)
		}
		for _, m := range msgs {
			if job, err := s.parseJob(m); err == nil {
				if err := fn(store.Item{Type: "botturn", Channel: job.Channel, ID: job.GameID, Version: job.Version}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// Empty reports whether Redis holds no key of the store's games, guilds
// or channels.
func (s *Redis) Empty(ctx context.Context) (bool, error) {
	empty := true
	for _, pattern := range []string{"{ch:*", "{g:*"} {
		err := s.scanKeys(ctx, pattern, func(redis.Cmdable, string) error { empty = false; return nil })
		if err != nil {
			return false, fail(ctx, "look into Redis", err)
		}
	}
	return empty, nil
}

// Put writes checked items in one pipeline.
func (s *Redis) Put(ctx context.Context, items []store.Item) error {
	_, err := s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for _, it := range items {
			if err := s.putItem(ctx, pipe, it); err != nil {
				return fmt.Errorf("%s: %w", it.Type, err)
			}
		}
		return nil
	})
	return fail(ctx, "import", err)
}

// putItem queues the commands that write one item. A game's moves go to
// its channel's move list beside a record without them (schema 2).
func (s *Redis) putItem(ctx context.Context, pipe redis.Pipeliner, it store.Item) error {
	switch it.Type {
	case "game":
		r, err := store.DecodeRecord(it.Record)
		if err != nil {
			return err
		}
		moves := r.Moves
		r.Moves, r.Schema = nil, store.SchemaVersion
		head, err := json.Marshal(r)
		if err != nil {
			return err
		}
		list := make([]any, len(moves))
		for i, m := range moves {
			if list[i], err = store.EncodeMove(m); err != nil {
				return err
			}
		}
		g := store.Game{Status: r.Status, Deadline: store.TimeOf(r.Deadline), RemindAt: store.TimeOf(r.RemindAt)}
		pipe.HSet(ctx, gameKey(it.Channel), "id", r.ID, "version", strconv.FormatInt(r.Version, 10),
			"status", string(r.Status), "record", string(head), "token", "")
		pipe.Del(ctx, movesKey(it.Channel))
		if len(list) > 0 {
			pipe.RPush(ctx, movesKey(it.Channel), list...)
		}
		if wake := g.Wake(); !wake.IsZero() {
			pipe.ZAdd(ctx, s.deadlineKey(it.Channel), redis.Z{Score: float64(wake.UnixMilli()), Member: deadlineMember(it.Channel, r.ID, r.Version)})
		}
		pipe.SAdd(ctx, activeKey(r.Guild), it.Channel)
	case "setting":
		pipe.HSet(ctx, settingsKey(it.Channel), it.Key, it.Value)
	case "botturn":
		pipe.XAdd(ctx, &redis.XAddArgs{Stream: queuePart(s.part(it.Channel)), Values: []any{
			"channel", it.Channel, "game", it.ID, "version", it.Version, "queued", 0,
		}})
	case "sequence":
		pipe.Set(ctx, seqKey(it.Guild), it.Next, 0)
	case "archived":
		r, err := store.DecodeRecord(it.Record)
		if err != nil {
			return err
		}
		pipe.HSet(ctx, archiveKey(it.Guild), it.ID, string(it.Record))
		pipe.ZAdd(ctx, archiveIndexKey(it.Guild), redis.Z{Score: float64(r.FinishedAt().UnixMilli()), Member: it.ID})
	case "rating":
		data, err := json.Marshal(it.Rating)
		if err != nil {
			return err
		}
		pipe.HSet(ctx, ratingsKey(it.Guild, it.Game), it.Rating.Player, data)
		pipe.ZAdd(ctx, boardKey(it.Guild, it.Game), redis.Z{Score: it.Rating.Rating, Member: it.Rating.Player})
	case "rated":
		pipe.SAdd(ctx, ratedKey(it.Guild, it.Game), it.Result)
	}
	return nil
}
