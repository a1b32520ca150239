package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Job is a bot turn waiting in, or claimed from, the queue: play the bot's
// move in the game of Channel if it is still game GameID at Version.
type Job struct {
	ID        string    // the stream entry id
	Channel   string    // the game's channel
	GameID    string    // the game's archive id
	Version   int64     // the version of the game the turn was queued for
	Queued    time.Time // when it was queued
	Reclaimed bool      // claimed from a worker that did not ack it in time
}

// ensureQueue creates the queue's stream and consumer group if they are
// missing.
func (s *Redis) ensureQueue(ctx context.Context) error {
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	err := s.rdb.XGroupCreateMkStream(ctx, queueKey, queueGroup, "0").Err()
	if err != nil && !redis.HasErrorPrefix(err, "BUSYGROUP") {
		return fail(caller, "create the bot-turn queue", err)
	}
	return nil
}

// EnqueueBotTurn queues the bot's turn in g at g's current version, for a
// worker to claim. The queue is durable: a job stays until a worker acks
// it.
func (s *Redis) EnqueueBotTurn(ctx context.Context, g *Game) (string, error) {
	if g == nil {
		return "", fmt.Errorf("enqueue bot turn: %w: no game", ErrInvalid)
	}
	if err := checkID("channel", g.Channel); err != nil {
		return "", fmt.Errorf("enqueue bot turn: %w", err)
	}
	if err := checkID("archive", g.ID); err != nil {
		return "", fmt.Errorf("enqueue bot turn: %w", err)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	id, err := s.rdb.XAdd(ctx, &redis.XAddArgs{Stream: queueKey, Values: []any{
		"channel", g.Channel, "game", g.ID, "version", g.Version, "queued", s.now().UnixMilli(),
	}}).Result()
	if err != nil {
		return "", fail(caller, "enqueue bot turn for channel "+g.Channel, err)
	}
	return id, nil
}

// ClaimBotTurn claims a bot turn for worker: first one that worker itself
// claimed before and did not ack (after a restart under the same name),
// then one that another worker claimed but did not ack within the claim
// timeout, else a new one,
// waiting up to wait for it. With nothing to claim the error is ErrNoJob.
// The worker must ack the job when done with it (applied or stale), and
// call ExtendBotTurn while it thinks for longer than the claim timeout.
func (s *Redis) ClaimBotTurn(ctx context.Context, worker string, wait time.Duration) (*Job, error) {
	if err := checkID("worker", worker); err != nil {
		return nil, fmt.Errorf("claim bot turn: %w", err)
	}
	if wait < 0 {
		wait = 0
	}
	caller := ctx
	ctx, cancel := s.op(ctx, wait)
	defer cancel()
	for range 8 { // a bound on malformed entries skipped in a row
		// A worker's own unacked job first: the same worker restarted (or a
		// job it gave up on for a passing fault) takes it up at once.
		own, err := s.rdb.XReadGroup(ctx, &redis.XReadGroupArgs{
			Group: queueGroup, Consumer: worker, Streams: []string{queueKey, "0"}, Count: 1, Block: -1,
		}).Result()
		if err == nil && len(own) > 0 && len(own[0].Messages) > 0 {
			m := own[0].Messages[0]
			job, perr := parseJob(m)
			if perr != nil {
				s.log.Error("store: dropping a malformed bot turn", "id", m.ID, "err", perr)
				if err := s.ack(ctx, m.ID); err != nil {
					return nil, fail(caller, "drop malformed bot turn", err)
				}
				continue
			}
			job.Reclaimed = true
			return job, nil
		}
		msgs, err := s.autoClaim(ctx, worker)
		if err != nil && redis.HasErrorPrefix(err, "NOGROUP") {
			if err := s.ensureQueue(caller); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, fail(caller, "claim bot turn", err)
		}
		reclaimed := len(msgs) > 0
		if !reclaimed {
			block := wait
			if block <= 0 {
				block = -1 // no BLOCK at all; BLOCK 0 would wait forever
			}
			streams, err := s.rdb.XReadGroup(ctx, &redis.XReadGroupArgs{
				Group: queueGroup, Consumer: worker, Streams: []string{queueKey, ">"}, Count: 1, Block: block,
			}).Result()
			if errors.Is(err, redis.Nil) {
				return nil, fmt.Errorf("claim bot turn: %w", ErrNoJob)
			}
			if err != nil && redis.HasErrorPrefix(err, "NOGROUP") {
				if err := s.ensureQueue(caller); err != nil {
					return nil, err
				}
				continue
			}
			if err != nil {
				return nil, fail(caller, "claim bot turn", err)
			}
			for _, st := range streams {
				msgs = append(msgs, st.Messages...)
			}
			if len(msgs) == 0 {
				return nil, fmt.Errorf("claim bot turn: %w", ErrNoJob)
			}
		}
		job, err := parseJob(msgs[0])
		if err != nil {
			s.log.Error("store: dropping a malformed bot turn", "id", msgs[0].ID, "err", err)
			if err := s.ack(ctx, msgs[0].ID); err != nil {
				return nil, fail(caller, "drop malformed bot turn", err)
			}
			continue
		}
		job.Reclaimed = reclaimed
		return job, nil
	}
	return nil, fmt.Errorf("claim bot turn: %w", ErrNoJob)
}

// parseJob reads a queue entry.
func parseJob(m redis.XMessage) (*Job, error) {
	str := func(k string) string { v, _ := m.Values[k].(string); return v }
	j := &Job{ID: m.ID, Channel: str("channel"), GameID: str("game")}
	if err := checkID("channel", j.Channel); err != nil {
		return nil, err
	}
	if err := checkID("archive", j.GameID); err != nil {
		return nil, err
	}
	v, err := strconv.ParseInt(str("version"), 10, 64)
	if err != nil || v < 1 {
		return nil, fmt.Errorf("version %q is not a version", str("version"))
	}
	j.Version = v
	if ms, err := strconv.ParseInt(str("queued"), 10, 64); err == nil {
		j.Queued = time.UnixMilli(ms)
	}
	return j, nil
}

// ExtendBotTurn tells the queue that worker is still on job, so that no
// other worker reclaims it for another claim timeout. A job that is no
// longer pending (acked, or reclaimed and acked by another) is
// ErrStaleJob.
func (s *Redis) ExtendBotTurn(ctx context.Context, worker string, job *Job) error {
	if job == nil {
		return fmt.Errorf("extend bot turn: %w: no job", ErrInvalid)
	}
	if err := checkID("worker", worker); err != nil {
		return fmt.Errorf("extend bot turn: %w", err)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	ids, err := s.rdb.XClaimJustID(ctx, &redis.XClaimArgs{
		Stream: queueKey, Group: queueGroup, Consumer: worker, MinIdle: 0, Messages: []string{job.ID},
	}).Result()
	if err != nil {
		return fail(caller, "extend bot turn "+job.ID, err)
	}
	if len(ids) == 0 {
		return fmt.Errorf("extend bot turn %s: %w", job.ID, ErrStaleJob)
	}
	return nil
}

// AckBotTurn marks job done and removes it from the queue. Acking twice is
// harmless.
func (s *Redis) AckBotTurn(ctx context.Context, job *Job) error {
	if job == nil {
		return fmt.Errorf("ack bot turn: %w: no job", ErrInvalid)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	if err := s.ack(ctx, job.ID); err != nil {
		return fail(caller, "ack bot turn "+job.ID, err)
	}
	return nil
}

// ack acks and deletes a queue entry, so that the stream holds only jobs
// not yet done.
func (s *Redis) ack(ctx context.Context, id string) error {
	_, err := s.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.XAck(ctx, queueKey, queueGroup, id)
		pipe.XDel(ctx, queueKey, id)
		return nil
	})
	return err
}

// LoadForJob loads the game of job if the job is still current: the same
// game, at the version the job was queued for, still going on. Otherwise
// the error is ErrStaleJob and the job must do nothing but be acked. The
// move the job then saves is a compare-and-set on that version, so a job
// run twice applies at most once.
func (s *Redis) LoadForJob(ctx context.Context, job *Job) (*Game, error) {
	if job == nil {
		return nil, fmt.Errorf("load for bot turn: %w: no job", ErrInvalid)
	}
	g, err := s.Load(ctx, job.Channel)
	if errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("load for bot turn %s: %w (%w)", job.ID, ErrStaleJob, err)
	}
	if err != nil {
		return nil, fmt.Errorf("load for bot turn %s: %w", job.ID, err)
	}
	if g.ID != job.GameID || g.Version != job.Version || g.Status != Active {
		return nil, fmt.Errorf("load for bot turn %s: %w (queued for game %s version %d, the channel has game %s version %d, %s)",
			job.ID, ErrStaleJob, job.GameID, job.Version, g.ID, g.Version, g.Status)
	}
	return g, nil
}

// autoClaimPages bounds the pages of pending entries one claim looks
// through; Redis looks at ten entries a page for a claim of one.
const autoClaimPages = 20

// autoClaim claims for worker one job that another worker has held past
// the claim timeout, following XAUTOCLAIM's cursor so that such a job is
// found behind jobs still being thought about.
func (s *Redis) autoClaim(ctx context.Context, worker string) ([]redis.XMessage, error) {
	start := "0-0"
	for range autoClaimPages {
		msgs, next, err := s.rdb.XAutoClaim(ctx, &redis.XAutoClaimArgs{
			Stream: queueKey, Group: queueGroup, Consumer: worker,
			MinIdle: s.claimTimeout, Start: start, Count: 1,
		}).Result()
		if err != nil || len(msgs) > 0 || next == "0-0" || next == "" {
			return msgs, err
		}
		start = next
	}
	return nil, nil
}
