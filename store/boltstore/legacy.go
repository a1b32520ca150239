package boltstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"arbiter/store"
)

// legacyFile is the data file of the earlier embedded backend (an
// in-process Redis written to JSON every few seconds); see snapshot.go.
const legacyFile = "arbiter-store.json"

// legacyKept is the name the imported legacy file is kept under.
const legacyKept = legacyFile + ".imported"

// legacyQueueKey is the bot-turn queue's key in a legacy data file, which
// holds the keys of the Redis layout (see package redisstore).
const legacyQueueKey = "{arbiter}:botq"

// importLegacy imports dir's legacy data file into the database, once,
// when the database is still empty: the import and the mark that it
// happened are one transaction, and the file is then renamed to
// legacyKept (kept, not deleted). A start that died before the commit
// imports again; one that died before the rename only renames. A legacy
// file that does not read stops the start with an error naming it.
func (s *Bolt) importLegacy(ctx context.Context, dir string) error {
	path := filepath.Join(dir, legacyFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	snap, err := parseSnapshot(data)
	if err != nil {
		return fmt.Errorf("the data file %s of the earlier embedded store does not read (%v); "+
			"move it away to start without it, losing what it holds", path, err)
	}
	var n int
	skip := false
	err = s.update(ctx, "import "+path, func(tx *bolt.Tx) error {
		if tx.Bucket(bMeta).Get(kImported) != nil {
			return nil // imported before; only the rename was left to do
		}
		if k, _ := tx.Bucket(bGames).Cursor().First(); k != nil {
			skip = true
			return nil
		}
		if k, _ := tx.Bucket(bGuilds).Cursor().First(); k != nil {
			skip = true
			return nil
		}
		var err error
		if n, err = importSnapshot(tx, snap, s.now()); err != nil {
			return err
		}
		return tx.Bucket(bMeta).Put(kImported, []byte(path))
	})
	if err != nil {
		return fmt.Errorf("import the data file %s of the earlier embedded store: %w", path, err)
	}
	if skip {
		s.log.Warn("store: the data directory holds the data file of the earlier embedded store, but the database has games already; not importing it",
			"file", path)
		return nil
	}
	if err := os.Rename(path, filepath.Join(dir, legacyKept)); err != nil {
		return fmt.Errorf("imported %s, but keeping it aside failed: %w", path, err)
	}
	s.log.Info("store: imported the data file of the earlier embedded store, kept beside as "+legacyKept,
		"file", path, "records", n)
	return nil
}

// importSnapshot writes the records of a legacy snapshot (Redis keys, see
// the key list in package redisstore's doc) into tx, and returns how many
// it wrote. Games are copied as they are (a damaged one stays damaged,
// for Load to report); the indexes are rebuilt from them; bot turns still in the
// stream (the store deletes a turn when it is acked) are queued again;
// locks are not kept.
func importSnapshot(tx *bolt.Tx, snap *snapshot, now time.Time) (int, error) {
	n := 0
	finishedAt := map[string]time.Time{} // "<guild>/<id>" -> finish time from {g:G}:archived
	for _, k := range snap.Keys {
		if guild, ok := strings.CutSuffix(strings.TrimPrefix(string(k.Key), "{g:"), "}:archived"); ok && k.Type == "zset" {
			for i := 0; i+1 < len(k.ZSet); i += 2 {
				ms, _ := strconv.ParseFloat(string(k.ZSet[i]), 64)
				finishedAt[guild+"/"+string(k.ZSet[i+1])] = time.UnixMilli(int64(ms))
			}
		}
	}
	for _, k := range snap.Keys {
		if k.ExpireAt != 0 && k.ExpireAt <= now.UnixMilli() {
			continue
		}
		key := string(k.Key)
		hash := map[string]string{}
		for i := 0; i+1 < len(k.Hash); i += 2 {
			hash[string(k.Hash[i])] = string(k.Hash[i+1])
		}
		var err error
		switch tag, rest, _ := strings.Cut(key, "}:"); {
		case strings.HasPrefix(tag, "{ch:") && rest == "game" && k.Type == "hash":
			err = importGame(tx, strings.TrimPrefix(tag, "{ch:"), []byte(hash["record"]))
		case strings.HasPrefix(tag, "{ch:") && strings.HasPrefix(rest, "damaged:") && k.Type == "hash":
			err = tx.Bucket(bDamaged).Put([]byte(strings.TrimPrefix(tag, "{ch:")+"/"+strings.TrimPrefix(rest, "damaged:")), []byte(hash["record"]))
		case strings.HasPrefix(tag, "{ch:") && rest == "settings" && k.Type == "hash":
			for f, v := range hash {
				if err = tx.Bucket(bSettings).Put(cat(strings.TrimPrefix(tag, "{ch:"), 0, f), []byte(v)); err != nil {
					break
				}
			}
		case strings.HasPrefix(tag, "{g:"):
			err = importGuildKey(tx, strings.TrimPrefix(tag, "{g:"), rest, &k, hash, finishedAt)
		case key == legacyQueueKey && k.Type == "stream":
			err = importQueue(tx, k.Stream)
		default:
			continue // locks, the deadline index (rebuilt from the games)
		}
		if err != nil {
			return 0, fmt.Errorf("key %s: %w", key, err)
		}
		n++
	}
	return n, nil
}

// importGame puts a live game's record in channel with its indexes.
func importGame(tx *bolt.Tx, channel string, data []byte) error {
	if err := putSplit(tx, channel, data); err != nil {
		return err
	}
	r, err := readHeader(channel, data)
	if err != nil || r.Status != store.Active {
		return nil // Load reports it damaged; a finished one the next Create archives
	}
	gb, err := guildBucketW(tx, r.Guild)
	if err != nil {
		return err
	}
	return indexLive(tx, gb, channel, r.Wake())
}

// importGuildKey imports one of a guild's keys.
func importGuildKey(tx *bolt.Tx, guild, rest string, k *snapKey, hash map[string]string, finishedAt map[string]time.Time) error {
	gb, err := guildBucketW(tx, guild)
	if err != nil {
		return err
	}
	switch {
	case rest == "seq" && k.String != nil:
		seq, err := strconv.ParseUint(string(*k.String), 10, 64)
		if err != nil {
			return fmt.Errorf("the archive counter %q is not a number", string(*k.String))
		}
		return gb.SetSequence(max(seq, gb.Sequence()))
	case rest == "archive":
		for id, rec := range hash {
			at := finishedAt[guild+"/"+id]
			if r, err := readHeader("", []byte(rec)); err == nil {
				at = r.FinishedAt()
			}
			if err := importArchived(gb, id, []byte(rec), at); err != nil {
				return err
			}
		}
	case strings.HasPrefix(rest, "ratings:"):
		game := strings.TrimPrefix(rest, "ratings:")
		ratings, err := gb.CreateBucketIfNotExists(ratingsBucket(game))
		if err != nil {
			return err
		}
		board, err := gb.CreateBucketIfNotExists(boardBucket(game))
		if err != nil {
			return err
		}
		for player, data := range hash {
			var r store.Rating
			if err := json.Unmarshal([]byte(data), &r); err != nil {
				return fmt.Errorf("the rating of %s does not read: %v", player, err)
			}
			if err := putRating(ratings, board, player, &r, time.Now); err != nil {
				return err
			}
		}
	case strings.HasPrefix(rest, "rated:"):
		rated, err := gb.CreateBucketIfNotExists(ratedBucket(strings.TrimPrefix(rest, "rated:")))
		if err != nil {
			return err
		}
		for _, id := range k.Set {
			if err := rated.Put([]byte(id), nil); err != nil {
				return err
			}
		}
	}
	return nil // the archive index and the running index are rebuilt
}

// importArchived files one imported archived record under id in guild
// bucket gb, finished at at; new games get ids after it.
func importArchived(gb *bolt.Bucket, id string, data []byte, at time.Time) error {
	if n, err := strconv.ParseUint(id, 10, 64); err == nil && n > gb.Sequence() {
		if err := gb.SetSequence(n); err != nil {
			return err
		}
	}
	return fileArchived(gb, id, data, at)
}

// importQueue queues again the bot turns left in a legacy stream.
func importQueue(tx *bolt.Tx, st *snapStream) error {
	q := tx.Bucket(bQueue)
	for _, e := range st.Entries {
		vals := map[string]string{}
		for i := 0; i+1 < len(e.Values); i += 2 {
			vals[string(e.Values[i])] = string(e.Values[i+1])
		}
		v, _ := strconv.ParseInt(vals["version"], 10, 64)
		queued, _ := strconv.ParseInt(vals["queued"], 10, 64)
		data, err := json.Marshal(boltJob{Channel: vals["channel"], Game: vals["game"], Version: v, Queued: queued})
		if err != nil {
			return err
		}
		seq, err := q.NextSequence()
		if err != nil {
			return err
		}
		if err := q.Put(u64(seq), data); err != nil {
			return err
		}
	}
	return nil
}
