package redisstore_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/redisstore"
	"arbiter/store/redistest"
	"arbiter/store/storetest"
)

// TestRedisLayout: Open records the build's layout in a new Redis, and a
// build older than the data's layout refuses it with a message that says
// so and what to do.
func TestRedisLayout(t *testing.T) {
	ctx := storetest.Context(t)
	srv := redistest.Start(t, redistest.Options{})
	cfg := store.Config{RedisURL: srv.URL(), Registry: games.Registry(), Logger: storetest.QuietLogger()}
	s, err := redisstore.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close(ctx)
	opts, _ := redis.ParseURL(srv.URL())
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	if v, err := rdb.Get(ctx, "arbiter:layout").Int(); err != nil || v != store.Layout {
		t.Fatalf("layout recorded: %d %v, want %d", v, err, store.Layout)
	}
	if err := rdb.Set(ctx, "arbiter:layout", store.Layout+1, 0).Err(); err != nil {
		t.Fatal(err)
	}
	_, err = redisstore.Open(ctx, cfg)
	if !errors.Is(err, store.ErrNewerLayout) || !strings.Contains(err.Error(), "docs/how-to/upgrade.md") {
		t.Fatalf("open data of a newer layout: %v", err)
	}
}
