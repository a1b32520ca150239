package boltstore

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	bolt "go.etcd.io/bbolt"

	"arbiter/store"
	"arbiter/store/storetest"
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

// TestSaveRewritesAMissingMoveList: a save whose game was read with its
// move list, over a record that holds its moves inline by then (put back
// as a whole record at the same version), writes the whole list again,
// not only the moves it added.
func TestSaveRewritesAMissingMoveList(t *testing.T) {
	ctx := context.Background()
	s, gs := groupFixture(t, 1)
	g := gs[0]
	rng := rand.New(rand.NewPCG(9, 9))
	if err := s.Save(ctx, g); err != nil {
		t.Fatal(err)
	}
	storetest.PlayRandom(g, rng, "1002")
	if err := s.Save(ctx, g); err != nil {
		t.Fatal(err)
	}
	whole, err := store.EncodeRecord(g)
	if err != nil {
		t.Fatal(err)
	}
	err = s.db.Update(func(tx *bolt.Tx) error {
		if err := truncateMoves(tx, g.Channel, 0); err != nil {
			return err
		}
		return tx.Bucket(bGames).Put([]byte(g.Channel), whole)
	})
	if err != nil {
		t.Fatal(err)
	}
	storetest.PlayRandom(g, rng, "1001")
	if err := s.Save(ctx, g); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(ctx, g.Channel)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(got.Moves, g.Moves, func(a, b store.Move) bool { return a.Text == b.Text && a.By == b.By }) {
		t.Fatalf("moves after the save: %v, want %v", got.Moves, g.Moves)
	}
	if n, err := s.RawCount([]string{"moves"}); err != nil || n != len(g.Moves) {
		t.Fatalf("%d keys in the moves bucket (%v), want %d", n, err, len(g.Moves))
	}
}
