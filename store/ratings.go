package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Rating is one player's standing in one game in one guild: the Glicko-2
// numbers (computed by the caller; the store only keeps them) and the
// results behind them.
type Rating struct {
	Player     string    `json:"player"`     // a Discord user id, "bot:<level>" or "program:<name>"
	Name       string    `json:"name"`       // the display name at the last update
	Rating     float64   `json:"rating"`     // Glicko-2 rating; also the leaderboard's order
	Deviation  float64   `json:"deviation"`  // Glicko-2 rating deviation
	Volatility float64   `json:"volatility"` // Glicko-2 volatility
	Games      int       `json:"games"`      // rated games played
	Wins       int       `json:"wins"`
	Draws      int       `json:"draws"`
	Losses     int       `json:"losses"`
	Updated    time.Time `json:"updated"` // when the last result was applied
}

// maxRatingRetries bounds the optimistic retries of UpdateRatings.
const maxRatingRetries = 20

// Ratings returns the ratings of players in game in guild, in order. A
// player without a record comes back as Rating{Player: id}, with Games 0:
// the caller gives it its starting numbers.
func (s *Redis) Ratings(ctx context.Context, guild, game string, players ...string) ([]Rating, error) {
	if err := checkRatingArgs(guild, game, players); err != nil {
		return nil, fmt.Errorf("load ratings: %w", err)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	vals, err := s.rdb.HMGet(ctx, ratingsKey(guild, game), players...).Result()
	if err != nil {
		return nil, fail(caller, "load ratings of guild "+guild, err)
	}
	return decodeRatings(guild, game, players, vals)
}

func checkRatingArgs(guild, game string, players []string) error {
	if err := checkID("guild", guild); err != nil {
		return err
	}
	if err := checkID("game", game); err != nil {
		return err
	}
	if len(players) == 0 {
		return fmt.Errorf("%w: no players", ErrInvalid)
	}
	for _, p := range players {
		if p == "" || len(p) > 128 {
			return fmt.Errorf("%w: player id %.20q is empty or too long", ErrInvalid, p)
		}
	}
	return nil
}

func decodeRatings(guild, game string, players []string, vals []any) ([]Rating, error) {
	out := make([]Rating, len(players))
	for i, v := range vals {
		out[i] = Rating{Player: players[i]}
		data, ok := v.(string)
		if !ok {
			continue
		}
		if err := json.Unmarshal([]byte(data), &out[i]); err != nil {
			return nil, fmt.Errorf("the %s rating of %s in guild %s is damaged: %v", game, players[i], guild, err)
		}
		out[i].Player = players[i]
	}
	return out, nil
}

// UpdateRatings applies the result of one finished game to the ratings of
// game in guild, once: resultID (the archive id) is remembered, and a
// second call with it changes nothing and returns false. update gets the
// players' current ratings (as Ratings returns them) and returns the new
// ones; it may be called more than once when other updates race, and must
// not have side effects. The leaderboard follows the new ratings.
func (s *Redis) UpdateRatings(ctx context.Context, guild, game, resultID string, players []string,
	update func(current []Rating) ([]Rating, error)) (bool, error) {
	if err := checkRatingArgs(guild, game, players); err != nil {
		return false, fmt.Errorf("update ratings: %w", err)
	}
	if err := checkID("result", resultID); err != nil {
		return false, fmt.Errorf("update ratings: %w", err)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	keys := []string{ratingsKey(guild, game), ratedKey(guild, game)}
	applied := false
	for range maxRatingRetries {
		applied = false
		var own error // an error of ours or of update, not of Redis
		err := s.rdb.Watch(ctx, func(tx *redis.Tx) error {
			done, err := tx.SIsMember(ctx, keys[1], resultID).Result()
			if err != nil || done {
				return err
			}
			vals, err := tx.HMGet(ctx, keys[0], players...).Result()
			if err != nil {
				return err
			}
			cur, err := decodeRatings(guild, game, players, vals)
			if err != nil {
				own = err
				return err
			}
			next, err := update(cur)
			if err != nil {
				own = err
				return err
			}
			if len(next) != len(players) {
				own = fmt.Errorf("%w: update returned %d ratings for %d players", ErrInvalid, len(next), len(players))
				return own
			}
			fields := make([]any, 0, 2*len(next))
			board := make([]redis.Z, 0, len(next))
			for i := range next {
				next[i].Player = players[i]
				if next[i].Updated.IsZero() {
					next[i].Updated = s.now()
				}
				data, err := json.Marshal(next[i])
				if err != nil {
					own = fmt.Errorf("%w: rating of %s does not encode: %v", ErrInvalid, players[i], err)
					return own
				}
				fields = append(fields, players[i], data)
				board = append(board, redis.Z{Score: next[i].Rating, Member: players[i]})
			}
			_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
				pipe.HSet(ctx, keys[0], fields...)
				pipe.ZAdd(ctx, boardKey(guild, game), board...)
				pipe.SAdd(ctx, keys[1], resultID)
				return nil
			})
			if err == nil {
				applied = true
			}
			return err
		}, keys[0], keys[1])
		if errors.Is(err, redis.TxFailedErr) {
			continue
		}
		if own != nil {
			return false, fmt.Errorf("update ratings of guild %s: %w", guild, own)
		}
		if err != nil {
			return false, fail(caller, "update ratings of guild "+guild, err)
		}
		return applied, nil
	}
	return false, fmt.Errorf("update ratings of guild %s: %w: %d updates raced it", guild, ErrConflict, maxRatingRetries)
}

// Leaderboard returns the ratings of game in guild, best first, from
// offset on (at most limit, at most MaxList).
func (s *Redis) Leaderboard(ctx context.Context, guild, game string, offset, limit int) ([]Rating, error) {
	if err := checkID("guild", guild); err != nil {
		return nil, fmt.Errorf("leaderboard: %w", err)
	}
	if err := checkID("game", game); err != nil {
		return nil, fmt.Errorf("leaderboard: %w", err)
	}
	if offset < 0 {
		offset = 0
	}
	if limit <= 0 || limit > MaxList {
		limit = MaxList
	}
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
	out := make([]Rating, 0, len(ids))
	for i, v := range vals {
		data, ok := v.(string)
		if !ok {
			continue
		}
		var r Rating
		if err := json.Unmarshal([]byte(data), &r); err != nil {
			s.log.Warn("store: damaged rating left out of a leaderboard", "guild", guild, "game", game, "player", ids[i], "err", err)
			continue
		}
		r.Player = ids[i]
		out = append(out, r)
	}
	return out, nil
}
