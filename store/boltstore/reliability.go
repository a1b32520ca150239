package boltstore

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"arbiter/store"
)

// Reliability buckets of the embedded store (see store.Store for the
// promises; one process holds the database, so its clock is the store's):
//
//	heartbeat    "last" -> the last beat (8 bytes, Unix ms)
//	outages      end (8 bytes, Unix ms) -> start (8 bytes, Unix ms)
//	outbox       key -> entry (JSON)
//	outboxdue    due (8 bytes, Unix ms) + key -> empty
//	attempts     job key -> starts without Finished (8 bytes)
//	dead         sequence (8 bytes) -> dead letter (JSON)
var (
	bHeartbeat = []byte("heartbeat")
	bOutages   = []byte("outages")
	bOutbox    = []byte("outbox")
	bOutboxDue = []byte("outboxdue")
	bAttempts  = []byte("attempts")
	bDead      = []byte("dead")
	kLast      = []byte("last")
)

// bucket returns the top-level bucket name, creating it.
func bucket(tx *bolt.Tx, name []byte) (*bolt.Bucket, error) {
	return tx.CreateBucketIfNotExists(name)
}

// Time returns the store's clock: this process's, which alone uses the
// database.
func (s *Bolt) Time(ctx context.Context) (time.Time, error) {
	if err := ctx.Err(); err != nil {
		return time.Time{}, fmt.Errorf("read the store's time: %w", err)
	}
	return s.now(), nil
}

// Heartbeat records a beat, as Redis.Heartbeat does; the last beat is
// kept in the database, so the time a process was down is seen at start.
func (s *Bolt) Heartbeat(ctx context.Context, stale time.Duration) (store.Outage, error) {
	if stale < time.Millisecond {
		return store.Outage{}, fmt.Errorf("heartbeat: %w: stale bound %v is under a millisecond", store.ErrInvalid, stale)
	}
	now := s.now().UnixMilli()
	var out store.Outage
	err := s.update(ctx, "heartbeat", func(tx *bolt.Tx) error {
		hb, err := bucket(tx, bHeartbeat)
		if err != nil {
			return err
		}
		var last int64
		if v := hb.Get(kLast); len(v) == 8 {
			last = int64(binary.BigEndian.Uint64(v))
		}
		if now <= last {
			return nil
		}
		if err := hb.Put(kLast, u64(uint64(now))); err != nil {
			return err
		}
		if last == 0 || now-last <= stale.Milliseconds() {
			return nil
		}
		outs, err := bucket(tx, bOutages)
		if err != nil {
			return err
		}
		if err := outs.Put(u64(uint64(now)), u64(uint64(last))); err != nil {
			return err
		}
		for outs.Stats().KeyN > store.MaxOutages {
			k, _ := outs.Cursor().First()
			if k == nil || outs.Delete(k) != nil {
				break
			}
		}
		out = store.Outage{From: time.UnixMilli(last), To: time.UnixMilli(now)}
		return nil
	})
	return out, err
}

// LastBeat returns the store's time and the last beat (zero if none).
func (s *Bolt) LastBeat(ctx context.Context) (now, last time.Time, err error) {
	now = s.now()
	err = s.view(ctx, "read the heartbeat", func(tx *bolt.Tx) error {
		if hb := tx.Bucket(bHeartbeat); hb != nil {
			if v := hb.Get(kLast); len(v) == 8 {
				last = time.UnixMilli(int64(binary.BigEndian.Uint64(v)))
			}
		}
		return nil
	})
	return now, last, err
}

// Outages returns the recorded outages that ended after since, oldest
// first.
func (s *Bolt) Outages(ctx context.Context, since time.Time) ([]store.Outage, error) {
	var out []store.Outage
	err := s.view(ctx, "read the outages", func(tx *bolt.Tx) error {
		b := tx.Bucket(bOutages)
		if b == nil {
			return nil
		}
		c := b.Cursor()
		for k, v := c.Seek(u64(uint64(since.UnixMilli() + 1))); k != nil; k, v = c.Next() {
			if len(k) == 8 && len(v) == 8 {
				out = append(out, store.Outage{From: time.UnixMilli(int64(binary.BigEndian.Uint64(v))), To: time.UnixMilli(int64(binary.BigEndian.Uint64(k)))})
			}
		}
		return nil
	})
	return out, err
}

// dueKey is an outbox entry's key in the due index.
func dueKey(due time.Time, key string) []byte {
	return append(u64(uint64(max(due.UnixMilli(), 0))), key...)
}

// OutboxPut records e (replacing an entry with its key).
func (s *Bolt) OutboxPut(ctx context.Context, e store.OutboxEntry) error {
	data, err := store.EncodeOutboxEntry(e)
	if err != nil {
		return err
	}
	return s.update(ctx, "outbox "+e.Key, func(tx *bolt.Tx) error {
		box, due, err := outboxBuckets(tx)
		if err != nil {
			return err
		}
		if err := dropDue(box, due, e.Key); err != nil {
			return err
		}
		if err := box.Put([]byte(e.Key), data); err != nil {
			return err
		}
		return due.Put(dueKey(e.Due, e.Key), nil)
	})
}

