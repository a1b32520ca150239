package boltstore

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"arbiter/store"
)

// Program-token buckets of the embedded store: the owner by the token's
// hash, a person's current token hash in a guild, and when they were last
// given one there (for the rate limit), keyed "GUILD/USER". A key without
// "/" is a person's one token for every guild, from before tokens were per
// guild.
var (
	bTokens      = []byte("tokens")
	bTokenUsers  = []byte("tokenusers")
	bTokenIssued = []byte("tokenissued")
)

// userKey is the key of user's token in guild.
func userKey(guild, user string) []byte { return []byte(guild + "/" + user) }

// IssueToken makes the token whose hash is given owner's only token in
// owner.Guild, as Redis.IssueToken does: ErrRateLimited when owner was
// given one there less than gap ago; only the hash is stored.
func (s *Bolt) IssueToken(ctx context.Context, hash string, owner store.TokenOwner, gap time.Duration) error {
	if err := store.CheckTokenArgs(hash, owner.Guild, owner.User); err != nil || owner.User == "" || hash == "" {
		return fmt.Errorf("issue token: %w", errors.Join(err, store.ErrInvalid))
	}
	now := s.now().UTC()
	owner.Issued = now
	data, err := json.Marshal(owner)
	if err != nil {
		return fmt.Errorf("issue token: %w", err)
	}
	user := userKey(owner.Guild, owner.User)
	return s.update(ctx, "issue token", func(tx *bolt.Tx) error {
		tokens, users, issued, err := tokenBuckets(tx)
		if err != nil {
			return err
		}
		if _, err := endLegacyToken(tokens, users, owner.Guild, owner.User); err != nil {
			return err
		}
		if v := issued.Get(user); len(v) == 8 {
			last := time.UnixMilli(int64(binary.BigEndian.Uint64(v)))
			if left := gap - now.Sub(last); left > 0 {
				return fmt.Errorf("issue token: %w: one token per %s; try again in %s", store.ErrRateLimited, gap,
					max(left, time.Second).Round(time.Second))
			}
		}
		if old := users.Get(user); old != nil {
			if err := tokens.Delete(old); err != nil {
				return err
			}
		}
		if err := issued.Put(user, u64(uint64(now.UnixMilli()))); err != nil {
			return err
		}
		if err := users.Put(user, []byte(hash)); err != nil {
			return err
		}
		return tokens.Put([]byte(hash), data)
	})
}

// LookupToken returns the owner of the token whose hash is given;
// ErrNotFound when there is no such token (or it was revoked or replaced).
func (s *Bolt) LookupToken(ctx context.Context, hash string) (store.TokenOwner, error) {
	if err := store.CheckTokenArgs(hash, "", ""); err != nil || hash == "" {
		return store.TokenOwner{}, fmt.Errorf("look up token: %w", store.ErrNotFound)
	}
	var o store.TokenOwner
	err := s.view(ctx, "look up token", func(tx *bolt.Tx) error {
		b := tx.Bucket(bTokens)
		var data []byte
		if b != nil {
			data = b.Get([]byte(hash))
		}
		if data == nil {
			return fmt.Errorf("look up token: %w", store.ErrNotFound)
		}
		if err := json.Unmarshal(data, &o); err != nil {
			return fmt.Errorf("look up token: the record is damaged: %w", err)
		}
		return nil
	})
	return o, err
}

// RevokeToken ends user's token in guild at once; false when they had
// none there.
func (s *Bolt) RevokeToken(ctx context.Context, guild, user string) (bool, error) {
	if err := store.CheckTokenArgs("", guild, user); err != nil || user == "" {
		return false, fmt.Errorf("revoke token: %w", errors.Join(err, store.ErrInvalid))
	}
	revoked := false
	err := s.update(ctx, "revoke token", func(tx *bolt.Tx) error {
		tokens, users, _, err := tokenBuckets(tx)
		if err != nil {
			return err
		}
		if revoked, err = endLegacyToken(tokens, users, guild, user); err != nil {
			return err
		}
		key := userKey(guild, user)
		hash := users.Get(key)
		if hash == nil {
			return nil
		}
		revoked = true
		if err := tokens.Delete(hash); err != nil {
			return err
		}
		return users.Delete(key)
	})
	return revoked, err
}

// endLegacyToken ends user's token kept from before tokens were per guild
// when it was given in guild; true when there was one.
func endLegacyToken(tokens, users *bolt.Bucket, guild, user string) (bool, error) {
	hash := users.Get([]byte(user))
	if hash == nil {
		return false, nil
	}
	var o store.TokenOwner
	if data := tokens.Get(hash); data != nil && json.Unmarshal(data, &o) == nil && o.Guild != guild {
		return false, nil // another guild's: it stays
	}
	if err := tokens.Delete(hash); err != nil {
		return false, err
	}
	return true, users.Delete([]byte(user))
}

// tokenBuckets returns the token buckets, creating them.
func tokenBuckets(tx *bolt.Tx) (tokens, users, issued *bolt.Bucket, err error) {
	if tokens, err = tx.CreateBucketIfNotExists(bTokens); err != nil {
		return
	}
	if users, err = tx.CreateBucketIfNotExists(bTokenUsers); err != nil {
		return
	}
	issued, err = tx.CreateBucketIfNotExists(bTokenIssued)
	return
}
