package boltstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"arbiter/store"
)

// readHeader reads a stored record without decoding its position: what
// the compare-and-set and the indexes need. A record that does not read is
// a *DamagedError of channel.
func readHeader(channel string, data []byte) (*store.Record, error) {
	r, err := store.DecodeRecord(data)
	if err != nil {
		return nil, &store.DamagedError{Channel: channel, Err: err}
	}
	return r, nil
}

// Create stores a new game in g.Channel, as Redis.Create does: an archive
// id unique in the guild, version 1, ErrBusy when a game goes on there, a
// finished game left there archived first.
func (s *Bolt) Create(ctx context.Context, g *store.Game) error {
	if err := store.CheckNew(g); err != nil {
		return err
	}
	n := *g
	n.Version = 1
	now := s.now()
	if n.Created.IsZero() {
		n.Created = now
	}
	n.Updated = now
	what := "create game in channel " + n.Channel
	var head []byte
	err := s.update(ctx, what, func(tx *bolt.Tx) error {
		games := tx.Bucket(bGames)
		if cur := games.Get([]byte(n.Channel)); cur != nil {
			h, err := readHeader(n.Channel, cur)
			if err != nil {
				return err
			}
			if h.Status != store.Finished {
				return fmt.Errorf("%s: %w", what, store.ErrBusy)
			}
			if err := archiveTx(tx, h, cur); err != nil {
				return err
			}
		}
		gb, err := guildBucketW(tx, n.Guild)
		if err != nil {
			return err
		}
		seq, err := gb.NextSequence()
		if err != nil {
			return err
		}
		n.ID = strconv.FormatUint(seq, 10)
		w, err := newLiveWrite(&n, nil)
		if err != nil {
			return fmt.Errorf("create game: %w", err)
		}
		if err := w.put(tx); err != nil {
			return err
		}
		head = w.head
		return indexLive(tx, gb, n.Channel, n.Wake())
	})
	if err != nil {
		return err
	}
	s.heads.saved(&n, head)
	n.SetStoredMoves(slices.Clone(n.Moves))
	*g = n
	return nil
}

// Load returns the game in channel: ErrNotFound when there is none, a
// *DamagedError when its record cannot be read.
func (s *Bolt) Load(ctx context.Context, channel string) (*store.Game, error) {
	if err := store.CheckID("channel", channel); err != nil {
		return nil, fmt.Errorf("load game: %w", err)
	}
	var g *store.Game
	err := s.view(ctx, "load game in channel "+channel, func(tx *bolt.Tx) error {
		var err error
		g, err = s.gameIn(tx, channel)
		return err
	})
	return g, err
}

// gameIn decodes the game in channel within tx: its head and its move
// list, or a record with its moves inline.
func (s *Bolt) gameIn(tx *bolt.Tx, channel string) (*store.Game, error) {
	data := tx.Bucket(bGames).Get([]byte(channel))
	if data == nil {
		return nil, fmt.Errorf("load game in channel %s: %w", channel, store.ErrNotFound)
	}
	r, err := store.DecodeRecord(data)
	if err != nil {
		return nil, &store.DamagedError{Channel: channel, Err: err}
	}
	s.heads.remember(channel, data, r)
	split := len(r.Moves) == 0
	if split {
		if r.Moves, err = s.movesIn(tx, channel); err != nil {
			return nil, &store.DamagedError{Channel: channel, Err: err}
		}
	}
	g, err := r.Game(s.reg)
	if err != nil {
		return nil, &store.DamagedError{Channel: channel, Err: err}
	}
	if g.Channel != channel {
		return nil, &store.DamagedError{Channel: channel, Err: fmt.Errorf("its record is of channel %q", g.Channel)}
	}
	if split {
		g.SetStoredMoves(slices.Clone(g.Moves))
	}
	return g, nil
}

