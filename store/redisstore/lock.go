package redisstore

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"arbiter/store"
)

// redisLock is a Lock kept in Redis as a key with an expiry.
type redisLock struct {
	s     *Redis
	name  string
	token string
	ttl   time.Duration
}

// renewScript extends a lock if the caller holds it. KEYS[1] the lock;
// ARGV: token, TTL in milliseconds.
var renewScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
`)

// releaseScript deletes a lock if the caller holds it. KEYS[1] the lock;
// ARGV[1] the token.
var releaseScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`)

// TryLock takes the lock called name for ttl (at least a millisecond), or
// returns ErrLocked when another holder has it.
func (s *Redis) TryLock(ctx context.Context, name string, ttl time.Duration) (store.Lock, error) {
	if err := store.CheckID("lock", name); err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	if ttl < time.Millisecond {
		return nil, fmt.Errorf("lock %s: %w: TTL %v is under a millisecond", name, store.ErrInvalid, ttl)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	l := &redisLock{s: s, name: name, token: store.NewToken(), ttl: ttl}
	ok, err := s.rdb.SetNX(ctx, lockKey(name), l.token, ttl).Result()
	if err != nil {
		return nil, fail(caller, "lock "+name, err)
	}
	if !ok {
		return nil, fmt.Errorf("lock %s: %w", name, store.ErrLocked)
	}
	return l, nil
}

// Renew extends the lock by its TTL from now. A lock that expired or was
// taken by another is ErrLockLost: the holder must stop what the lock
// guards.
func (l *redisLock) Renew(ctx context.Context) error {
	caller := ctx
	ctx, cancel := l.s.op(ctx, 0)
	defer cancel()
	n, err := l.s.runOne(ctx, renewScript, []string{lockKey(l.name)}, l.token, l.ttl.Milliseconds())
	if err != nil {
		return fail(caller, "renew lock "+l.name, err)
	}
	if n != 1 {
		return fmt.Errorf("renew lock %s: %w", l.name, store.ErrLockLost)
	}
	return nil
}

// Release frees the lock if it is still held by l; releasing a lock that
// was lost is ErrLockLost and changes nothing.
func (l *redisLock) Release(ctx context.Context) error {
	caller := ctx
	ctx, cancel := l.s.op(ctx, 0)
	defer cancel()
	n, err := l.s.runOne(ctx, releaseScript, []string{lockKey(l.name)}, l.token)
	if err != nil {
		return fail(caller, "release lock "+l.name, err)
	}
	if n != 1 {
		return fmt.Errorf("release lock %s: %w", l.name, store.ErrLockLost)
	}
	return nil
}

// runOne runs a script alone and returns its integer result.
func (s *Redis) runOne(ctx context.Context, script *redis.Script, keys []string, args ...any) (int64, error) {
	return script.Run(ctx, s.rdb, keys, args...).Int64()
}
