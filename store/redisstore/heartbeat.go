package redisstore

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"arbiter/store"
)

// Keys of the heartbeat (one slot, with the deadlines and the queue).
const (
	heartbeatKey = "{arbiter}:heartbeat" // Unix ms (store time) of the last beat of any command-taking process
	outagesKey   = "{arbiter}:outages"   // sorted set: "<from ms>-<to ms>" by its end
)

// beatScript records a beat at Redis's own time. KEYS: the heartbeat, the
// outages; ARGV[1]: the gap in ms beyond which the time since the last
// beat is an outage. It returns {now, outage start or 0}; exactly one beat
// sees each outage, which it records.
var beatScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
if now <= last then return {now, 0} end
redis.call('SET', KEYS[1], now)
if last > 0 and now - last > tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[2], now, last .. '-' .. now)
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -` + strconv.Itoa(store.MaxOutages+1) + `)
  return {now, last}
end
return {now, 0}
`)

// Time returns the store's clock: Redis's TIME. It is the one time source
// of deadlines across processes, whatever each host's clock says.
func (s *Redis) Time(ctx context.Context) (time.Time, error) {
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	before := s.wall()
	t, err := s.rdb.Time(ctx).Result()
	if err != nil {
		return time.Time{}, fail(caller, "read the store's time", err)
	}
	after := s.wall()
	s.offset.Store(int64(t.Sub(before.Add(after.Sub(before) / 2))))
	return t, nil
}

// Heartbeat records, at the store's time, that a process taking players'
// commands (the bot, the console) is up and reaching the store. When no
// such process had beaten for longer than stale, the time from the last
// beat to now is an outage: it is recorded (see Outages) and returned to
// exactly one caller, who should tell the affected channels; otherwise the
// returned Outage is zero.
func (s *Redis) Heartbeat(ctx context.Context, stale time.Duration) (store.Outage, error) {
	if stale < time.Millisecond {
		return store.Outage{}, fmt.Errorf("heartbeat: %w: stale bound %v is under a millisecond", store.ErrInvalid, stale)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	vals, err := beatScript.Run(ctx, s.rdb, []string{heartbeatKey, outagesKey}, stale.Milliseconds()).Int64Slice()
	if err != nil {
		return store.Outage{}, fail(caller, "heartbeat", err)
	}
	if len(vals) != 2 || vals[1] == 0 {
		return store.Outage{}, nil
	}
	return store.Outage{From: time.UnixMilli(vals[1]), To: time.UnixMilli(vals[0])}, nil
}

// LastBeat returns the store's time now and the time of the last beat of
// any command-taking process (zero when there never was one).
func (s *Redis) LastBeat(ctx context.Context) (now, last time.Time, err error) {
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	var tcmd *redis.TimeCmd
	var lcmd *redis.StringCmd
	_, err = s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		tcmd = pipe.Time(ctx)
		lcmd = pipe.Get(ctx, heartbeatKey)
		return nil
	})
	if err != nil && err != redis.Nil {
		return time.Time{}, time.Time{}, fail(caller, "read the heartbeat", err)
	}
	now = tcmd.Val()
	if ms, perr := strconv.ParseInt(lcmd.Val(), 10, 64); perr == nil && ms > 0 {
		last = time.UnixMilli(ms)
	}
	return now, last, nil
}

// Outages returns the recorded outages that ended after since, oldest
// first (the last 1,000 are kept).
func (s *Redis) Outages(ctx context.Context, since time.Time) ([]store.Outage, error) {
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	members, err := s.rdb.ZRangeByScore(ctx, outagesKey, &redis.ZRangeBy{
		Min: "(" + strconv.FormatInt(since.UnixMilli(), 10), Max: "+inf",
	}).Result()
	if err != nil {
		return nil, fail(caller, "read the outages", err)
	}
	out := make([]store.Outage, 0, len(members))
	for _, m := range members {
		from, to, ok := strings.Cut(m, "-")
		f, ferr := strconv.ParseInt(from, 10, 64)
		t, terr := strconv.ParseInt(to, 10, 64)
		if !ok || ferr != nil || terr != nil || t < f {
			s.log.Warn("store: damaged outage entry skipped", "entry", m)
			continue
		}
		out = append(out, store.Outage{From: time.UnixMilli(f), To: time.UnixMilli(t)})
	}
	return out, nil
}