// Save stores g as the next version of its game if the stored game is
// still the version g was loaded at, as Redis.Save does. The
// compare-and-set, the deadline index and, for a finished game, its
// archiving and the freeing of its channel are one transaction: when Save
// returns nil all of it is on disk, and when it returns an error none of
// it is. A running game's Save writes its head and the moves added since
// it was loaded (see liveWrite).
func (s *Bolt) Save(ctx context.Context, g *store.Game) error {
	if err := store.CheckCreated(g); err != nil {
		return err
	}
	n := store.NextVersion(g, s.now())
	var (
		data []byte // a finished game's whole record
		live *liveWrite
		err  error
	)
	if n.Status == store.Finished {
		data, err = store.EncodeRecord(&n)
	} else {
		live, err = newLiveWrite(&n, g.StoredMoves())
	}
	if err != nil {
		return fmt.Errorf("save game: %w", err)
	}
	what := "save game in channel " + n.Channel
	err = s.updateGrouped(ctx, what, func(tx *bolt.Tx) error {
		games := tx.Bucket(bGames)
		cur := games.Get([]byte(n.Channel))
		if cur == nil {
			return fmt.Errorf("%s: %w: the game is no longer there (%w)", what, store.ErrConflict, store.ErrNotFound)
		}
		h, err := s.heads.read(n.Channel, cur)
		if err != nil {
			return err
		}
		switch {
		case h.id != n.ID:
			return fmt.Errorf("%s: %w: the game is no longer there (%w)", what, store.ErrConflict, store.ErrNotFound)
		case h.version != g.Version:
			return fmt.Errorf("%s at version %d: %w", what, g.Version, store.ErrConflict)
		case h.status == store.Finished:
			return fmt.Errorf("%s: %w: the game is over", what, store.ErrConflict)
		}
		if n.Status == store.Finished {
			return archiveTx(tx, &store.Record{Channel: n.Channel, Guild: n.Guild, ID: n.ID, Version: n.Version,
				Status: n.Status, Updated: n.Updated, Finished: store.TimePtr(n.Finished)}, data)
		}
		if err := live.put(tx); err != nil {
			return err
		}
		return setWake(tx, n.Channel, n.Wake())
	})
	if err != nil {
		return err
	}
	n.SetStoredMoves(nil)
	if live != nil {
		n.SetStoredMoves(slices.Clone(n.Moves))
		s.heads.saved(&n, live.head)
	} else {
		s.heads.forget(n.Channel)
	}
	*g = n
	return nil
}

// Archive files a finished game under its guild and frees its channel if
// that game (this finished version) is still there. Archiving again is
// harmless; a channel holding that game at another version, or not
// finished, is ErrConflict and nothing changes.
func (s *Bolt) Archive(ctx context.Context, g *store.Game) error {
	if g == nil {
		return fmt.Errorf("archive game: %w: no game", store.ErrInvalid)
	}
	if g.Status != store.Finished {
		return fmt.Errorf("archive game in channel %s: %w: the game is not finished", g.Channel, store.ErrInvalid)
	}
	if err := store.CheckID("archive", g.ID); err != nil {
		return fmt.Errorf("archive game in channel %s: %w", g.Channel, err)
	}
	data, err := store.EncodeRecord(g)
	if err != nil {
		return fmt.Errorf("archive game: %w", err)
	}
	h := &store.Record{Channel: g.Channel, Guild: g.Guild, ID: g.ID, Version: g.Version, Status: g.Status,
		Updated: g.Updated, Finished: store.TimePtr(g.Finished)}
	what := fmt.Sprintf("archive game %s of guild %s", g.ID, g.Guild)
	return s.update(ctx, what, func(tx *bolt.Tx) error {
		if cur := tx.Bucket(bGames).Get([]byte(g.Channel)); cur != nil {
			if ch, err := readHeader(g.Channel, cur); err == nil && ch.ID == g.ID && ch.Guild == g.Guild &&
				(ch.Version != g.Version || ch.Status != store.Finished) {
				return fmt.Errorf("free channel %s: %w: the game there is at another version, or not finished", g.Channel, store.ErrConflict)
			}
		}
		return archiveTx(tx, h, data)
	})
}

// archiveTx files the finished record data of h in its guild's archive
// and, when the channel holds that very game, frees the channel and drops
// it from the indexes.
func archiveTx(tx *bolt.Tx, h *store.Record, data []byte) error {
	gb, err := guildBucketW(tx, h.Guild)
	if err != nil {
		return err
	}
	if err := fileArchived(gb, h.ID, data, h.FinishedAt()); err != nil {
		return err
	}
	games := tx.Bucket(bGames)
	if cur := games.Get([]byte(h.Channel)); cur != nil {
		if ch, err := readHeader(h.Channel, cur); err != nil || ch.ID != h.ID || ch.Guild != h.Guild {
			return nil // another game is there now (or a damaged one): leave it
		}
		if err := games.Delete([]byte(h.Channel)); err != nil {
			return err
		}
		if err := truncateMoves(tx, h.Channel, 0); err != nil {
			return err
		}
	}
	if err := setWake(tx, h.Channel, time.Time{}); err != nil {
		return err
	}
	if active := sub(gb, bActive); active != nil {
		return active.Delete([]byte(h.Channel))
	}
	return nil
}

