package boltstore

import bolt "go.etcd.io/bbolt"

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
