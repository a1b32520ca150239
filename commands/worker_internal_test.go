package commands

import (
	"testing"
	"time"

	"arbiter/store"
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

// TestQueuedAtIsTheStoresTime: a job's queue time is read from its Redis
// stream id (Redis's own clock), not from the enqueuing host's clock.
func TestQueuedAtIsTheStoresTime(t *testing.T) {
	hostSays := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	job := &store.Job{ID: "1793955600123-4", Queued: hostSays}
	if got := queuedAt(job); !got.Equal(time.UnixMilli(1793955600123)) {
		t.Errorf("queuedAt(%s) = %v, want the stream id's time", job.ID, got)
	}
	for _, id := range []string{"", "x-1", "12", "-5"} {
		job := &store.Job{ID: id, Queued: hostSays}
		if got := queuedAt(job); !got.Equal(hostSays) {
			t.Errorf("queuedAt(%q) = %v, want the recorded time", id, got)
		}
	}
}
