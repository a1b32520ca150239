package redisstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"

	"arbiter/store"
)

// layoutKey holds the layout version of the data in this Redis
// (store.Layout of the newest build that opened it).
const layoutKey = "arbiter:layout"

// checkLayout refuses a Redis whose data a newer build wrote (a later
// layout than store.Layout) and records this build's layout otherwise.
func (s *Redis) checkLayout(ctx context.Context) error {
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	v, err := s.rdb.Get(ctx, layoutKey).Int()
	switch {
	case errors.Is(err, redis.Nil):
		v = 0
	case err != nil:
		return fail(caller, "read the data's layout", err)
	}
	if v > store.Layout {
		return fmt.Errorf("the data in Redis has layout %d and this build reads layout %d and earlier: %w; "+
			"run the newer build again, or restore the backup taken before the upgrade (docs/how-to/upgrade.md)",
			v, store.Layout, store.ErrNewerLayout)
	}
	if v < store.Layout {
		if err := s.rdb.Set(ctx, layoutKey, store.Layout, 0).Err(); err != nil {
			return fail(caller, "record the data's layout", err)
		}
	}
	return nil
}
