package boltstore

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"arbiter/store"
)

var _ store.Porter = (*Bolt)(nil)

// Walk calls fn with every item of the store, from one consistent read
// transaction (writers go on meanwhile).
func (s *Bolt) Walk(ctx context.Context, fn func(store.Item) error) error {
	return s.view(ctx, "walk the store", func(tx *bolt.Tx) error {
		err := tx.Bucket(bGames).ForEach(func(k, v []byte) error {
			return fn(store.Item{Type: "game", Channel: string(k), Record: wholeRecord(tx, string(k), v)})
		})
		if err != nil {
			return err
		}
		err = tx.Bucket(bSettings).ForEach(func(k, v []byte) error {
			channel, key, _ := strings.Cut(string(k), "\x00")
			return fn(store.Item{Type: "setting", Channel: channel, Key: key, Value: string(v)})
		})
		if err != nil {
			return err
		}
		err = tx.Bucket(bQueue).ForEach(func(k, v []byte) error {
			if len(k) != 8 {
				return nil
			}
			job, err := parseBoltJob(binary.BigEndian.Uint64(k), v)
			if err != nil {
				return nil // malformed: a claim drops it
			}
			return fn(store.Item{Type: "botturn", Channel: job.Channel, ID: job.GameID, Version: job.Version})
		})
		if err != nil {
			return err
		}
		return tx.Bucket(bGuilds).ForEachBucket(func(name []byte) error {
			return walkGuild(tx.Bucket(bGuilds).Bucket(name), string(name), fn)
		})
	})
}

// walkGuild walks one guild's bucket.
func walkGuild(gb *bolt.Bucket, guild string, fn func(store.Item) error) error {
	if err := fn(store.Item{Type: "sequence", Guild: guild, Next: gb.Sequence()}); err != nil {
		return err
	}
	if arch := gb.Bucket(bArchive); arch != nil {
		err := arch.ForEach(func(k, v []byte) error {
			return fn(store.Item{Type: "archived", Guild: guild, ID: string(k), Record: slices.Clone(v)})
		})
		if err != nil {
			return err
		}
	}
	return gb.ForEachBucket(func(name []byte) error {
		b := gb.Bucket(name)
		if game, ok := strings.CutPrefix(string(name), "ratings:"); ok {
			return b.ForEach(func(k, v []byte) error {
				var r store.Rating
				if json.Unmarshal(v, &r) != nil {
					return nil // damaged: left out, as the leaderboard does
				}
				r.Player = string(k)
				return fn(store.Item{Type: "rating", Guild: guild, Game: game, Rating: &r})
			})
		}
		if game, ok := strings.CutPrefix(string(name), "rated:"); ok {
			return b.ForEach(func(k, _ []byte) error {
				return fn(store.Item{Type: "rated", Guild: guild, Game: game, Result: string(k)})
			})
		}
		return nil
	})
}

// Empty reports whether the store holds no game, guild or setting.
func (s *Bolt) Empty(ctx context.Context) (bool, error) {
	empty := true
	err := s.view(ctx, "look into the store", func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bGames, bGuilds, bSettings} {
			if k, _ := tx.Bucket(name).Cursor().First(); k != nil {
				empty = false
			}
		}
		return nil
	})
	return empty, err
}

// Put writes checked items in one transaction.
func (s *Bolt) Put(ctx context.Context, items []store.Item) error {
	return s.update(ctx, "import", func(tx *bolt.Tx) error {
		for _, it := range items {
			if err := putItem(tx, it); err != nil {
				return err
			}
		}
		return nil
	})
}

// putItem writes one item within tx.
func putItem(tx *bolt.Tx, it store.Item) error {
	switch it.Type {
	case "game":
		return importGame(tx, it.Channel, it.Record)
	case "setting":
		return tx.Bucket(bSettings).Put(cat(it.Channel, 0, it.Key), []byte(it.Value))
	case "botturn":
		data, err := json.Marshal(boltJob{Channel: it.Channel, Game: it.ID, Version: it.Version, Queued: time.Now().UnixMilli()})
		if err != nil {
			return err
		}
		q := tx.Bucket(bQueue)
		seq, err := q.NextSequence()
		if err != nil {
			return err
		}
		return q.Put(u64(seq), data)
	}
	gb, err := guildBucketW(tx, it.Guild)
	if err != nil {
		return err
	}
	switch it.Type {
	case "sequence":
		return gb.SetSequence(max(it.Next, gb.Sequence()))
	case "archived":
		r, err := readHeader("", it.Record)
		if err != nil {
			return err
		}
		return importArchived(gb, it.ID, it.Record, r.FinishedAt())
	case "rating":
		ratings, err := gb.CreateBucketIfNotExists(ratingsBucket(it.Game))
		if err != nil {
			return err
		}
		board, err := gb.CreateBucketIfNotExists(boardBucket(it.Game))
		if err != nil {
			return err
		}
		r := *it.Rating
		return putRating(ratings, board, r.Player, &r, time.Now)
	case "rated":
		rated, err := gb.CreateBucketIfNotExists(ratedBucket(it.Game))
		if err != nil {
			return err
		}
		return rated.Put([]byte(it.Result), nil)
	}
	return nil
}
