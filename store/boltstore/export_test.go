package boltstore

import (
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// PageBytesWritten returns the bytes of the pages the database's write
// transactions have written since Open (bbolt's TxStats.PageAlloc).
func (s *Bolt) PageBytesWritten() int64 {
	st := s.db.Stats()
	return st.TxStats.GetPageAlloc()
}

// MakeLayout1 turns the database back into layout 1, as the build before
// the move list wrote it: records (channel -> the whole record, moves
// inline) in the games bucket, no moves bucket, meta/format "1".
func (s *Bolt) MakeLayout1(records map[string][]byte) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket(bMoves); err != nil {
			return err
		}
		for ch, data := range records {
			if err := tx.Bucket(bGames).Put([]byte(ch), data); err != nil {
				return err
			}
		}
		return tx.Bucket(bMeta).Put(kFormat, []byte("1"))
	})
}

// bucketAt walks path from the top of the database.
func bucketAt(tx *bolt.Tx, path []string) (*bolt.Bucket, error) {
	b := tx.Bucket([]byte(path[0]))
	for _, p := range path[1:] {
		if b == nil {
			break
		}
		b = b.Bucket([]byte(p))
	}
	if b == nil {
		return nil, fmt.Errorf("no bucket %v", path)
	}
	return b, nil
}

// RawPut writes value under key in the bucket at path, for tests that
// break records on purpose.
func (s *Bolt) RawPut(path []string, key string, value []byte) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		b, err := bucketAt(tx, path)
		if err != nil {
			return err
		}
		return b.Put([]byte(key), value)
	})
}

// RawGet returns the value under key in the bucket at path.
func (s *Bolt) RawGet(path []string, key string) ([]byte, error) {
	var v []byte
	err := s.db.View(func(tx *bolt.Tx) error {
		b, err := bucketAt(tx, path)
		if err != nil {
			return err
		}
		v = slices.Clone(b.Get([]byte(key)))
		return nil
	})
	return v, err
}

// RawKeys lists the keys of the bucket at path.
func (s *Bolt) RawKeys(path []string) ([]string, error) {
	var keys []string
	err := s.db.View(func(tx *bolt.Tx) error {
		b, err := bucketAt(tx, path)
		if err != nil {
			return err
		}
		return b.ForEach(func(k, _ []byte) error { keys = append(keys, string(k)); return nil })
	})
	return keys, err
}

// RawCount counts the keys of the bucket at path.
func (s *Bolt) RawCount(path []string) (int, error) {
	keys, err := s.RawKeys(path)
	return len(keys), err
}