// dropDue removes the due index entry of key's current entry, if any.
func dropDue(box, due *bolt.Bucket, key string) error {
	old := box.Get([]byte(key))
	if old == nil {
		return nil
	}
	var e store.OutboxEntry
	if json.Unmarshal(old, &e) != nil {
		return nil
	}
	return due.Delete(dueKey(e.Due, key))
}

func outboxBuckets(tx *bolt.Tx) (box, due *bolt.Bucket, err error) {
	if box, err = bucket(tx, bOutbox); err != nil {
		return
	}
	due, err = bucket(tx, bOutboxDue)
	return
}

// OutboxDone removes the entry of key.
func (s *Bolt) OutboxDone(ctx context.Context, key string) error {
	return s.update(ctx, "outbox done "+key, func(tx *bolt.Tx) error {
		box, due, err := outboxBuckets(tx)
		if err != nil {
			return err
		}
		if err := dropDue(box, due, key); err != nil {
			return err
		}
		return box.Delete([]byte(key))
	})
}

// OutboxDue returns up to limit (at most MaxList) entries due at now,
// earliest first.
func (s *Bolt) OutboxDue(ctx context.Context, now time.Time, limit int) ([]store.OutboxEntry, error) {
	limit = store.ListLimit(limit)
	var out []store.OutboxEntry
	err := s.view(ctx, "read the outbox", func(tx *bolt.Tx) error {
		box, due := tx.Bucket(bOutbox), tx.Bucket(bOutboxDue)
		if box == nil || due == nil {
			return nil
		}
		c := due.Cursor()
		for k, _ := c.First(); k != nil && len(out) < limit; k, _ = c.Next() {
			if len(k) < 8 || int64(binary.BigEndian.Uint64(k[:8])) > now.UnixMilli() {
				break
			}
			var e store.OutboxEntry
			if err := json.Unmarshal(box.Get(k[8:]), &e); err != nil {
				s.log.Error("store: damaged outbox entry skipped", "key", string(k[8:]), "err", err)
				continue
			}
			out = append(out, e)
		}
		return nil
	})
	return out, err
}

// Attempt counts one more start of the job called key.
func (s *Bolt) Attempt(ctx context.Context, key string) (int, error) {
	var n uint64
	err := s.update(ctx, "count an attempt of "+key, func(tx *bolt.Tx) error {
		b, err := bucket(tx, bAttempts)
		if err != nil {
			return err
		}
		if v := b.Get([]byte(key)); len(v) == 8 {
			n = binary.BigEndian.Uint64(v)
		}
		n++
		return b.Put([]byte(key), u64(n))
	})
	return int(n), err
}

// Finished forgets the attempts of the job called key.
func (s *Bolt) Finished(ctx context.Context, key string) error {
	return s.update(ctx, "finish "+key, func(tx *bolt.Tx) error {
		b := tx.Bucket(bAttempts)
		if b == nil {
			return nil
		}
		return b.Delete([]byte(key))
	})
}

// AddDeadLetter keeps d (the newest 1,000) and forgets the job's attempts.
func (s *Bolt) AddDeadLetter(ctx context.Context, d store.DeadLetter) error {
	data, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("dead letter %s: %w: %v", d.Key, store.ErrInvalid, err)
	}
	return s.update(ctx, "dead letter "+d.Key, func(tx *bolt.Tx) error {
		b, err := bucket(tx, bDead)
		if err != nil {
			return err
		}
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		if err := b.Put(u64(seq), data); err != nil {
			return err
		}
		for b.Stats().KeyN > store.MaxDeadLetters {
			k, _ := b.Cursor().First()
			if k == nil || b.Delete(k) != nil {
				break
			}
		}
		if a := tx.Bucket(bAttempts); a != nil {
			return a.Delete([]byte(d.Key))
		}
		return nil
	})
}

// DeadLetters returns up to limit (at most MaxList) dead letters, newest
// first.
func (s *Bolt) DeadLetters(ctx context.Context, limit int) ([]store.DeadLetter, error) {
	limit = store.ListLimit(limit)
	var out []store.DeadLetter
	err := s.view(ctx, "read the dead letters", func(tx *bolt.Tx) error {
		b := tx.Bucket(bDead)
		if b == nil {
			return nil
		}
		c := b.Cursor()
		for k, v := c.Last(); k != nil && len(out) < limit; k, v = c.Prev() {
			var d store.DeadLetter
			if json.Unmarshal(v, &d) == nil {
				out = append(out, d)
			}
		}
		return nil
	})
	return out, err
}
