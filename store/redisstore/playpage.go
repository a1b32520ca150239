package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"arbiter/store"
)

// Play page credential keys: a one-time link and a page session by the
// hash of its secret, each one key (its own slot) that Redis expires.
func playLinkKey(hash string) string    { return "{play:" + hash + "}:link" }
func playSessionKey(hash string) string { return "{play:" + hash + "}:session" }

// PutPlayLink keeps a one-time link for ttl (store.PlayCredentials).
func (s *Redis) PutPlayLink(ctx context.Context, hash string, g store.PlayGrant, ttl time.Duration) error {
	return s.putPlay(ctx, "keep a play link", playLinkKey, hash, g, ttl)
}

// PutPlaySession keeps a page session for ttl.
func (s *Redis) PutPlaySession(ctx context.Context, hash string, g store.PlayGrant, ttl time.Duration) error {
	return s.putPlay(ctx, "keep a play session", playSessionKey, hash, g, ttl)
}

// putPlay keeps g at key(hash), expiring after ttl.
func (s *Redis) putPlay(ctx context.Context, what string, key func(string) string, hash string, g store.PlayGrant, ttl time.Duration) error {
	if err := store.CheckPlayCredential(hash, ttl, true); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	g.Expires = s.now().Add(ttl).UTC()
	data, err := json.Marshal(g)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	return fail(caller, what, s.rdb.Set(ctx, key(hash), data, ttl).Err())
}

// PlayLink returns an unspent link's grant without spending it.
func (s *Redis) PlayLink(ctx context.Context, hash string) (store.PlayGrant, error) {
	return s.getPlay(ctx, "read a play link", playLinkKey(hash), hash, false)
}

// SpendPlayLink returns an unspent link's grant and deletes it in one
// command (GETDEL): one caller of any number gets it.
func (s *Redis) SpendPlayLink(ctx context.Context, hash string) (store.PlayGrant, error) {
	return s.getPlay(ctx, "spend a play link", playLinkKey(hash), hash, true)
}

// PlaySession returns a session's grant.
func (s *Redis) PlaySession(ctx context.Context, hash string) (store.PlayGrant, error) {
	return s.getPlay(ctx, "read a play session", playSessionKey(hash), hash, false)
}

// getPlay reads (and with del, deletes) the grant at key.
func (s *Redis) getPlay(ctx context.Context, what, key, hash string, del bool) (store.PlayGrant, error) {
	if store.CheckPlayCredential(hash, 0, false) != nil {
		return store.PlayGrant{}, fmt.Errorf("%s: %w", what, store.ErrNotFound)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	var data []byte
	var err error
	if del {
		data, err = s.rdb.GetDel(ctx, key).Bytes()
	} else {
		data, err = s.rdb.Get(ctx, key).Bytes()
	}
	if errors.Is(err, redis.Nil) {
		return store.PlayGrant{}, fmt.Errorf("%s: %w", what, store.ErrNotFound)
	}
	if err != nil {
		return store.PlayGrant{}, fail(caller, what, err)
	}
	var g store.PlayGrant
	if err := json.Unmarshal(data, &g); err != nil {
		return store.PlayGrant{}, fmt.Errorf("%s: the record is damaged: %w", what, err)
	}
	return g, nil
}
