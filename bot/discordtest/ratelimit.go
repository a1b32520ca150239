package discordtest

import (
	"fmt"
	"net/http"
	"time"
)

// RateLimit describes 429 answers to inject.
type RateLimit struct {
	// Route is a Route constant; empty matches every route.
	Route string
	// Count is how many matching requests get 429; zero means 1.
	Count int
	// RetryAfter is the wait Discord asks for; zero means 250 ms.
	RetryAfter time.Duration
	// Global makes it a global rate limit (X-RateLimit-Global, scope
	// "global") rather than a per-route one (scope "user").
	Global bool
}

type fault struct {
	route      string
	remaining  int
	status     int
	retryAfter time.Duration
	global     bool
}

// InjectRateLimit makes the next matching requests answer 429 Too Many
// Requests with Discord's headers (Retry-After, X-RateLimit-*) and body
// ({"message", "retry_after" in seconds, "global"}). Injected answers are
// recorded (Call.Injected) but are not violations.
func (s *Server) InjectRateLimit(rl RateLimit) {
	if rl.Count <= 0 {
		rl.Count = 1
	}
	if rl.RetryAfter <= 0 {
		rl.RetryAfter = 250 * time.Millisecond
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &fault{route: rl.Route, remaining: rl.Count, status: http.StatusTooManyRequests, retryAfter: rl.RetryAfter, global: rl.Global})
}

// InjectFailure makes the next count requests on route ("" for any) answer
// status (500, 502, 503, ...) with Discord's generic error body. discordgo
// retries 502 up to Session.MaxRestRetries times; other statuses reach the
// caller as a *discordgo.RESTError.
func (s *Server) InjectFailure(route string, status, count int) error {
	if status < 400 || status > 599 || status == http.StatusTooManyRequests {
		return fmt.Errorf("inject failure: status %d is not a 4xx/5xx error other than 429 (use InjectRateLimit)", status)
	}
	if count <= 0 {
		count = 1
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &fault{route: route, remaining: count, status: status})
	return nil
}

func (s *Server) takeFaultLocked(routeName string) *fault {
	for i, f := range s.faults {
		if f.route != "" && f.route != routeName {
			continue
		}
		f.remaining--
		if f.remaining <= 0 {
			s.faults = append(s.faults[:i], s.faults[i+1:]...)
		}
		return f
	}
	return nil
}

// answer builds the injected answer and its headers.
func (f *fault) answer(now time.Time, h http.Header, routeName string) *reply {
	if f.status != http.StatusTooManyRequests {
		return &reply{status: f.status, body: map[string]any{"message": fmt.Sprintf("%d: %s", f.status, http.StatusText(f.status)), "code": 0}}
	}
	h.Set("Retry-After", ceilSeconds(f.retryAfter))
	if f.global {
		h.Set("X-RateLimit-Global", "true")
		h.Set("X-RateLimit-Scope", "global")
	} else {
		h.Set("X-RateLimit-Limit", "5")
		h.Set("X-RateLimit-Remaining", "0")
		h.Set("X-RateLimit-Reset", formatEpoch(now.Add(f.retryAfter)))
		h.Set("X-RateLimit-Reset-After", formatSeconds(f.retryAfter))
		h.Set("X-RateLimit-Bucket", bucketHash(routeName))
		h.Set("X-RateLimit-Scope", "user")
	}
	return &reply{status: http.StatusTooManyRequests, body: map[string]any{
		"message":     "You are being rate limited.",
		"retry_after": f.retryAfter.Seconds(),
		"global":      f.global,
		"code":        0,
	}}
}
