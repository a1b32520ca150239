// Package retention forgets finished games once they are older than the
// retention the operator set (ARCHIVE_DAYS): a Keeper sweeps the store's
// archive now and then, and the store deletes what finished before the
// cutoff (store.Store's ForgetFinished). With no retention set it does
// nothing: the archive is kept for ever.
package retention

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"arbiter/store"
)

// DefaultEvery is how often a Keeper sweeps when Every is not set: a
// retention is counted in days, and on the embedded store a sweep that
// deletes rewrites the database file (holding up moves meanwhile).
const DefaultEvery = 24 * time.Hour

// lockName is the store lock that keeps the sweeps of several processes
// to one a period.
const lockName = "retention"

// Keeper forgets the finished games older than Days days.
type Keeper struct {
	Store store.Store
	// Days is the retention: finished games older than this many days
	// are forgotten; 0 (or less) keeps them all.
	Days int
	// Every is how often Run sweeps; DefaultEvery when zero.
	Every time.Duration
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Log hears of each sweep that forgot games, and of failures.
	Log *slog.Logger
}

// Sweep forgets, once, the finished games that finished more than Days
// days before now, and returns how many.
func (k *Keeper) Sweep(ctx context.Context) (int, error) {
	cutoff := store.RetentionCutoff(k.now(), k.Days)
	if cutoff.IsZero() {
		return 0, nil
	}
	return k.Store.ForgetFinished(ctx, cutoff)
}

// Run sweeps at once and then every Every until ctx ends; it returns at
// once when no retention is set. Of several processes sharing a store,
// one sweeps a period (the store's lock "retention", left to expire).
func (k *Keeper) Run(ctx context.Context) {
	if k.Days <= 0 {
		return
	}
	every := k.Every
	if every <= 0 {
		every = DefaultEvery
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		k.sweepOnce(ctx, every)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// sweepOnce sweeps if no other process swept in this period.
func (k *Keeper) sweepOnce(ctx context.Context, every time.Duration) {
	if _, err := k.Store.TryLock(ctx, lockName, every*9/10); errors.Is(err, store.ErrLocked) {
		return
	} else if err != nil {
		k.log().Warn("retention: the store's lock did not answer; the sweep waits for the next period", "err", err)
		return
	}
	n, err := k.Sweep(ctx)
	if err != nil {
		k.log().Error("retention: forgetting old finished games failed; the next period tries again", "err", err)
		return
	}
	if n > 0 {
		k.log().Info("retention: old finished games forgotten", "games", n, "days", k.Days)
	}
}

func (k *Keeper) now() time.Time {
	if k.Now == nil {
		return time.Now()
	}
	return k.Now()
}

func (k *Keeper) log() *slog.Logger {
	if k.Log == nil {
		return slog.Default()
	}
	return k.Log
}
