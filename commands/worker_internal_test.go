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
