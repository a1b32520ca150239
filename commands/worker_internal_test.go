package commands

import (
	"testing"
	"time"
)

// TestThinkTimeShrinksWithTheQueue: a turn that waited in the queue gets
// only what is left of its game's limit.
func TestThinkTimeShrinksWithTheQueue(t *testing.T) {
	queued := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		limit, waited, want time.Duration
	}{
		{5 * time.Second, 0, 5*time.Second - botMargin},
		{5 * time.Second, 2 * time.Second, 3*time.Second - botMargin},
		{20 * time.Second, 19 * time.Second, time.Second - botMargin},
		{5 * time.Second, 5 * time.Second, 20 * time.Millisecond},
		{5 * time.Second, time.Minute, 20 * time.Millisecond},
		{5 * time.Second, -time.Hour, 5*time.Second - botMargin}, // never more than the limit
	} {
		got := thinkTime(tt.limit, queued, queued.Add(tt.waited))
		if got != tt.want {
			t.Errorf("thinkTime(%v, waited %v) = %v, want %v", tt.limit, tt.waited, got, tt.want)
		}
		if tt.waited+got > tt.limit && got != 20*time.Millisecond {
			t.Errorf("waited %v + think %v overruns the limit %v", tt.waited, got, tt.limit)
		}
	}
}

func TestClipKeepsRunesWhole(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"abcdef", 3, "abc ..."},
		{"ééé", 3, "é ..."}, // é is two bytes: the cut moves back to a rune start
	} {
		if got := clip(tt.in, tt.n); got != tt.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

// TestClaimExtendedWithinItsLease: a worker extends its claim well within
// the store's lease, also when its think time is longer than the game's
// class limit the lease was drawn from (BOT_MOVE_TIME), so that no other
// worker takes over a turn still being thought about.
func TestClaimExtendedWithinItsLease(t *testing.T) {
	for _, tt := range []struct{ limit, lease time.Duration }{
		{5 * time.Second, 1250 * time.Millisecond},
		{20 * time.Second, 5 * time.Second},
		{30 * time.Second, 1250 * time.Millisecond}, // BOT_MOVE_TIME=30s on Sixes
		{60 * time.Millisecond, 1250 * time.Millisecond},
		{time.Minute, 0}, // a job without a lease of its own
	} {
		every := extendEvery(tt.limit, tt.lease)
		if tt.lease > 0 && every > tt.lease/2 {
			t.Errorf("limit %v, lease %v: extended every %v, not well within the lease", tt.limit, tt.lease, every)
		}
		if every < 50*time.Millisecond || every > 5*time.Second {
			t.Errorf("limit %v, lease %v: extended every %v", tt.limit, tt.lease, every)
		}
	}
}
