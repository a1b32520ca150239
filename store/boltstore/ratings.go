package boltstore

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	bolt "go.etcd.io/bbolt"

	"arbiter/store"
)

// Ratings returns the ratings of players in game in guild, in order; a
// player without a record comes back as Rating{Player: id}.
func (s *Bolt) Ratings(ctx context.Context, guild, game string, players ...string) ([]store.Rating, error) {
	if err := store.CheckRatingArgs(guild, game, players); err != nil {
		return nil, fmt.Errorf("load ratings: %w", err)
	}
	var out []store.Rating
	err := s.view(ctx, "load ratings of guild "+guild, func(tx *bolt.Tx) error {
		var err error
		out, err = ratingsIn(sub(guildBucket(tx, guild), ratingsBucket(game)), guild, game, players)
		return err
	})
	return out, err
}

// ratingsIn reads players' ratings from b (which may be nil).
func ratingsIn(b *bolt.Bucket, guild, game string, players []string) ([]store.Rating, error) {
	vals := make([]any, len(players))
	for i, p := range players {
		if b == nil {
			continue
		}
		if v := b.Get([]byte(p)); v != nil {
			vals[i] = string(v)
		}
	}
	return store.DecodeRatings(guild, game, players, vals)
}

// UpdateRatings applies the result resultID to the ratings of game in
// guild once, as Redis.UpdateRatings does. update runs inside the write
// transaction, exactly once per applied result: it must not call the
// store.
func (s *Bolt) UpdateRatings(ctx context.Context, guild, game, resultID string, players []string,
	update func(current []store.Rating) ([]store.Rating, error)) (bool, error) {
	if err := store.CheckRatingArgs(guild, game, players); err != nil {
		return false, fmt.Errorf("update ratings: %w", err)
	}
	if err := store.CheckID("result", resultID); err != nil {
		return false, fmt.Errorf("update ratings: %w", err)
	}
	applied := false
	what := "update ratings of guild " + guild
	err := s.update(ctx, what, func(tx *bolt.Tx) error {
		gb, err := guildBucketW(tx, guild)
		if err != nil {
			return err
		}
		rated, err := gb.CreateBucketIfNotExists(ratedBucket(game))
		if err != nil {
			return err
		}
		if rated.Get([]byte(resultID)) != nil {
			return nil
		}
		ratings, err := gb.CreateBucketIfNotExists(ratingsBucket(game))
		if err != nil {
			return err
		}
		board, err := gb.CreateBucketIfNotExists(boardBucket(game))
		if err != nil {
			return err
		}
		cur, err := ratingsIn(ratings, guild, game, players)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		next, err := update(cur)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if len(next) != len(players) {
			return fmt.Errorf("%s: %w: update returned %d ratings for %d players", what, store.ErrInvalid, len(next), len(players))
		}
		for i := range next {
			if err := putRating(ratings, board, players[i], &next[i], s.now); err != nil {
				return fmt.Errorf("%s: %w", what, err)
			}
		}
		applied = true
		return rated.Put([]byte(resultID), nil)
	})
	return applied, err
}

// putRating writes one player's rating r and moves the player's place on
// the board.
func putRating(ratings, board *bolt.Bucket, player string, r *store.Rating, now func() time.Time) error {
	r.Player = player
	if r.Updated.IsZero() {
		r.Updated = now()
	}
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("%w: rating of %s does not encode: %v", store.ErrInvalid, player, err)
	}
	if old := ratings.Get([]byte(player)); old != nil {
		var o store.Rating
		if json.Unmarshal(old, &o) == nil {
			if err := board.Delete(boardPlace(o.Rating, player)); err != nil {
				return err
			}
		}
	}
	if err := ratings.Put([]byte(player), data); err != nil {
		return err
	}
	return board.Put(boardPlace(r.Rating, player), nil)
}

