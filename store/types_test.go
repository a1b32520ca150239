package store_test

import (
	"testing"

	"arbiter/store"
)

// TestListLimit: a listing returns what it is asked for, up to MaxList;
// asking for none, fewer than none or more than MaxList gives MaxList.
func TestListLimit(t *testing.T) {
	for _, c := range []struct{ limit, want int }{
		{-5, store.MaxList}, {0, store.MaxList}, {1, 1}, {store.MaxList, store.MaxList}, {store.MaxList + 1, store.MaxList},
	} {
		if got := store.ListLimit(c.limit); got != c.want {
			t.Errorf("ListLimit(%d) = %d, want %d", c.limit, got, c.want)
		}
	}
}
