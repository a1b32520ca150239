package boltstore

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"

	"arbiter/store"
)

// boltJob is a bot turn as stored in the queue bucket.
type boltJob struct {
	Channel string `json:"channel"`
	Game    string `json:"game"`
	Version int64  `json:"version"`
	Queued  int64  `json:"queued"`          // Unix ms
	Lease   int64  `json:"lease,omitempty"` // ms; 0 (an older entry): the claim timeout
}

// claim is a bot turn handed to a worker, until its lease ends.
type claim struct {
	worker     string
	until      time.Time
	lease      time.Duration
	deliveries int64 // the claims of the job so far
}

// EnqueueBotTurn queues the bot's turn in g at g's version. The job is on
// disk when it returns, and stays until a worker acks it.
func (s *Bolt) EnqueueBotTurn(ctx context.Context, g *store.Game) (string, error) {
	if g == nil {
		return "", fmt.Errorf("enqueue bot turn: %w: no game", store.ErrInvalid)
	}
	if err := store.CheckID("channel", g.Channel); err != nil {
		return "", fmt.Errorf("enqueue bot turn: %w", err)
	}
	if err := store.CheckID("archive", g.ID); err != nil {
		return "", fmt.Errorf("enqueue bot turn: %w", err)
	}
	data, err := json.Marshal(boltJob{Channel: g.Channel, Game: g.ID, Version: g.Version, Queued: s.now().UnixMilli(),
		Lease: store.JobLease(s.reg, s.claimTimeout, g).Milliseconds()})
	if err != nil {
		return "", fmt.Errorf("enqueue bot turn: %w", err)
	}
	var id uint64
	err = s.update(ctx, "enqueue bot turn for channel "+g.Channel, func(tx *bolt.Tx) error {
		q := tx.Bucket(bQueue)
		var err error
		if id, err = q.NextSequence(); err != nil {
			return err
		}
		return q.Put(u64(id), data)
	})
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	close(s.wakeup)
	s.wakeup = make(chan struct{})
	s.mu.Unlock()
	return strconv.FormatUint(id, 10), nil
}

// ClaimBotTurn claims a bot turn for worker, as Redis.ClaimBotTurn does:
// first one whose lease ran out (whoever held it, worker too: a turn that
// crashed its worker does not come straight back to it), else a new one,
// waiting up to wait for one to be queued. With nothing to claim the
// error is ErrNoJob.
func (s *Bolt) ClaimBotTurn(ctx context.Context, worker string, wait time.Duration) (*store.Job, error) {
	if err := store.CheckID("worker", worker); err != nil {
		return nil, fmt.Errorf("claim bot turn: %w", err)
	}
	timer := time.NewTimer(max(wait, 0))
	defer timer.Stop()
	for {
		s.mu.Lock()
		wakeup := s.wakeup
		s.mu.Unlock()
		job, err := s.claimOne(ctx, worker)
		if err != nil || job != nil {
			return job, err
		}
		if wait <= 0 {
			return nil, fmt.Errorf("claim bot turn: %w", store.ErrNoJob)
		}
		select {
		case <-wakeup:
		case <-timer.C:
			return nil, fmt.Errorf("claim bot turn: %w", store.ErrNoJob)
		case <-ctx.Done():
			return nil, fmt.Errorf("claim bot turn: %w", ctx.Err())
		case <-s.closed:
			return nil, fmt.Errorf("claim bot turn: %w (the store is closed)", store.ErrUnavailable)
		}
	}
}

