package boltstore

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"

	"arbiter/store"
)

// Forget removes or anonymises the person user everywhere in the
// database (store.Store's promise, by store.Scrubber's rules), in one
// transaction, and then compacts the file: bbolt keeps the pages a
// transaction freed, bytes and all, until it reuses them, so the file is
// rewritten without them (every other call waits meanwhile). A backup
// written after it holds no trace of the person; one written before
// still does.
func (s *Bolt) Forget(ctx context.Context, user string) (store.ForgetReport, error) {
	var rep store.ForgetReport
	sc, err := store.NewScrubber(user)
	if err != nil {
		return rep, fmt.Errorf("forget: %w", err)
	}
	err = s.update(ctx, "forget a person", func(tx *bolt.Tx) error {
		rep = store.ForgetReport{}
		if err := eachEntry(tx, func(_, _ []byte, _ *bolt.Bucket, _, v []byte) error {
			sc.Learn(v)
			return nil
		}); err != nil {
			return err
		}
		type change struct {
			b    *bolt.Bucket
			k, v []byte // v nil: delete
		}
		var changes []change
		err := eachEntry(tx, func(top, name []byte, b *bolt.Bucket, k, v []byte) error {
			// A leaderboard's key is the rating's 8 bytes, then the player.
			board := bytes.HasPrefix(name, []byte("board:")) && len(k) > 8 && string(k[8:]) == sc.ID()
			if board || sc.KeyMentions(k) {
				changes = append(changes, change{b: b, k: bytes.Clone(k)})
				return nil
			}
			var (
				out           []byte
				drop, changed bool
				err           error
			)
			if bytes.Equal(top, bGames) {
				out, changed, err = sc.RewriteRecord(v, true) // a running game moves on a version
			} else {
				out, drop, changed = sc.Rewrite(v)
			}
			switch {
			case err != nil:
				return err
			case drop:
				changes = append(changes, change{b: b, k: bytes.Clone(k)})
			case changed:
				changes = append(changes, change{b: b, k: bytes.Clone(k), v: out})
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, c := range changes {
			if c.v == nil {
				rep.Deleted++
				err = c.b.Delete(c.k)
			} else {
				rep.Rewritten++
				err = c.b.Put(c.k, c.v)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return store.ForgetReport{}, err
	}
	if rep.Rewritten+rep.Deleted > 0 {
		if err := s.compact(); err != nil {
			return rep, fmt.Errorf("forget: the person is forgotten, but the file was not compacted (%w): its free pages may still hold them; run forget again", err)
		}
	}
	s.log.Info("store: a person forgotten", "rewritten", rep.Rewritten, "deleted", rep.Deleted, "names", sc.Names())
	return rep, nil
}

// ForgetFinished deletes every guild's archived games that finished
// before before, with their archive index entries and count, and then
// compacts the file (as Forget does) when it deleted any.
func (s *Bolt) ForgetFinished(ctx context.Context, before time.Time) (int, error) {
	if before.IsZero() {
		return 0, nil
	}
	n := 0
	err := s.update(ctx, "forget old finished games", func(tx *bolt.Tx) error {
		n = 0
		return tx.Bucket(bGuilds).ForEachBucket(func(guild []byte) error {
			gb := tx.Bucket(bGuilds).Bucket(guild)
			idx, arch := sub(gb, bArchived), sub(gb, bArchive)
			if idx == nil || arch == nil {
				return nil
			}
			limit := msKey(before, "")
			var old [][]byte
			c := idx.Cursor()
			for k, _ := c.First(); k != nil && bytes.Compare(k[:8], limit) < 0; k, _ = c.Next() {
				old = append(old, bytes.Clone(k))
			}
			for _, k := range old {
				if err := idx.Delete(k); err != nil {
					return err
				}
				if err := arch.Delete(k[8:]); err != nil {
					return err
				}
			}
			n += len(old)
			return addCount(gb, -int64(len(old)))
		})
	})
	if err != nil {
		return 0, err
	}
	if n > 0 {
		if err := s.compact(); err != nil {
			return n, fmt.Errorf("forget old finished games: %d deleted, but the file was not compacted: %w", n, err)
		}
		s.log.Info("store: old finished games forgotten", "games", n, "finished_before", before.UTC())
	}
	return n, nil
}

// eachEntry calls fn with every key and value of every bucket, nested
// ones too, the top-level bucket it is under and its own bucket's name.
func eachEntry(tx *bolt.Tx, fn func(top, name []byte, b *bolt.Bucket, k, v []byte) error) error {
	var walk func(top, name []byte, b *bolt.Bucket) error
	walk = func(top, name []byte, b *bolt.Bucket) error {
		return b.ForEach(func(k, v []byte) error {
			if v == nil {
				if nb := b.Bucket(k); nb != nil {
					return walk(top, k, nb)
				}
			}
			return fn(top, name, b, k, v)
		})
	}
	return tx.ForEach(func(name []byte, b *bolt.Bucket) error { return walk(name, name, b) })
}

// compact rewrites the database file with only what it holds now
// (bbolt's Compact into a file beside it, renamed over it), leaving none
// of the bytes of freed pages. Every transaction waits meanwhile.
func (s *Bolt) compact() error {
	s.swap.Lock()
	defer s.swap.Unlock()
	tmp := s.path + ".compact"
	_ = os.Remove(tmp)
	dst, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: time.Second, FreelistType: bolt.FreelistMapType})
	if err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	err = bolt.Compact(dst, s.db, 64<<20)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("compact: %w", err)
	}
	if err := s.db.Close(); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("compact: close the database: %w", err)
	}
	renameErr := os.Rename(tmp, s.path)
	if renameErr == nil {
		if d, err := os.Open(filepath.Dir(s.path)); err == nil {
			_ = d.Sync()
			_ = d.Close()
		}
	} else {
		_ = os.Remove(tmp)
	}
	db, err := openBoltFile(s.path)
	if err != nil {
		return fmt.Errorf("compact: open the database again: %w", err)
	}
	s.db = db
	if renameErr != nil {
		return fmt.Errorf("compact: %w", renameErr)
	}
	return nil
}
