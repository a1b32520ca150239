package boltstore

import (
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// TestMoveCount: the count of a channel's moves, by which Load sizes the
// list it decodes into, is that channel's alone, whatever channels sort
// next to it.
func TestMoveCount(t *testing.T) {
	db, err := bolt.Open(filepath.Join(t.TempDir(), "moves.db"), 0o600, &bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stored := map[string]int{"a": 3, "ab": 7, "b": 2}
	err = db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket(bMoves)
		if err != nil {
			return err
		}
		for ch, n := range stored {
			for i := range n {
				if err := b.Put(moveKey(ch, i), []byte("{}")); err != nil {
					return err
				}
			}
		}
		for ch, want := range map[string]int{"a": 3, "ab": 7, "b": 2, "c": 0, "0": 0, "aa": 0} {
			if got := moveCount(tx, ch); got != want {
				t.Errorf("moveCount(%q) = %d, want %d", ch, got, want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