// claimOne claims the best job for worker now, or returns nil. Malformed
// entries are dropped on the way.
func (s *Bolt) claimOne(ctx context.Context, worker string) (*store.Job, error) {
	var (
		best      *store.Job
		bestRank  = 3 // 1: lease ran out, 2: new
		malformed [][]byte
	)
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.view(ctx, "claim bot turn", func(tx *bolt.Tx) error {
		return tx.Bucket(bQueue).ForEach(func(k, v []byte) error {
			if len(k) != 8 {
				malformed = append(malformed, append([]byte(nil), k...))
				return nil
			}
			n := binary.BigEndian.Uint64(k)
			rank := 2
			if c, ok := s.claims[n]; ok {
				if !now.After(c.until) {
					return nil // a worker holds it
				}
				rank = 1
			}
			if rank >= bestRank {
				return nil
			}
			job, err := parseBoltJob(n, v)
			if err != nil {
				s.log.Error("store: dropping a malformed bot turn", "id", n, "err", err)
				malformed = append(malformed, append([]byte(nil), k...))
				return nil
			}
			job.Reclaimed = rank < 2
			best, bestRank = job, rank
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	if len(malformed) > 0 {
		err := s.update(ctx, "drop malformed bot turn", func(tx *bolt.Tx) error {
			for _, k := range malformed {
				if err := tx.Bucket(bQueue).Delete(k); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if best != nil {
		n, _ := strconv.ParseUint(best.ID, 10, 64)
		if best.Lease <= 0 {
			best.Lease = s.claimTimeout
		}
		best.Deliveries = s.claims[n].deliveries + 1
		s.claims[n] = claim{worker: worker, until: now.Add(best.Lease), lease: best.Lease, deliveries: best.Deliveries}
	}
	return best, nil
}

// parseBoltJob reads a queue entry.
func parseBoltJob(n uint64, data []byte) (*store.Job, error) {
	var b boltJob
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("not a bot turn: %v", err)
	}
	if err := store.CheckID("channel", b.Channel); err != nil {
		return nil, err
	}
	if err := store.CheckID("archive", b.Game); err != nil {
		return nil, err
	}
	if b.Version < 1 {
		return nil, fmt.Errorf("version %d is not a version", b.Version)
	}
	return &store.Job{ID: strconv.FormatUint(n, 10), Channel: b.Channel, GameID: b.Game, Version: b.Version,
		Queued: time.UnixMilli(b.Queued), Lease: time.Duration(b.Lease) * time.Millisecond}, nil
}

// jobNumber reads a job's id.
func jobNumber(what string, job *store.Job) (uint64, error) {
	if job == nil {
		return 0, fmt.Errorf("%s: %w: no job", what, store.ErrInvalid)
	}
	n, err := strconv.ParseUint(job.ID, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %w: job id %q", what, store.ErrInvalid, job.ID)
	}
	return n, nil
}

// ExtendBotTurn gives worker another claim timeout on job. A job no
// longer queued (acked) is ErrStaleJob.
func (s *Bolt) ExtendBotTurn(ctx context.Context, worker string, job *store.Job) error {
	n, err := jobNumber("extend bot turn", job)
	if err != nil {
		return err
	}
	if err := store.CheckID("worker", worker); err != nil {
		return fmt.Errorf("extend bot turn: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var queued bool
	err = s.view(ctx, "extend bot turn "+job.ID, func(tx *bolt.Tx) error {
		queued = tx.Bucket(bQueue).Get(u64(n)) != nil
		return nil
	})
	if err != nil {
		return err
	}
	c, held := s.claims[n]
	if !queued || !held || c.worker != worker {
		return fmt.Errorf("extend bot turn %s: %w", job.ID, store.ErrStaleJob)
	}
	c.until = time.Now().Add(c.lease)
	s.claims[n] = c
	return nil
}

// AckBotTurn removes a finished turn from the queue, on disk when it
// returns. Acking twice is harmless.
func (s *Bolt) AckBotTurn(ctx context.Context, job *store.Job) error {
	n, err := jobNumber("ack bot turn", job)
	if err != nil {
		return err
	}
	err = s.update(ctx, "ack bot turn "+job.ID, func(tx *bolt.Tx) error {
		return tx.Bucket(bQueue).Delete(u64(n))
	})
	if err != nil {
		return err
	}
	s.mu.Lock()
	delete(s.claims, n)
	s.mu.Unlock()
	return nil
}

// QueuedBotTurns counts the bot turns queued and not yet acked.
func (s *Bolt) QueuedBotTurns(ctx context.Context) (int64, error) {
	var n int64
	err := s.view(ctx, "count bot turns", func(tx *bolt.Tx) error {
		n = int64(tx.Bucket(bQueue).Stats().KeyN)
		return nil
	})
	return n, err
}

// LoadForJob loads the game of job if the job is still current (the same
// game, at the version it was queued for, going on); else ErrStaleJob.
func (s *Bolt) LoadForJob(ctx context.Context, job *store.Job) (*store.Game, error) {
	return store.LoadForJob(ctx, s.Load, job)
}

// boltLock is a lock held in memory: the data directory belongs to one
// process, so a lock dies with the process that held it.
type boltLock struct {
	s     *Bolt
	name  string
	token string
	ttl   time.Duration
	until time.Time
}

// TryLock takes the lock called name for ttl (at least a millisecond), or
// returns ErrLocked when another holder has it.
func (s *Bolt) TryLock(ctx context.Context, name string, ttl time.Duration) (store.Lock, error) {
	if err := store.CheckID("lock", name); err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	if ttl < time.Millisecond {
		return nil, fmt.Errorf("lock %s: %w: TTL %v is under a millisecond", name, store.ErrInvalid, ttl)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	if cur, ok := s.locks[name]; ok && now.Before(cur.until) {
		return nil, fmt.Errorf("lock %s: %w", name, store.ErrLocked)
	}
	if len(s.locks) >= 1024 { // many short-lived names (interaction ids): forget the expired
		for k, cur := range s.locks {
			if !now.Before(cur.until) {
				delete(s.locks, k)
			}
		}
	}
	l := boltLock{s: s, name: name, token: store.NewToken(), ttl: ttl, until: now.Add(ttl)}
	s.locks[name] = l
	return &l, nil
}

// Renew extends the lock by its TTL from now; ErrLockLost when it expired
// or another took it.
func (l *boltLock) Renew(ctx context.Context) error {
	return l.held("renew", func(now time.Time) {
		l.until = now.Add(l.ttl)
		l.s.locks[l.name] = *l
	})
}

// Release frees the lock if l still holds it; ErrLockLost otherwise.
func (l *boltLock) Release(ctx context.Context) error {
	return l.held("release", func(time.Time) { delete(l.s.locks, l.name) })
}

// held runs fn if l still holds its lock.
func (l *boltLock) held(what string, fn func(now time.Time)) error {
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	now := time.Now()
	cur, ok := l.s.locks[l.name]
	if !ok || cur.token != l.token || !now.Before(cur.until) {
		return fmt.Errorf("%s lock %s: %w", what, l.name, store.ErrLockLost)
	}
	fn(now)
	return nil
}
