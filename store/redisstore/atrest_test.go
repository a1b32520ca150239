package redisstore_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"arbiter/store"
)

// AtRest returns every key and value in Redis (read by type), then the
// RDB snapshot Redis writes on SAVE and its append-only files. It turns
// the append-only file on first when it is off, and snapshots without
// compression, so that a byte in either file is there to find.
func (redisRaw) AtRest(s store.Store) ([]byte, error) {
	ctx := context.Background()
	c, ok := raw(s).(*redis.Client)
	if !ok {
		return nil, fmt.Errorf("AtRest reads one redis-server, not %T", raw(s))
	}
	var out bytes.Buffer
	it := c.Scan(ctx, 0, "*", 500).Iterator()
	for it.Next(ctx) {
		key := it.Val()
		fmt.Fprintf(&out, "key %s\n", key)
		typ, err := c.Type(ctx, key).Result()
		if err != nil {
			return nil, err
		}
		var vals any
		switch typ {
		case "string":
			vals, err = c.Get(ctx, key).Result()
		case "hash":
			vals, err = c.HGetAll(ctx, key).Result()
		case "list":
			vals, err = c.LRange(ctx, key, 0, -1).Result()
		case "set":
			vals, err = c.SMembers(ctx, key).Result()
		case "zset":
			vals, err = c.ZRangeWithScores(ctx, key, 0, -1).Result()
		case "stream":
			vals, err = c.XRange(ctx, key, "-", "+").Result()
		}
		if err != nil && err != redis.Nil {
			return nil, err
		}
		fmt.Fprintf(&out, "%v\n", vals)
	}
	if err := it.Err(); err != nil {
		return nil, err
	}
	if err := c.ConfigSet(ctx, "rdbcompression", "no").Err(); err != nil {
		return nil, err
	}
	if on, err := c.ConfigGet(ctx, "appendonly").Result(); err != nil {
		return nil, err
	} else if on["appendonly"] != "yes" {
		if err := c.ConfigSet(ctx, "appendonly", "yes").Err(); err != nil {
			return nil, err
		}
	}
	if err := waitIdle(ctx, c); err != nil {
		return nil, err
	}
	if err := c.Save(ctx).Err(); err != nil {
		return nil, err
	}
	cfg, err := c.ConfigGet(ctx, "*").Result()
	if err != nil {
		return nil, err
	}
	dump, err := os.ReadFile(filepath.Join(cfg["dir"], cfg["dbfilename"]))
	if err != nil {
		return nil, err
	}
	out.Write(dump)
	aof, err := os.ReadDir(filepath.Join(cfg["dir"], cfg["appenddirname"]))
	if err != nil {
		return nil, err
	}
	if len(aof) == 0 {
		return nil, fmt.Errorf("no append-only files in %s", cfg["appenddirname"])
	}
	for _, f := range aof {
		data, err := os.ReadFile(filepath.Join(cfg["dir"], cfg["appenddirname"], f.Name()))
		if err != nil {
			return nil, err
		}
		out.Write(data)
	}
	return out.Bytes(), nil
}

// waitIdle waits until Redis writes no file in the background.
func waitIdle(ctx context.Context, c *redis.Client) error {
	for end := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		info, err := c.Info(ctx, "persistence").Result()
		if err != nil {
			return err
		}
		if !strings.Contains(info, "_in_progress:1") && !strings.Contains(info, "aof_rewrite_scheduled:1") {
			return nil
		}
		if time.Now().After(end) {
			return fmt.Errorf("redis still writes its files after a minute")
		}
	}
}
