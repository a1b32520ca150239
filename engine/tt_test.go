package engine

import (
	"context"
	"testing"
	"time"
)

// TestTimedSearchKeepsToTheTableItFills: a search of 20 ms uses the
// table's first timedEntries entries and stores nothing beyond them, so that
// it misses the processor's caches less; a search to a depth uses the whole
// table.
func TestTimedSearchKeepsToTheTableItFills(t *testing.T) {
	storedBeyond := func(tt *Table) int {
		n := 0
		for _, e := range tt.entries[timedEntries:] {
			if e.data != 0 {
				n++
			}
		}
		return n
	}
	eng := NewEngine(32)
	g := startOf(t, "hiya")
	eng.Search(context.Background(), g, Limits{MoveTime: 20 * time.Millisecond})
	if used, rest := eng.tt.mask+1, storedBeyond(eng.tt); used != timedEntries || rest != 0 {
		t.Fatalf("a 20 ms search used %d entries and stored %d beyond the first %d; want %d and none", used, rest, timedEntries, timedEntries)
	}
	eng.Search(context.Background(), g, Limits{Depth: 6})
	if used, rest := eng.tt.mask+1, storedBeyond(eng.tt); used != uint64(len(eng.tt.entries)) || rest == 0 {
		t.Fatalf("a search to depth 6 used %d of %d entries and stored %d beyond the first %d; want all of them, and some there", used, len(eng.tt.entries), rest, timedEntries)
	}
}

// TestTableFitsTheMoveTime: the entries a search uses grow with its move
// time, a power of two of timedEntries for each 20 ms, up to the table.
func TestTableFitsTheMoveTime(t *testing.T) {
	tt := NewTable(32) // 2,097,152 entries
	for _, c := range []struct {
		moveTime time.Duration
		entries  uint64
	}{
		{0, 1 << 21},
		{time.Millisecond, timedEntries},
		{20 * time.Millisecond, timedEntries},
		{100 * time.Millisecond, 8 * timedEntries},
		{time.Second, 1 << 21},
	} {
		tt.fit(c.moveTime)
		if got := tt.mask + 1; got != c.entries {
			t.Errorf("a search of %v uses %d entries, want %d", c.moveTime, got, c.entries)
		}
	}
	small := NewTable(1)
	small.fit(20 * time.Millisecond)
	if got := small.mask + 1; got != uint64(len(small.entries)) {
		t.Errorf("a table of 1 MB uses %d of its %d entries at 20 ms", got, len(small.entries))
	}
}
