package redisstore_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"

	"arbiter/rules"
	"arbiter/store"
	"arbiter/store/boltstore"
	"arbiter/store/redisstore"
	"arbiter/store/redistest"
	"arbiter/store/storetest"
)

// TestContract holds the Redis backend, on one redis-server and on a
// Redis Cluster, to the store's contract.
func TestContract(t *testing.T) {
	t.Run("redis", func(t *testing.T) {
		storetest.Run(t, storetest.Backend{
			Name: "redis",
			Config: func(t *testing.T) store.Config {
				return store.Config{RedisURL: redistest.Start(t, redistest.Options{}).URL()}
			},
			Open:  openStore,
			Other: openEmbedded,
			Raw:   redisRaw{},
		})
	})
	t.Run("cluster", func(t *testing.T) {
		storetest.Run(t, storetest.Backend{
			Name: "cluster",
			Config: func(t *testing.T) store.Config {
				return store.Config{RedisURL: sharedCluster(t).URL(), Cluster: true, Partitions: 1}
			},
			Open:    openStore,
			Raw:     redisRaw{},
			Cluster: true,
		})
	})
}

func openStore(ctx context.Context, cfg store.Config) (store.Store, error) {
	s, err := redisstore.Open(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// openEmbedded opens an empty embedded store, the other backend of the
// export and import tests.
func openEmbedded(t *testing.T, reg *rules.Registry) store.Store {
	t.Helper()
	s, err := boltstore.Open(context.Background(), store.Config{Registry: reg, Logger: storetest.QuietLogger(), DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	return s
}

// env is one Redis under test: a real redis-server or the shared Redis
// Cluster.
type env struct {
	t    *testing.T
	name string
	srv  *redistest.Server // nil on the cluster
	// cluster is the shared Redis Cluster (flushed for each test), nil
	// for a redis-server.
	cluster *redistest.Cluster
	reg     *rules.Registry
}

// config returns the store configuration of the Redis.
func (e *env) config() store.Config {
	cfg := store.Config{Registry: e.reg, Logger: storetest.QuietLogger()}
	if e.srv != nil {
		cfg.RedisURL = e.srv.URL()
	}
	if e.cluster != nil {
		cfg.RedisURL, cfg.Cluster, cfg.Partitions = e.cluster.URL(), true, 1
	}
	return cfg
}

// openRedis opens the store on the Redis, closed when the test ends.
func (e *env) openRedis(change ...func(*store.Config)) *redisstore.Redis {
	e.t.Helper()
	cfg := e.config()
	for _, c := range change {
		c(&cfg)
	}
	s, err := redisstore.Open(context.Background(), cfg)
	if err != nil {
		e.t.Fatalf("open store: %v", err)
	}
	e.t.Cleanup(func() { _ = s.Close(context.Background()) })
	return s
}

// redisRaw reaches under the contract by Redis commands.
type redisRaw struct{}

func raw(s store.Store) redis.UniversalClient { return s.(*redisstore.Redis).Raw() }

func (redisRaw) PutRecord(s store.Store, channel, version, status string, data []byte) error {
	return raw(s).HSet(context.Background(), redisstore.GameKey(channel), "version", version, "status", status, "record", data).Err()
}

func (redisRaw) Record(s store.Store, channel string) (string, error) {
	return raw(s).HGet(context.Background(), redisstore.GameKey(channel), "record").Result()
}

// PutNotAGame makes the game's key a string.
func (redisRaw) PutNotAGame(s store.Store, channel string) error {
	ctx := context.Background()
	if err := raw(s).Del(ctx, redisstore.GameKey(channel)).Err(); err != nil {
		return err
	}
	return raw(s).Set(ctx, redisstore.GameKey(channel), "oops", 0).Err()
}

func (redisRaw) PutMalformedJob(s store.Store) error {
	return raw(s).XAdd(context.Background(), &redis.XAddArgs{Stream: redisstore.QueueKey, Values: []any{"channel", "{x}", "version", "nope"}}).Err()
}

func (redisRaw) QueueLen(s store.Store) (int, error) {
	n, err := raw(s).XLen(context.Background(), redisstore.QueueKey).Result()
	return int(n), err
}

func (redisRaw) DeadlineChannels(s store.Store) ([]string, error) {
	members, err := raw(s).ZRange(context.Background(), redisstore.DeadlinesKey, 0, -1).Result()
	var out []string
	for _, m := range members {
		ch, _, _ := strings.Cut(m, "/")
		out = append(out, ch)
	}
	return out, err
}

// BeforeRunningDrop runs do ahead of the first SREM sent on its own.
func (redisRaw) PutLegacyToken(s store.Store, hash string, owner store.TokenOwner) error {
	data, err := json.Marshal(owner)
	if err != nil {
		return err
	}
	ctx := context.Background()
	if err := raw(s).Set(ctx, "{tok:"+hash+"}:owner", data, 0).Err(); err != nil {
		return err
	}
	return raw(s).Set(ctx, "{tokuser:"+owner.User+"}:hash", hash, 0).Err()
}

func (redisRaw) BeforeRunningDrop(s store.Store, do func()) func() {
	raw(s).AddHook(&beforeSRem{before: do})
	return func() {}
}

// beforeSRem is a go-redis hook that calls before ahead of the first
// SREM sent on its own.
type beforeSRem struct {
	once   sync.Once
	before func()
}

func (h *beforeSRem) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *beforeSRem) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if strings.EqualFold(cmd.Name(), "srem") {
			h.once.Do(h.before)
		}
		return next(ctx, cmd)
	}
}

func (h *beforeSRem) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
