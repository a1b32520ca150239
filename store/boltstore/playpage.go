package boltstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"arbiter/store"
)

// Play page credential buckets of the embedded store: one-time links and
// page sessions by the hash of their secret (a store.PlayGrant in JSON,
// with its expiry), and the expiry index of both, keyed by the expiry
// (milliseconds, big-endian) then the bucket's name and the hash, that
// each keeping sweeps.
var (
	bPlayLinks    = []byte("playlinks")
	bPlaySessions = []byte("playsessions")
	bPlayExpiry   = []byte("playexpiry")
)

// PutPlayLink keeps a one-time link for ttl (store.PlayCredentials).
func (s *Bolt) PutPlayLink(ctx context.Context, hash string, g store.PlayGrant, ttl time.Duration) error {
	return s.putPlay(ctx, "keep a play link", bPlayLinks, hash, g, ttl)
}

// PutPlaySession keeps a page session for ttl.
func (s *Bolt) PutPlaySession(ctx context.Context, hash string, g store.PlayGrant, ttl time.Duration) error {
	return s.putPlay(ctx, "keep a play session", bPlaySessions, hash, g, ttl)
}

// putPlay keeps g in bucket under hash until now+ttl, sweeping what has
// expired from both buckets in the same transaction.
func (s *Bolt) putPlay(ctx context.Context, what string, bucket []byte, hash string, g store.PlayGrant, ttl time.Duration) error {
	if err := store.CheckPlayCredential(hash, ttl, true); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	now := s.now()
	g.Expires = now.Add(ttl).UTC()
	data, err := json.Marshal(g)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return s.update(ctx, what, func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucket)
		if err != nil {
			return err
		}
		idx, err := tx.CreateBucketIfNotExists(bPlayExpiry)
		if err != nil {
			return err
		}
		if err := sweepPlay(tx, idx, now); err != nil {
			return err
		}
		if err := b.Put([]byte(hash), data); err != nil {
			return err
		}
		return idx.Put(playExpiryKey(g.Expires, bucket, hash), nil)
	})
}

// playExpiryKey is the expiry index's key of hash in bucket.
func playExpiryKey(at time.Time, bucket []byte, hash string) []byte {
	k := append(u64(uint64(at.UnixMilli())), bucket...)
	return append(append(k, '/'), hash...)
}

// sweepPlay deletes the credentials that expired before now.
func sweepPlay(tx *bolt.Tx, idx *bolt.Bucket, now time.Time) error {
	var done [][]byte
	c := idx.Cursor()
	for k, _ := c.First(); k != nil && len(k) > 8; k, _ = c.Next() {
		if int64(binary.BigEndian.Uint64(k[:8])) > now.UnixMilli() {
			break
		}
		name, hash, ok := bytes.Cut(k[8:], []byte{'/'})
		if ok {
			if b := tx.Bucket(name); b != nil {
				if err := b.Delete(hash); err != nil {
					return err
				}
			}
		}
		done = append(done, append([]byte(nil), k...))
	}
	for _, k := range done {
		if err := idx.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// PlayLink returns an unspent link's grant without spending it.
func (s *Bolt) PlayLink(ctx context.Context, hash string) (store.PlayGrant, error) {
	return s.getPlay(ctx, "read a play link", bPlayLinks, hash, false)
}

// SpendPlayLink returns an unspent link's grant and deletes it, in one
// write transaction: one caller of any number gets it.
func (s *Bolt) SpendPlayLink(ctx context.Context, hash string) (store.PlayGrant, error) {
	return s.getPlay(ctx, "spend a play link", bPlayLinks, hash, true)
}

// PlaySession returns a session's grant.
func (s *Bolt) PlaySession(ctx context.Context, hash string) (store.PlayGrant, error) {
	return s.getPlay(ctx, "read a play session", bPlaySessions, hash, false)
}

// getPlay reads (and with del, deletes) the grant under hash in bucket;
// one past its expiry is not found.
func (s *Bolt) getPlay(ctx context.Context, what string, bucket []byte, hash string, del bool) (store.PlayGrant, error) {
	var g store.PlayGrant
	if store.CheckPlayCredential(hash, 0, false) != nil {
		return g, fmt.Errorf("%s: %w", what, store.ErrNotFound)
	}
	now := s.now()
	read := func(tx *bolt.Tx) error {
		b := tx.Bucket(bucket)
		var data []byte
		if b != nil {
			data = b.Get([]byte(hash))
		}
		if data == nil {
			return fmt.Errorf("%s: %w", what, store.ErrNotFound)
		}
		if err := json.Unmarshal(data, &g); err != nil {
			return fmt.Errorf("%s: the record is damaged: %w", what, err)
		}
		if !now.Before(g.Expires) {
			return fmt.Errorf("%s: %w", what, store.ErrNotFound)
		}
		if del {
			if err := b.Delete([]byte(hash)); err != nil {
				return err
			}
			if idx := tx.Bucket(bPlayExpiry); idx != nil {
				return idx.Delete(playExpiryKey(g.Expires, bucket, hash))
			}
		}
		return nil
	}
	var err error
	if del {
		err = s.update(ctx, what, read)
	} else {
		err = s.view(ctx, what, read)
	}
	return g, err
}
