package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"arbiter/store"
)

// lease returns the lease of a bot turn in g.
func (s *Redis) lease(g *store.Game) time.Duration { return store.JobLease(s.reg, s.claimTimeout, g) }

// minLease is the shortest lease any job has.
func (s *Redis) minLease() time.Duration { return min(store.MinLease, s.claimTimeout) }

// ensureQueue creates every partition's stream and consumer group that is
// missing. A partition whose node does not answer is logged (its jobs
// wait); only when none answers is it an error.
func (s *Redis) ensureQueue(ctx context.Context) error {
	var failed error
	for p := range s.parts {
		if err := s.ensurePart(ctx, p); err != nil {
			failed = err
			s.log.Warn("store: a partition of the bot-turn queue does not answer; its turns wait", "partition", p, "err", err)
		}
	}
	if failed != nil && s.parts == 1 {
		return failed
	}
	return nil
}

// ensurePart creates partition p's stream and consumer group if missing.
func (s *Redis) ensurePart(ctx context.Context, p int) error {
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	err := s.rdb.XGroupCreateMkStream(ctx, queuePart(p), queueGroup, "0").Err()
	if err != nil && !redis.HasErrorPrefix(err, "BUSYGROUP") {
		return fail(caller, "create the bot-turn queue", err)
	}
	return nil
}

