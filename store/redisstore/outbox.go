package redisstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"arbiter/store"
)

// Keys of the outbox, the attempt counts and the dead letters.
const (
	outboxKey      = "{arbiter}:outbox"     // hash: key -> entry (JSON)
	outboxDueKey   = "{arbiter}:outbox:due" // sorted set: key by when a sweep may take it (ms)
	attemptsKey    = "{arbiter}:attempts"   // hash: job key -> attempts started and not finished
	deadLettersKey = "{arbiter}:dead"       // list: dead letters (JSON), newest first
)

// OutboxPut records e (replacing an entry with its key).
func (s *Redis) OutboxPut(ctx context.Context, e store.OutboxEntry) error {
	data, err := store.EncodeOutboxEntry(e)
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
func (s *Redis) OutboxDue(ctx context.Context, now time.Time, limit int) ([]store.OutboxEntry, error) {
	limit = store.ListLimit(limit)
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
	out := make([]store.OutboxEntry, 0, len(keys))
	var bad []any
	for i, v := range vals {
		data, _ := v.(string)
		var e store.OutboxEntry
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

// AddDeadLetter keeps d (the newest 1,000 are kept) and forgets the job's
// attempts.
func (s *Redis) AddDeadLetter(ctx context.Context, d store.DeadLetter) error {
	data, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("dead letter %s: %w: %v", d.Key, store.ErrInvalid, err)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	_, err = s.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.LPush(ctx, deadLettersKey, data)
		pipe.LTrim(ctx, deadLettersKey, 0, store.MaxDeadLetters-1)
		pipe.HDel(ctx, attemptsKey, d.Key)
		return nil
	})
	return fail(caller, "dead letter "+d.Key, err)
}

// DeadLetters returns up to limit (at most MaxList) dead letters, newest
// first.
func (s *Redis) DeadLetters(ctx context.Context, limit int) ([]store.DeadLetter, error) {
	limit = store.ListLimit(limit)
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	vals, err := s.rdb.LRange(ctx, deadLettersKey, 0, int64(limit-1)).Result()
	if err != nil {
		return nil, fail(caller, "read the dead letters", err)
	}
	out := make([]store.DeadLetter, 0, len(vals))
	for _, v := range vals {
		var d store.DeadLetter
		if err := json.Unmarshal([]byte(v), &d); err == nil {
			out = append(out, d)
		}
	}
	return out, nil
}
