package api

import (
	"sync"
	"time"
)

// rateLimit allows so many events a minute per key (a client's address)
// and in all, each as a token bucket that refills evenly and holds at
// most a minute's worth.
type rateLimit struct {
	perKey, inAll float64 // events a minute
	mu            sync.Mutex
	keys          map[string]*bucket
	all           bucket
}

// bucket is one token bucket: tokens left at a time.
type bucket struct {
	tokens float64
	at     time.Time
}

// newRateLimit allows perKey events a minute to each key and inAll to
// all of them together.
func newRateLimit(perKey, inAll int) *rateLimit {
	return &rateLimit{perKey: float64(perKey), inAll: float64(inAll), keys: map[string]*bucket{}}
}

// take spends one of key's events at now, and one of all's; false (and
// nothing spent) when either has none left.
func (l *rateLimit) take(key string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.keys) > 10000 {
		for k, b := range l.keys { // full buckets are as good as none
			if b.refill(now, l.perKey) >= l.perKey {
				delete(l.keys, k)
			}
		}
	}
	b := l.keys[key]
	if b == nil {
		b = &bucket{tokens: l.perKey, at: now}
		l.keys[key] = b
	}
	if l.all.at.IsZero() {
		l.all = bucket{tokens: l.inAll, at: now}
	}
	if b.refill(now, l.perKey) < 1 || l.all.refill(now, l.inAll) < 1 {
		return false
	}
	b.tokens--
	l.all.tokens--
	return true
}

// refill adds the tokens earned since the bucket's time, up to size (a
// minute's worth), and returns what it holds.
func (b *bucket) refill(now time.Time, size float64) float64 {
	if d := now.Sub(b.at); d > 0 {
		b.tokens = min(size, b.tokens+size*d.Minutes())
		b.at = now
	}
	return b.tokens
}
