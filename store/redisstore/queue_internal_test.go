package redisstore

import (
	"testing"
	"time"
)

// TestQueuedAtIsTheStoresTime: a bot turn's queue time is Redis's own
// clock (the stream entry id), not the enqueuing host's, which may be off;
// only an id of another form falls back to what the host recorded.
func TestQueuedAtIsTheStoresTime(t *testing.T) {
	recorded, hostSays := "1793955600000", time.UnixMilli(1793955600000)
	if got := queuedAt("1793955600123-4", recorded); !got.Equal(time.UnixMilli(1793955600123)) {
		t.Errorf("queuedAt = %v, want the stream id's time", got)
	}
	for _, id := range []string{"", "x-1", "12", "-5"} {
		if got := queuedAt(id, recorded); !got.Equal(hostSays) {
			t.Errorf("queuedAt(%q) = %v, want the recorded time", id, got)
		}
	}
}