// fileArchived files the record data of a finished game under id in the
// archive of guild bucket gb, finished at at, in the archive's index and
// count; filing it again replaces it.
func fileArchived(gb *bolt.Bucket, id string, data []byte, at time.Time) error {
	arch, err := gb.CreateBucketIfNotExists(bArchive)
	if err != nil {
		return err
	}
	idx, err := gb.CreateBucketIfNotExists(bArchived)
	if err != nil {
		return err
	}
	if old := arch.Get([]byte(id)); old != nil {
		if r, err := readHeader("", old); err == nil {
			if err := idx.Delete(msKey(r.FinishedAt(), id)); err != nil {
				return err
			}
		}
	} else if err := addCount(gb, 1); err != nil {
		return err
	}
	if err := arch.Put([]byte(id), data); err != nil {
		return err
	}
	return idx.Put(msKey(at, id), nil)
}

// indexLive puts a game going on in channel, of the guild of bucket gb,
// in the deadline index (at wake) and in the guild's running index.
func indexLive(tx *bolt.Tx, gb *bolt.Bucket, channel string, wake time.Time) error {
	if err := setWake(tx, channel, wake); err != nil {
		return err
	}
	active, err := gb.CreateBucketIfNotExists(bActive)
	if err != nil {
		return err
	}
	return active.Put([]byte(channel), nil)
}

// addCount adds d to the guild's count of archived games.
func addCount(gb *bolt.Bucket, d int64) error {
	var n int64
	if v := gb.Get(kCount); len(v) == 8 {
		n = int64(binary.BigEndian.Uint64(v))
	}
	return gb.Put(kCount, u64(uint64(n+d)))
}

// setWake puts channel's entry in the deadline index at wake, or removes
// it for a zero wake.
func setWake(tx *bolt.Tx, channel string, wake time.Time) error {
	wakes, deadlines := tx.Bucket(bWake), tx.Bucket(bDeadlines)
	if old := wakes.Get([]byte(channel)); len(old) == 8 {
		if err := deadlines.Delete(append(slices.Clone(old), channel...)); err != nil {
			return err
		}
	}
	if wake.IsZero() {
		return wakes.Delete([]byte(channel))
	}
	key := msKey(wake, channel)
	if err := wakes.Put([]byte(channel), key[:8]); err != nil {
		return err
	}
	return deadlines.Put(key, nil)
}

// Quarantine moves the record in channel aside, freeing the channel, and
// returns where it now lives: "damaged/<channel>/<unix ms>", with its
// move list, if it has one, under that key + "/moves" (the moves as
// stored, one a line).
func (s *Bolt) Quarantine(ctx context.Context, channel string) (string, error) {
	if err := store.CheckID("channel", channel); err != nil {
		return "", fmt.Errorf("quarantine: %w", err)
	}
	key := fmt.Sprintf("%s/%d", channel, s.now().UnixMilli())
	what := "quarantine channel " + channel
	err := s.update(ctx, what, func(tx *bolt.Tx) error {
		games, damaged := tx.Bucket(bGames), tx.Bucket(bDamaged)
		data := games.Get([]byte(channel))
		if data == nil {
			return fmt.Errorf("%s: %w", what, store.ErrNotFound)
		}
		if damaged.Get([]byte(key)) != nil {
			return fmt.Errorf("%s: %s already exists; try again", what, key)
		}
		if err := damaged.Put([]byte(key), slices.Clone(data)); err != nil {
			return err
		}
		var list [][]byte
		eachMove(tx, channel, 0, func(_, v []byte) { list = append(list, v) })
		if len(list) > 0 {
			if err := damaged.Put([]byte(key+"/moves"), bytes.Join(list, []byte("\n"))); err != nil {
				return err
			}
		}
		if err := truncateMoves(tx, channel, 0); err != nil {
			return err
		}
		if h, err := readHeader(channel, data); err == nil {
			if active := sub(guildBucket(tx, h.Guild), bActive); active != nil {
				if err := active.Delete([]byte(channel)); err != nil {
					return err
				}
			}
		}
		if err := games.Delete([]byte(channel)); err != nil {
			return err
		}
		return setWake(tx, channel, time.Time{})
	})
	if err != nil {
		return "", err
	}
	return "damaged/" + key, nil
}

