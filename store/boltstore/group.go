package boltstore

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// groupCommit shares write transactions among the writes that arrive
// together (group commit). A write joins the queue; when no transaction of
// the group is running, its writer leads one: it takes every write queued,
// runs them one after another in one bbolt transaction and commits it, with
// bbolt's one pair of syncs, and each writer returns only after that
// commit. Writes that arrive meanwhile wait, and the first of them leads the
// next transaction with all of them, at once: the committing writer wakes
// it after the others of its batch and yields to it. Many writes at once
// thus cost one sync each batch instead of one each. Writes should do in
// the transaction only what needs it (encoding comes before), since every
// write of the group waits for it.
//
// Writers that keep coming back, each with its next write as soon as the
// last is acknowledged, would otherwise settle into alternating batches:
// a full one, and behind it the few that were queued while it ran, each
// batch paying the whole sync. So a leader first gathers: it waits until
// as many writes are queued as were active at the last commit (that
// batch and the writes queued behind it), but never longer than that
// commit took, the time the returning writers would otherwise wait
// behind a transaction of their own, nor than maxGather. A lone writer,
// alone at the last commit too, never waits.
//
// A write that fails is taken out and the others run again without it in a
// fresh transaction, so a failed write changes nothing and the others are
// applied as if it had never run; its error is what it returned, after the
// writes before it in the batch. Writes must therefore be functions of the
// transaction alone that may run more than once.
type groupCommit struct {
	mu      sync.Mutex
	queue   []*groupWrite
	leading bool          // a writer leads a transaction, or has been told to lead the next
	joined  chan struct{} // closed when a write joins the queue, if a leader gathers
	expect  int           // writes active at the last commit: its batch and those queued behind it
	lastTx  time.Duration // how long the last commit took
	longest time.Duration // the longest a leader gathers; 0 is maxGather
}

// maxGather bounds a leader's gathering when the last commit was slow: a
// disk that stalled for a second made that commit slow, not the writers'
// return, and a lone save after it need not wait as long again.
const maxGather = 50 * time.Millisecond

// groupWrite is one write waiting in the group.
type groupWrite struct {
	what string
	fn   func(*bolt.Tx) error
	err  error
	lead bool          // set under groupCommit.mu: this write leads the next transaction
	done chan struct{} // closed when err is final or lead is set
}

// errLeftOut rolls a batch back after one of its writes failed.
var errLeftOut = errors.New("a write of the batch failed")

// updateGrouped is update for writes that may share their transaction
// with others (see groupCommit): fn is committed and synced when it
// returns nil, and changed nothing when it returns an error. fn may run
// more than once. The context is checked until the write joins a
// transaction; from then on its outcome is awaited, so that an error
// always means the write was not applied.
func (s *Bolt) updateGrouped(ctx context.Context, what string, fn func(tx *bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	w := &groupWrite{what: what, fn: fn, done: make(chan struct{})}
	g := &s.group
	g.mu.Lock()
	g.queue = append(g.queue, w)
	if g.joined != nil {
		close(g.joined)
		g.joined = nil
	}
	if !g.leading {
		g.leading, w.lead = true, true
	}
	lead := w.lead
	g.mu.Unlock()
	if !lead {
		select {
		case <-w.done:
		case <-ctx.Done():
			g.mu.Lock()
			if i := slices.Index(g.queue, w); i >= 0 && !w.lead {
				g.queue = slices.Delete(g.queue, i, i+1)
				g.mu.Unlock()
				return fmt.Errorf("%s: %w", what, ctx.Err())
			}
			g.mu.Unlock()
			<-w.done
		}
		if !w.lead {
			return w.err
		}
	}

	g.mu.Lock()
	g.gather()
	batch := g.queue
	g.queue = nil
	g.mu.Unlock()
	start := time.Now()
	s.commitBatch(batch)
	took := time.Since(start)
	for _, o := range batch {
		if o != w {
			close(o.done)
		}
	}
	// Woken last, the next leader is the goroutine this processor runs
	// next, and yielding starts it at once: the database idles until it
	// runs.
	g.mu.Lock()
	g.expect, g.lastTx = len(batch)+len(g.queue), took
	handOn := len(g.queue) > 0
	if handOn {
		next := g.queue[0]
		next.lead = true
		close(next.done)
	} else {
		g.leading = false
	}
	g.mu.Unlock()
	if handOn {
		runtime.Gosched()
	}
	return w.err
}

// gather waits, with g.mu held, until the queue holds as many writes as
// were active at the last commit, or for as long as that commit took (at
// most g.longest), whichever comes first (see groupCommit).
func (g *groupCommit) gather() {
	if len(g.queue) >= g.expect {
		return
	}
	longest := g.longest
	if longest == 0 {
		longest = maxGather
	}
	timer := time.NewTimer(min(g.lastTx, longest))
	defer timer.Stop()
	for len(g.queue) < g.expect {
		if g.joined == nil {
			g.joined = make(chan struct{})
		}
		joined := g.joined
		g.mu.Unlock()
		select {
		case <-joined:
			g.mu.Lock()
		case <-timer.C:
			g.mu.Lock()
			return
		}
	}
}

// commitBatch runs the writes of batch in one transaction and commits it,
// taking out and running again without each write that fails; it sets
// every write's err.
func (s *Bolt) commitBatch(batch []*groupWrite) {
	live := batch
	for len(live) > 0 {
		failed := -1
		damaged, err := s.runBatch(live, &failed)
		if failed >= 0 {
			live = slices.Delete(slices.Clone(live), failed, failed+1)
			continue
		}
		for _, w := range live {
			if damaged != nil {
				w.err = s.damagedPageErr(w.what, damaged)
			} else {
				w.err = s.dbErr(w.what, err)
			}
		}
		return
	}
}

// runBatch runs the writes of live in one transaction: it commits them
// all, or sets *failed to the index of the first that failed (with its err
// set) and rolls back. damaged is what bbolt panicked with on a damaged
// page and err the database's own error; either fails every write.
func (s *Bolt) runBatch(live []*groupWrite, failed *int) (damaged any, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			*failed, damaged = -1, p
		}
	}()
	s.txs.Add(1)
	s.swap.RLock()
	defer s.swap.RUnlock()
	err = s.db.Update(func(tx *bolt.Tx) error {
		for i, w := range live {
			if w.err = w.fn(tx); w.err != nil {
				*failed = i
				return errLeftOut
			}
		}
		return nil
	})
	if *failed >= 0 {
		return nil, nil
	}
	return nil, err
}
