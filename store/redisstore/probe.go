package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Probe is what a look at a Redis found, for `arbiter doctor`.
type Probe struct {
	// AppendOnly, AppendFsync and Save are its persistence settings
	// (CONFIG GET); Config is false when CONFIG is not allowed (a managed
	// Redis), and they are unknown.
	Config      bool
	AppendOnly  bool
	AppendFsync string
	Save        string
	// Layout is the data's layout version (0: none recorded yet).
	Layout int
}

// ErrBadURL is ProbeURL's error for a URL that does not read as one.
var ErrBadURL = errors.New("REDIS_URL does not read")

// ProbeURL connects to the Redis (or the Redis Cluster, when cluster) at
// url, without changing anything, and reads its persistence settings and
// the data's layout.
func ProbeURL(ctx context.Context, url string, cluster bool) (Probe, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	var rdb redis.UniversalClient
	if cluster {
		o, err := redis.ParseClusterURL(url)
		if err != nil {
			return Probe{}, fmt.Errorf("%w as a cluster's (redis://host:port?addr=host2:port2): %s", ErrBadURL, urlError(url, err))
		}
		rdb = redis.NewClusterClient(o)
	} else {
		o, err := redis.ParseURL(url)
		if err != nil {
			return Probe{}, fmt.Errorf("%w: %s", ErrBadURL, urlError(url, err))
		}
		o.MaxRetries = -1
		rdb = redis.NewClient(o)
	}
	defer rdb.Close()
	if err := rdb.Ping(ctx).Err(); err != nil {
		return Probe{}, fmt.Errorf("no answer from %s: %v", redactURL(url), err)
	}
	var p Probe
	if m, err := rdb.ConfigGet(ctx, "*").Result(); err == nil {
		p.Config = true
		p.AppendOnly = strings.EqualFold(m["appendonly"], "yes")
		p.AppendFsync, p.Save = m["appendfsync"], m["save"]
	}
	v, err := rdb.Get(ctx, layoutKey).Int()
	if err != nil && !errors.Is(err, redis.Nil) {
		return p, fmt.Errorf("read the data's layout: %v", err)
	}
	p.Layout = v
	return p, nil
}
