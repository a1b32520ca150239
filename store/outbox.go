package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Keys of the outbox, the attempt counts and the dead letters.
const (
	outboxKey      = "{arbiter}:outbox"     // hash: key -> entry (JSON)
	outboxDueKey   = "{arbiter}:outbox:due" // sorted set: key by when a sweep may take it (ms)
	attemptsKey    = "{arbiter}:attempts"   // hash: job key -> attempts started and not finished
	deadLettersKey = "{arbiter}:dead"       // list: dead letters (JSON), newest first
	maxDeadLetters = 1000
	maxOutboxEntry = 1 << 20 // an outbox entry's payload limit (1 MiB)
)

// OutboxEntry is a consequence of one state change of a game that must
// happen once the change is saved: an announcement, a rating, a notice.
// It is put before the change is saved and removed once delivered; a sweep
// delivers what a crash left behind, if the change was saved, and drops it
// otherwise.
type OutboxEntry struct {
	// Key is the idempotency key, unique per consequence, e.g.
	// "<channel>/<game>/<version>"; delivery carries it (as Discord's
	// message nonce) so that a repeated delivery is a no-op.
	Key     string `json:"key"`
	Channel string `json:"channel"`
	Guild   string `json:"guild"`
	Game    string `json:"game"`    // the game's archive id
	Version int64  `json:"version"` // the version the state change writes
	// Check fingerprints the state change (the caller's own format), so
	// that a sweep tells this change from a rival one at the same version.
	Check string `json:"check"`
	// Payload is what to do, in the caller's own format.
	Payload json.RawMessage `json:"payload"`
	// Due is when a sweep may take the entry (store time): after the save
	// it follows has certainly been applied or refused.
	Due time.Time `json:"due"`
	// Tries counts the sweep's failed deliveries, for its backoff.
	Tries int `json:"tries,omitempty"`
}

// encodeOutboxEntry checks e and returns it as stored.
func encodeOutboxEntry(e OutboxEntry) ([]byte, error) {
	if e.Key == "" || len(e.Key) > 256 {
		return nil, fmt.Errorf("outbox: %w: key %.20q is empty or too long", ErrInvalid, e.Key)
	}
	if len(e.Payload) > maxOutboxEntry {
		return nil, fmt.Errorf("outbox %s: %w: payload of %d bytes is over %d", e.Key, ErrInvalid, len(e.Payload), maxOutboxEntry)
	}
	data, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("outbox %s: %w: %v", e.Key, ErrInvalid, err)
	}
	return data, nil
}

// OutboxPut records e (replacing an entry with its key).
func (s *Redis) OutboxPut(ctx context.Context, e OutboxEntry) error {
	data, err := encodeOutboxEntry(e)
	if err != nil {
		return err
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	_, err = s.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.HSet(ctx, outboxKey, e.Key, data)
		pipe.ZAdd(ctx, outboxDueKey, redis.Z{Score: float64(e.Due.UnixMilli()), Member: e.Key})
		return nil
	})
	return fail(caller, "outbox "+e.Key, err)
}

// OutboxDone removes the entry of key: it was delivered, or dropped.
func (s *Redis) OutboxDone(ctx context.Context, key string) error {
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	_, err := s.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.HDel(ctx, outboxKey, key)
		pipe.ZRem(ctx, outboxDueKey, key)
		return nil
	})
	return fail(caller, "outbox done "+key, err)
}

// OutboxDue returns up to limit (at most MaxList) entries due at now,
// earliest first. A damaged entry is logged and removed.
func (s *Redis) OutboxDue(ctx context.Context, now time.Time, limit int) ([]OutboxEntry, error) {
	if limit <= 0 || limit > MaxList {
		limit = MaxList
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	keys, err := s.rdb.ZRangeByScore(ctx, outboxDueKey, &redis.ZRangeBy{
		Min: "-inf", Max: strconv.FormatInt(now.UnixMilli(), 10), Count: int64(limit),
	}).Result()
	if err != nil {
		return nil, fail(caller, "read the outbox", err)
	}
	if len(keys) == 0 {
		return nil, nil
	}
	vals, err := s.rdb.HMGet(ctx, outboxKey, keys...).Result()
	if err != nil {
		return nil, fail(caller, "read the outbox", err)
	}
	out := make([]OutboxEntry, 0, len(keys))
	var bad []any
	for i, v := range vals {
		data, _ := v.(string)
		var e OutboxEntry
		if err := json.Unmarshal([]byte(data), &e); err != nil || e.Key != keys[i] {
			s.log.Error("store: damaged outbox entry dropped", "key", keys[i], "err", err)
			bad = append(bad, keys[i])
			continue
		}
		out = append(out, e)
	}
	if len(bad) > 0 {
		if err := s.rdb.ZRem(ctx, outboxDueKey, bad...).Err(); err != nil {
			return nil, fail(caller, "tidy the outbox", err)
		}
	}
	return out, nil
}

// Attempt counts one more start of the job called key (a bot turn, a
// clock action) and returns how many starts it has had without Finished:
// a job that kills or panics its process every time is seen to.
func (s *Redis) Attempt(ctx context.Context, key string) (int, error) {
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	n, err := s.rdb.HIncrBy(ctx, attemptsKey, key, 1).Result()
	if err != nil {
		return 0, fail(caller, "count an attempt of "+key, err)
	}
	return int(n), nil
}

// Finished forgets the attempts of the job called key.
func (s *Redis) Finished(ctx context.Context, key string) error {
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	return fail(caller, "finish "+key, s.rdb.HDel(ctx, attemptsKey, key).Err())
}

// DeadLetter is a job given up after failing again and again, kept for
// people to look at.
type DeadLetter struct {
	Key     string    `json:"key"`     // the job, as given to Attempt
	Channel string    `json:"channel"` // its game's channel
	Failure string    `json:"failure"` // the last failure (a panic and its stack)
	Record  string    `json:"record"`  // the position's record, for a test case
	At      time.Time `json:"at"`
}

// AddDeadLetter keeps d (the newest 1,000 are kept) and forgets the job's
// attempts.
func (s *Redis) AddDeadLetter(ctx context.Context, d DeadLetter) error {
	data, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("dead letter %s: %w: %v", d.Key, ErrInvalid, err)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	_, err = s.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.LPush(ctx, deadLettersKey, data)
		pipe.LTrim(ctx, deadLettersKey, 0, maxDeadLetters-1)
		pipe.HDel(ctx, attemptsKey, d.Key)
		return nil
	})
	return fail(caller, "dead letter "+d.Key, err)
}

// DeadLetters returns up to limit (at most MaxList) dead letters, newest
// first.
func (s *Redis) DeadLetters(ctx context.Context, limit int) ([]DeadLetter, error) {
	if limit <= 0 || limit > MaxList {
		limit = MaxList
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	vals, err := s.rdb.LRange(ctx, deadLettersKey, 0, int64(limit-1)).Result()
	if err != nil {
		return nil, fail(caller, "read the dead letters", err)
	}
	out := make([]DeadLetter, 0, len(vals))
	for _, v := range vals {
		var d DeadLetter
		if err := json.Unmarshal([]byte(v), &d); err == nil {
			out = append(out, d)
		}
	}
	return out, nil
}