// Archived lists the guild's archived games, newest first, from offset on
// (at most limit, at most MaxList), with how many there are in all. A
// damaged entry is left out of the list and logged.
func (s *Bolt) Archived(ctx context.Context, guild string, offset, limit int) ([]store.Summary, int64, error) {
	if err := store.CheckID("guild", guild); err != nil {
		return nil, 0, fmt.Errorf("list archive: %w", err)
	}
	offset = max(offset, 0)
	limit = store.ListLimit(limit)
	var (
		out   []store.Summary
		total int64
	)
	err := s.view(ctx, "list archive of guild "+guild, func(tx *bolt.Tx) error {
		gb := guildBucket(tx, guild)
		idx, arch := sub(gb, bArchived), sub(gb, bArchive)
		if idx == nil || arch == nil {
			return nil
		}
		if v := gb.Get(kCount); len(v) == 8 {
			total = int64(binary.BigEndian.Uint64(v))
		}
		c := idx.Cursor()
		skipped := 0
		for k, _ := c.Last(); k != nil && len(out) < limit; k, _ = c.Prev() {
			if skipped < offset {
				skipped++
				continue
			}
			id := string(k[8:])
			g, err := store.DecodeArchived(nil, guild, id, arch.Get([]byte(id)))
			if err != nil {
				s.log.Warn("store: damaged archive entry left out of a listing", "err", err)
				continue
			}
			out = append(out, store.Summary{
				ID: g.ID, Channel: g.Channel, Name: g.Name, Players: g.Players, Result: g.Result,
				Reason: g.Reason, Moves: len(g.Moves), Created: g.Created, Finished: g.Finished,
			})
		}
		return nil
	})
	return out, total, err
}

// LoadArchived returns the archived game id of guild, with its state:
// ErrNotFound when there is none, a *DamagedError when it cannot be read.
func (s *Bolt) LoadArchived(ctx context.Context, guild, id string) (*store.Game, error) {
	if err := store.CheckID("guild", guild); err != nil {
		return nil, fmt.Errorf("load archived game: %w", err)
	}
	if err := store.CheckID("archive", id); err != nil {
		return nil, fmt.Errorf("load archived game: %w", err)
	}
	var g *store.Game
	what := fmt.Sprintf("load archived game %s of guild %s", id, guild)
	err := s.view(ctx, what, func(tx *bolt.Tx) error {
		var data []byte
		if arch := sub(guildBucket(tx, guild), bArchive); arch != nil {
			data = arch.Get([]byte(id))
		}
		if data == nil {
			return fmt.Errorf("%s: %w", what, store.ErrNotFound)
		}
		var err error
		g, err = store.DecodeArchived(s.reg, guild, id, data)
		return err
	})
	return g, err
}

// Running returns the games going on in guild's channels (at most
// MaxList), oldest first; a damaged record is left out.
func (s *Bolt) Running(ctx context.Context, guild string) ([]*store.Game, error) {
	if err := store.CheckID("guild", guild); err != nil {
		return nil, fmt.Errorf("running games: %w", err)
	}
	var out []*store.Game
	err := s.view(ctx, "running games of guild "+guild, func(tx *bolt.Tx) error {
		active := sub(guildBucket(tx, guild), bActive)
		if active == nil {
			return nil
		}
		return active.ForEach(func(k, _ []byte) error {
			g, err := s.gameIn(tx, string(k))
			if err == nil && g.Guild == guild && g.Status == store.Active {
				out = append(out, g)
			}
			return nil
		})
	})
	slices.SortFunc(out, func(a, b *store.Game) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return strings.Compare(a.Channel, b.Channel)
	})
	if len(out) > store.MaxList {
		out = out[:store.MaxList]
	}
	return out, err
}

// Due returns the games whose wake time (see Game.Wake) is at or before
// now, earliest first, looking at no more than limit index entries (at
// most MaxList). A game stays due until a Save changes it. The index is
// exact; a damaged game in it is logged and looked at again an hour later.
func (s *Bolt) Due(ctx context.Context, now time.Time, limit int) ([]*store.Game, error) {
	limit = store.ListLimit(limit)
	var (
		due     []*store.Game
		damaged []string
	)
	end := u64(uint64(max(now.UnixMilli(), 0)))
	err := s.view(ctx, "read the deadline index", func(tx *bolt.Tx) error {
		c := tx.Bucket(bDeadlines).Cursor()
		seen := 0
		for k, _ := c.First(); k != nil && seen < limit && bytes.Compare(k[:8], end) <= 0; k, _ = c.Next() {
			seen++
			channel := string(k[8:])
			g, err := s.gameIn(tx, channel)
			var dmg *store.DamagedError
			switch {
			case errors.As(err, &dmg):
				s.log.Error("store: damaged game in the deadline index", "channel", channel, "err", dmg.Err)
				damaged = append(damaged, channel)
			case err != nil:
				return err
			default:
				due = append(due, g)
			}
		}
		return nil
	})
	if err != nil || len(damaged) == 0 {
		return due, err
	}
	later := now.Add(store.DamagedRetry)
	err = s.update(ctx, "tidy the deadline index", func(tx *bolt.Tx) error {
		for _, ch := range damaged {
			if tx.Bucket(bWake).Get([]byte(ch)) == nil {
				continue // moved aside meanwhile
			}
			if err := setWake(tx, ch, later); err != nil {
				return err
			}
		}
		return nil
	})
	return due, err
}
