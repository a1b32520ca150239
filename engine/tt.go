package engine

import (
	"time"

	"arbiter/rules"
)

// bound tells how a stored score relates to the true score.
type bound uint8

const (
	boundNone  bound = iota
	boundUpper       // the true score is at most the stored one (failed low)
	boundLower       // the true score is at least the stored one (failed high)
	boundExact
)

// ttEntry is one slot: the full hash for verification and the data packed
// in 64 bits: move (32), score (16), depth (8), bound (2), generation (6).
type ttEntry struct {
	key  uint64
	data uint64
}

// Table is a fixed-size transposition table. It is not safe for concurrent
// use; each Engine owns one.
type Table struct {
	entries []ttEntry
	mask    uint64 // the entries in use: a power of two of them, from the first
	gen     uint8
}

// DefaultTableMB is the table size an Engine gets unless told otherwise.
const DefaultTableMB = 32

// NewTable returns a table of at most mb megabytes (at least 1), a power of
// two of 16-byte entries. It writes the whole table once, so that the
// operating system maps every page now: left to the searches, each first
// touch of a page is a page fault, and a fresh table of 32 MB cost a 20 ms
// search most of its positions until every page had been touched.
func NewTable(mb int) *Table {
	if mb < 1 {
		mb = 1
	}
	if mb > 1<<14 {
		mb = 1 << 14
	}
	n := uint64(mb) << 20 / 16
	size := uint64(1)
	for size*2 <= n {
		size *= 2
	}
	t := &Table{entries: make([]ttEntry, size), mask: size - 1}
	t.Clear() // fresh memory reads as zero unmapped; writing maps it
	return t
}

// timedEntries is how many entries a search gets for each 20 ms of its move
// time: 1 MiB of them.
const timedEntries = 1 << 16

// fit sets the entries that the next search uses to what a search of
// moveTime fills: the smallest power of two that holds timedEntries for each
// whole 20 ms of it (at least one), or the whole table when that is more or
// moveTime is 0 (a search to a depth or a number of positions). A short search
// on fewer entries misses the processor's caches less (BenchmarkShortSearches;
// docs/explanation/strength.md).
func (t *Table) fit(moveTime time.Duration) {
	n := uint64(len(t.entries))
	if moveTime > 0 {
		want := uint64(timedEntries) * uint64(max(1, moveTime/(20*time.Millisecond)))
		for m := uint64(timedEntries); m < n; m *= 2 {
			if m >= want {
				n = m
				break
			}
		}
	}
	t.mask = n - 1
}

// Clear empties the table.
func (t *Table) Clear() {
	clear(t.entries)
	t.gen = 0
}

// newSearch ages the entries so that older ones are replaced first.
func (t *Table) newSearch() { t.gen = (t.gen + 1) & 63 }

// probe returns the entry for key, if held.
func (t *Table) probe(key uint64) (move rules.Move, score, depth int, b bound, ok bool) {
	e := &t.entries[key&t.mask]
	if e.key != key || e.data == 0 {
		return rules.NoMove, 0, 0, boundNone, false
	}
	d := e.data
	return rules.Move(uint32(d)), int(int16(d >> 32)), int(uint8(d >> 48)), bound(d >> 56 & 3), true
}

// store keeps an entry for key, replacing the slot's entry when it is from
// an older search, shallower, or for the same position.
func (t *Table) store(key uint64, move rules.Move, score, depth int, b bound) {
	e := &t.entries[key&t.mask]
	if e.data != 0 && e.key != key && uint8(e.data>>58) == t.gen && int(uint8(e.data>>48)) > depth {
		return
	}
	if e.key == key && move == rules.NoMove {
		move = rules.Move(uint32(e.data)) // keep the best move known
	}
	if depth < 0 {
		depth = 0
	}
	e.key = key
	e.data = uint64(uint32(move)) | uint64(uint16(int16(score)))<<32 | uint64(uint8(depth))<<48 |
		uint64(b&3)<<56 | uint64(t.gen)<<58
}

// toTT converts a score at ply to the table's form, in which mate scores
// count from the stored position rather than from the root.
func toTT(score, ply int) int {
	switch {
	case score > MateBound:
		return score + ply
	case score < -MateBound:
		return score - ply
	}
	return score
}

// fromTT is the inverse of toTT.
func fromTT(score, ply int) int {
	switch {
	case score > MateBound:
		return score - ply
	case score < -MateBound:
		return score + ply
	}
	return score
}
