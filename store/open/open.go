// Package open opens the store a configuration names: Redis (package
// redisstore) when it gives a Redis URL, else the embedded store (package
// boltstore) under its data directory. It is the one place that knows
// both backends, so that package store and the backends never import each
// other's way up.
package open

import (
	"context"

	"arbiter/store"
	"arbiter/store/boltstore"
	"arbiter/store/redisstore"
)

// Store opens the store cfg names: Redis when cfg.RedisURL is set, else
// the embedded backend under cfg.DataDir.
func Store(ctx context.Context, cfg store.Config) (store.Store, error) {
	if cfg.RedisURL == "" {
		return boltstore.Open(ctx, cfg)
	}
	r, err := redisstore.Open(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return r, nil
}