// EnqueueBotTurn queues the bot's turn in g at g's current version, for a
// worker to claim, in the partition of g's channel. The queue is durable:
// a job stays until a worker acks it.
func (s *Redis) EnqueueBotTurn(ctx context.Context, g *store.Game) (string, error) {
	if g == nil {
		return "", fmt.Errorf("enqueue bot turn: %w: no game", store.ErrInvalid)
	}
	if err := store.CheckID("channel", g.Channel); err != nil {
		return "", fmt.Errorf("enqueue bot turn: %w", err)
	}
	if err := store.CheckID("archive", g.ID); err != nil {
		return "", fmt.Errorf("enqueue bot turn: %w", err)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	id, err := s.rdb.XAdd(ctx, &redis.XAddArgs{Stream: queuePart(s.part(g.Channel)), Values: []any{
		"channel", g.Channel, "game", g.ID, "version", g.Version, "queued", s.now().UnixMilli(),
		"lease", s.lease(g).Milliseconds(),
	}}).Result()
	if err != nil {
		return "", fail(caller, "enqueue bot turn for channel "+g.Channel, err)
	}
	return id, nil
}

// pollEvery bounds how long a claim blocks on one partition when there
// are several, before it looks at the others again.
const pollEvery = 100 * time.Millisecond

// ClaimBotTurn claims a bot turn for worker from any partition: one whose
// worker let its lease run out (died, or stalled), else a new one, waiting
// up to wait for one. With nothing to claim the error is ErrNoJob; a
// partition whose node does not answer is skipped (its turns wait), and
// only when none answers is the error ErrUnavailable. The worker must ack
// the job when done with it (applied or stale), and call ExtendBotTurn at
// least every job.Lease/3 while it thinks.
func (s *Redis) ClaimBotTurn(ctx context.Context, worker string, wait time.Duration) (*store.Job, error) {
	if err := store.CheckID("worker", worker); err != nil {
		return nil, fmt.Errorf("claim bot turn: %w", err)
	}
	wait = max(wait, 0)
	caller := ctx
	ctx, cancel := s.op(ctx, wait)
	defer cancel()
	end := time.Now().Add(wait)
	for {
		var failed error
		answered := 0
		order := s.rotation()
		for i, p := range order {
			var block time.Duration
			if i == len(order)-1 {
				block = time.Until(end)
				if s.parts > 1 {
					block = min(block, pollEvery)
				}
			}
			job, err := s.claimFrom(ctx, p, worker, block)
			switch {
			case err == nil:
				return job, nil
			case errors.Is(err, store.ErrNoJob):
				answered++
			default:
				failed = err
			}
		}
		if answered == 0 {
			return nil, fail(caller, "claim bot turn", failed)
		}
		if time.Until(end) < time.Millisecond || ctx.Err() != nil {
			return nil, fmt.Errorf("claim bot turn: %w", store.ErrNoJob)
		}
	}
}

// claimFrom claims a job of partition p for worker: one whose lease ran
// out, else a new one, blocking up to block for it. ErrNoJob when there
// is none.
func (s *Redis) claimFrom(ctx context.Context, p int, worker string, block time.Duration) (*store.Job, error) {
	stream := queuePart(p)
	for range 8 { // a bound on malformed entries skipped in a row
		msg, deliveries, err := s.reclaim(ctx, p, worker)
		if err != nil && redis.HasErrorPrefix(err, "NOGROUP") {
			if err := s.ensurePart(ctx, p); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		if msg == nil {
			b := block
			if b < time.Millisecond {
				b = -1 // no BLOCK at all; BLOCK 0 would wait forever
			}
			streams, err := s.rdb.XReadGroup(ctx, &redis.XReadGroupArgs{
				Group: queueGroup, Consumer: worker, Streams: []string{stream, ">"}, Count: 1, Block: b,
			}).Result()
			if errors.Is(err, redis.Nil) {
				return nil, fmt.Errorf("claim bot turn: %w", store.ErrNoJob)
			}
			if err != nil && redis.HasErrorPrefix(err, "NOGROUP") {
				if err := s.ensurePart(ctx, p); err != nil {
					return nil, err
				}
				continue
			}
			if err != nil {
				return nil, err
			}
			for _, st := range streams {
				if len(st.Messages) > 0 {
					msg = &st.Messages[0]
					break
				}
			}
			if msg == nil {
				return nil, fmt.Errorf("claim bot turn: %w", store.ErrNoJob)
			}
			deliveries = 1
		}
		job, err := s.parseJob(*msg)
		if err != nil {
			s.log.Error("store: dropping a malformed bot turn", "id", msg.ID, "err", err)
			if err := s.ack(ctx, stream, msg.ID); err != nil {
				return nil, err
			}
			continue
		}
		job.Part = p
		job.Deliveries = deliveries
		job.Reclaimed = deliveries > 1
		return job, nil
	}
	return nil, fmt.Errorf("claim bot turn: %w", store.ErrNoJob)
}

// parseJob reads a queue entry.
func (s *Redis) parseJob(m redis.XMessage) (*store.Job, error) {
	str := func(k string) string { v, _ := m.Values[k].(string); return v }
	j := &store.Job{ID: m.ID, Channel: str("channel"), GameID: str("game"), Lease: s.claimTimeout}
	if err := store.CheckID("channel", j.Channel); err != nil {
		return nil, err
	}
	if err := store.CheckID("archive", j.GameID); err != nil {
		return nil, err
	}
	v, err := strconv.ParseInt(str("version"), 10, 64)
	if err != nil || v < 1 {
		return nil, fmt.Errorf("version %q is not a version", str("version"))
	}
	j.Version = v
	j.Queued = queuedAt(m.ID, str("queued"))
	if ms, err := strconv.ParseInt(str("lease"), 10, 64); err == nil && ms > 0 {
		j.Lease = time.Duration(ms) * time.Millisecond
	}
	return j, nil
}

// queuedAt is when a stream entry was queued by Redis's own clock: its
// id is "<ms>-<seq>", given by Redis. An id of another form falls back to
// the "queued" field the enqueuing host recorded.
func queuedAt(id, queued string) time.Time {
	if ms, _, ok := strings.Cut(id, "-"); ok {
		if n, err := strconv.ParseInt(ms, 10, 64); err == nil && n > 0 {
			return time.UnixMilli(n)
		}
	}
	if ms, err := strconv.ParseInt(queued, 10, 64); err == nil {
		return time.UnixMilli(ms)
	}
	return time.Time{}
}

// extendScript renews a job's lease if worker still holds it. KEYS[1] is
// the stream; ARGV: the group, the worker, the entry id. It returns 1 when
// renewed, 0 when the job is no longer that worker's.
var extendScript = redis.NewScript(`
local p = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[3], ARGV[3], 1)
if #p == 0 or p[1][2] ~= ARGV[2] then return 0 end
redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[3], 'JUSTID')
return 1
`)

// ExtendBotTurn tells the queue that worker is still on job, so that no
// other worker reclaims it for another lease. A job that is no longer
// worker's (acked, or its lease ran out and another worker claimed it) is
// ErrStaleJob: the worker should stop thinking about it.
func (s *Redis) ExtendBotTurn(ctx context.Context, worker string, job *store.Job) error {
	if job == nil {
		return fmt.Errorf("extend bot turn: %w: no job", store.ErrInvalid)
	}
	if err := store.CheckID("worker", worker); err != nil {
		return fmt.Errorf("extend bot turn: %w", err)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	res, err := extendScript.Run(ctx, s.rdb, []string{queuePart(job.Part)}, queueGroup, worker, job.ID).Int64()
	if err != nil {
		return fail(caller, "extend bot turn "+job.ID, err)
	}
	if res != 1 {
		return fmt.Errorf("extend bot turn %s: %w", job.ID, store.ErrStaleJob)
	}
	return nil
}

// AckBotTurn marks job done and removes it from the queue. Acking twice is
// harmless.
func (s *Redis) AckBotTurn(ctx context.Context, job *store.Job) error {
	if job == nil {
		return fmt.Errorf("ack bot turn: %w: no job", store.ErrInvalid)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	if err := s.ack(ctx, queuePart(job.Part), job.ID); err != nil {
		return fail(caller, "ack bot turn "+job.ID, err)
	}
	return nil
}

// ack acks and deletes a queue entry, so that the stream holds only jobs
// not yet done.
func (s *Redis) ack(ctx context.Context, stream, id string) error {
	_, err := s.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.XAck(ctx, stream, queueGroup, id)
		pipe.XDel(ctx, stream, id)
		return nil
	})
	return err
}

// LoadForJob loads the game of job if the job is still current: the same
// game, at the version the job was queued for, still going on. Otherwise
// the error is ErrStaleJob and the job must do nothing but be acked. The
// move the job then saves is a compare-and-set on that version, so a job
// run twice applies at most once.
func (s *Redis) LoadForJob(ctx context.Context, job *store.Job) (*store.Game, error) {
	return store.LoadForJob(ctx, s.Load, job)
}

// reclaimPages bounds the pages of long-pending entries one claim looks
// through.
const reclaimPages = 20

// reclaim claims for worker one job of partition p whose lease ran out:
// its worker neither acked nor extended it for its lease (Redis measures
// the idle time). Each job has its own lease, so the pending entries idle
// for at least the shortest lease are looked at, and the first whose own
// lease has run out is claimed, by an XCLAIM that checks the idle time
// again: of two workers racing for it, one gets it. It returns the
// claimed entry and how many times it has been delivered, or nil.
func (s *Redis) reclaim(ctx context.Context, p int, worker string) (*redis.XMessage, int64, error) {
	stream := queuePart(p)
	start := "-"
	for range reclaimPages {
		pend, err := s.rdb.XPendingExt(ctx, &redis.XPendingExtArgs{
			Stream: stream, Group: queueGroup, Idle: s.minLease(), Start: start, End: "+", Count: 10,
		}).Result()
		if err != nil || len(pend) == 0 {
			return nil, 0, err
		}
		ranges := make([]*redis.XMessageSliceCmd, len(pend))
		_, err = s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
			for i, pe := range pend {
				ranges[i] = pipe.XRangeN(ctx, stream, pe.ID, pe.ID, 1)
			}
			return nil
		})
		if err != nil && !errors.Is(err, redis.Nil) {
			return nil, 0, err
		}
		for i, pe := range pend {
			lease := s.claimTimeout
			if msgs := ranges[i].Val(); len(msgs) == 1 {
				if job, err := s.parseJob(msgs[0]); err == nil {
					lease = job.Lease
				}
			} else {
				lease = 0 // deleted from the stream but pending: claim it to drop it
			}
			if pe.Idle < lease {
				continue
			}
			msgs, err := s.rdb.XClaim(ctx, &redis.XClaimArgs{
				Stream: stream, Group: queueGroup, Consumer: worker, MinIdle: lease, Messages: []string{pe.ID},
			}).Result()
			if err != nil {
				return nil, 0, err
			}
			if len(msgs) == 1 {
				return &msgs[0], pe.RetryCount + 1, nil
			}
			if lease == 0 {
				_ = s.rdb.XAck(ctx, stream, queueGroup, pe.ID).Err()
			}
		}
		if len(pend) < 10 {
			return nil, 0, nil
		}
		start = "(" + pend[len(pend)-1].ID
	}
	return nil, 0, nil
}

// QueuedBotTurns counts the bot turns queued and not yet acked, over every
// partition (an acked turn is deleted from its stream).
func (s *Redis) QueuedBotTurns(ctx context.Context) (int64, error) {
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	var n int64
	for p := range s.parts {
		l, err := s.rdb.XLen(ctx, queuePart(p)).Result()
		if err != nil {
			return 0, fail(caller, "count bot turns", err)
		}
		n += l
	}
	return n, nil
}
