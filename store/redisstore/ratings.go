package redisstore

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"arbiter/store"
)

// ratingLockTTL is how long a rating update may hold its game's ratings
// before another may take them over; the write is fenced by the holder's
// token, so an update that outlives it changes nothing and starts again.
const ratingLockTTL = 5 * time.Second

// Ratings returns the ratings of players in game in guild, in order. A
// player without a record comes back as Rating{Player: id}, with Games 0:
// the caller gives it its starting numbers.
func (s *Redis) Ratings(ctx context.Context, guild, game string, players ...string) ([]store.Rating, error) {
	if err := store.CheckRatingArgs(guild, game, players); err != nil {
		return nil, fmt.Errorf("load ratings: %w", err)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	vals, err := s.rdb.HMGet(ctx, ratingsKey(guild, game), players...).Result()
	if err != nil {
		return nil, fail(caller, "load ratings of guild "+guild, err)
	}
	return store.DecodeRatings(guild, game, players, vals)
}

// UpdateRatings applies the result of one finished game to the ratings of
// game in guild, once: resultID (the archive id) is remembered, and a
// second call with it changes nothing and returns false. update gets the
// players' current ratings (as Ratings returns them) and returns the new
// ones; it may be called more than once, and must not have side effects.
// The leaderboard follows the new ratings.
//
// Updates of one guild's game take turns: each waits for a short lock
// (with jittered backoff, as long as ctx allows) and writes only while it
// still holds it (a fenced script), so no update is lost or fails because
// others finished at the same time.
func (s *Redis) UpdateRatings(ctx context.Context, guild, game, resultID string, players []string,
	update func(current []store.Rating) ([]store.Rating, error)) (bool, error) {
	if err := store.CheckRatingArgs(guild, game, players); err != nil {
		return false, fmt.Errorf("update ratings: %w", err)
	}
	if err := store.CheckID("result", resultID); err != nil {
		return false, fmt.Errorf("update ratings: %w", err)
	}
	what := "update ratings of guild " + guild
	lock := ratingLockKey(guild, game)
	token := store.NewToken()
	backoff := time.Millisecond
	for {
		got, err := s.step(ctx, what, func(ctx context.Context) (bool, error) {
			return s.rdb.SetNX(ctx, lock, token, ratingLockTTL).Result()
		})
		if err != nil {
			return false, err
		}
		if !got {
			wait := backoff/2 + rand.N(backoff)
			backoff = min(2*backoff, 50*time.Millisecond)
			select {
			case <-ctx.Done():
				return false, fmt.Errorf("%s: %w (%w)", what, store.ErrUnavailable, ctx.Err())
			case <-time.After(wait):
			}
			continue
		}
		applied, retry, err := s.applyRating(ctx, guild, game, resultID, players, token, update)
		if !retry {
			if rerr := s.releaseRatingLock(ctx, lock, token); rerr != nil && err == nil {
				s.log.Warn("store: rating lock not released; it expires by itself", "guild", guild, "game", game, "err", rerr)
			}
			return applied, err
		}
	}
}

// step runs one round trip of a longer operation under the store's
// timeout, turning its error into a store error.
func (s *Redis) step(ctx context.Context, what string, f func(ctx context.Context) (bool, error)) (bool, error) {
	opCtx, cancel := s.op(ctx, 0)
	defer cancel()
	ok, err := f(opCtx)
	return ok, fail(ctx, what, err)
}

// ratingWriteScript writes new ratings if the caller still holds the
// ratings lock and the result is not rated yet. KEYS: lock, ratings,
// board, rated; ARGV: token, result id, then player, record, score for
// each player. It returns 1 when written, 0 when rated before, -1 when the
// lock was lost.
var ratingWriteScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
if redis.call('SISMEMBER', KEYS[4], ARGV[2]) == 1 then return 0 end
for i = 3, #ARGV, 3 do
  redis.call('HSET', KEYS[2], ARGV[i], ARGV[i+1])
  redis.call('ZADD', KEYS[3], ARGV[i+2], ARGV[i])
end
redis.call('SADD', KEYS[4], ARGV[2])
return 1
`)

// applyRating reads, updates and writes the ratings while holding the
// lock; retry reports a lost lock (start again).
func (s *Redis) applyRating(ctx context.Context, guild, game, resultID string, players []string, token string,
	update func(current []store.Rating) ([]store.Rating, error)) (applied, retry bool, err error) {
	what := "update ratings of guild " + guild
	var rated *redis.BoolCmd
	var vals *redis.SliceCmd
	if _, err := s.step(ctx, what, func(ctx context.Context) (bool, error) {
		_, err := s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
			rated = pipe.SIsMember(ctx, ratedKey(guild, game), resultID)
			vals = pipe.HMGet(ctx, ratingsKey(guild, game), players...)
			return nil
		})
		return true, err
	}); err != nil {
		return false, false, err
	}
	if rated.Val() {
		return false, false, nil
	}
	cur, err := store.DecodeRatings(guild, game, players, vals.Val())
	if err != nil {
		return false, false, fmt.Errorf("%s: %w", what, err)
	}
	next, err := update(cur)
	if err != nil {
		return false, false, fmt.Errorf("%s: %w", what, err)
	}
	if len(next) != len(players) {
		return false, false, fmt.Errorf("%s: %w: update returned %d ratings for %d players", what, store.ErrInvalid, len(next), len(players))
	}
	args := []any{token, resultID}
	for i := range next {
		next[i].Player = players[i]
		if next[i].Updated.IsZero() {
			next[i].Updated = s.now()
		}
		data, err := json.Marshal(next[i])
		if err != nil {
			return false, false, fmt.Errorf("%s: %w: rating of %s does not encode: %v", what, store.ErrInvalid, players[i], err)
		}
		args = append(args, players[i], data, next[i].Rating)
	}
	keys := []string{ratingLockKey(guild, game), ratingsKey(guild, game), boardKey(guild, game), ratedKey(guild, game)}
	var res int64
	if _, err := s.step(ctx, what, func(ctx context.Context) (bool, error) {
		var err error
		res, err = ratingWriteScript.Run(ctx, s.rdb, keys, args...).Int64()
		return true, err
	}); err != nil {
		return false, false, err
	}
	switch res {
	case 1:
		return true, false, nil
	case 0:
		return false, false, nil
	}
	return false, true, nil
}

// releaseRatingLock frees the ratings lock if token still holds it.
func (s *Redis) releaseRatingLock(ctx context.Context, lock, token string) error {
	ctx, cancel := s.op(context.WithoutCancel(ctx), 0)
	defer cancel()
	_, err := s.runOne(ctx, releaseScript, []string{lock}, token)
	return err
}

// Leaderboard returns the ratings of game in guild, best first, from
// offset on (at most limit, at most MaxList).
func (s *Redis) Leaderboard(ctx context.Context, guild, game string, offset, limit int) ([]store.Rating, error) {
	if err := store.CheckID("guild", guild); err != nil {
		return nil, fmt.Errorf("leaderboard: %w", err)
	}
	if err := store.CheckID("game", game); err != nil {
		return nil, fmt.Errorf("leaderboard: %w", err)
	}
	offset = max(offset, 0)
	limit = store.ListLimit(limit)
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	ids, err := s.rdb.ZRevRange(ctx, boardKey(guild, game), int64(offset), int64(offset+limit-1)).Result()
	if err != nil {
		return nil, fail(caller, "leaderboard of guild "+guild, err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	vals, err := s.rdb.HMGet(ctx, ratingsKey(guild, game), ids...).Result()
	if err != nil {
		return nil, fail(caller, "leaderboard of guild "+guild, err)
	}
	out := make([]store.Rating, 0, len(ids))
	for i, v := range vals {
		data, ok := v.(string)
		if !ok {
			continue
		}
		var r store.Rating
		if err := json.Unmarshal([]byte(data), &r); err != nil {
			s.log.Warn("store: damaged rating left out of a leaderboard", "guild", guild, "game", game, "player", ids[i], "err", err)
			continue
		}
		r.Player = ids[i]
		out = append(out, r)
	}
	return out, nil
}

// ratingLockKey is the lock that makes the rating updates of a guild's
// game take turns (in the guild's slot).
func ratingLockKey(guild, game string) string { return "{g:" + guild + "}:ratings-lock:" + game }

// ClearRatings deletes the guild's ratings and leaderboards of every game
// (the keys of the guild's slot); its rated results stay.
func (s *Redis) ClearRatings(ctx context.Context, guild string) (int, error) {
	if err := store.CheckID("guild", guild); err != nil {
		return 0, fmt.Errorf("clear ratings: %w", err)
	}
	n := 0
	for _, pattern := range []string{ratingsKey(guild, "*"), boardKey(guild, "*")} {
		err := s.scanKeys(ctx, pattern, func(c redis.Cmdable, key string) error {
			if strings.Contains(key, "}:ratings:") {
				k, err := c.HLen(ctx, key).Result()
				if err != nil {
					return err
				}
				n += int(k)
			}
			return c.Del(ctx, key).Err()
		})
		if err != nil {
			return 0, fail(ctx, "clear ratings of guild "+guild, err)
		}
	}
	return n, nil
}