// boardPlace orders a player by rating: the float's bits made to sort as
// unsigned bytes, then the player.
func boardPlace(rating float64, player string) []byte {
	bits := math.Float64bits(rating)
	if bits&(1<<63) == 0 {
		bits |= 1 << 63
	} else {
		bits = ^bits
	}
	return append(u64(bits), player...)
}

// Leaderboard returns the ratings of game in guild, best first, from
// offset on (at most limit, at most MaxList).
func (s *Bolt) Leaderboard(ctx context.Context, guild, game string, offset, limit int) ([]store.Rating, error) {
	if err := store.CheckID("guild", guild); err != nil {
		return nil, fmt.Errorf("leaderboard: %w", err)
	}
	if err := store.CheckID("game", game); err != nil {
		return nil, fmt.Errorf("leaderboard: %w", err)
	}
	offset = max(offset, 0)
	limit = store.ListLimit(limit)
	var out []store.Rating
	err := s.view(ctx, "leaderboard of guild "+guild, func(tx *bolt.Tx) error {
		gb := guildBucket(tx, guild)
		board, ratings := sub(gb, boardBucket(game)), sub(gb, ratingsBucket(game))
		if board == nil || ratings == nil {
			return nil
		}
		c := board.Cursor()
		skipped := 0
		for k, _ := c.Last(); k != nil && len(out) < limit; k, _ = c.Prev() {
			if skipped < offset {
				skipped++
				continue
			}
			player := string(k[8:])
			var r store.Rating
			if err := json.Unmarshal(ratings.Get([]byte(player)), &r); err != nil {
				s.log.Warn("store: damaged rating left out of a leaderboard", "guild", guild, "game", game, "player", player, "err", err)
				continue
			}
			r.Player = player
			out = append(out, r)
		}
		return nil
	})
	return out, err
}

// ChannelSetting returns a channel's setting called key, or "" when it is
// not set.
func (s *Bolt) ChannelSetting(ctx context.Context, channel, key string) (string, error) {
	if err := store.CheckID("channel", channel); err != nil {
		return "", fmt.Errorf("channel setting: %w", err)
	}
	var v string
	err := s.view(ctx, "read setting "+key+" of channel "+channel, func(tx *bolt.Tx) error {
		v = string(tx.Bucket(bSettings).Get(cat(channel, 0, key)))
		return nil
	})
	return v, err
}

// SetChannelSetting sets a channel's setting called key to value; an
// empty value removes it. Settings outlive the channel's games.
func (s *Bolt) SetChannelSetting(ctx context.Context, channel, key, value string) error {
	if err := store.CheckID("channel", channel); err != nil {
		return fmt.Errorf("set channel setting: %w", err)
	}
	return s.update(ctx, "set setting "+key+" of channel "+channel, func(tx *bolt.Tx) error {
		b := tx.Bucket(bSettings)
		if value == "" {
			return b.Delete(cat(channel, 0, key))
		}
		return b.Put(cat(channel, 0, key), []byte(value))
	})
}

// ClearRatings deletes the guild's ratings and leaderboards of every
// game, in one transaction; its rated results stay.
func (s *Bolt) ClearRatings(ctx context.Context, guild string) (int, error) {
	if err := store.CheckID("guild", guild); err != nil {
		return 0, fmt.Errorf("clear ratings: %w", err)
	}
	n := 0
	err := s.update(ctx, "clear ratings of guild "+guild, func(tx *bolt.Tx) error {
		n = 0
		gb := guildBucket(tx, guild)
		if gb == nil {
			return nil
		}
		var drop [][]byte
		if err := gb.ForEachBucket(func(name []byte) error {
			if bytes.HasPrefix(name, []byte("ratings:")) {
				n += gb.Bucket(name).Stats().KeyN
				drop = append(drop, bytes.Clone(name))
			}
			if bytes.HasPrefix(name, []byte("board:")) {
				drop = append(drop, bytes.Clone(name))
			}
			return nil
		}); err != nil {
			return err
		}
		for _, name := range drop {
			if err := gb.DeleteBucket(name); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}
