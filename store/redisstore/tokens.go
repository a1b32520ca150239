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

// Program-token keys: the owner by the token's hash, and the hash of a
// person's current token in a guild. Each is one key (its own slot), so
// that they work on Redis Cluster without a multi-key transaction.
// legacyTokenUserKey is where a person's one token for every guild was
// kept before tokens were per guild.
func tokenKey(hash string) string              { return "{tok:" + hash + "}:owner" }
func tokenUserKey(guild, user string) string   { return "{tokuser:" + guild + ":" + user + "}:hash" }
func tokenIssuedKey(guild, user string) string { return "{tokuser:" + guild + ":" + user + "}:issued" }
func legacyTokenUserKey(user string) string    { return "{tokuser:" + user + "}:hash" }

// IssueToken makes the token whose hash (SHA-256, hex) is given owner's
// only token in owner.Guild, ending any earlier one there. It refuses
// with ErrRateLimited when owner was given a token there less than gap
// ago. Only the hash is stored.
func (s *Redis) IssueToken(ctx context.Context, hash string, owner store.TokenOwner, gap time.Duration) error {
	if err := store.CheckTokenArgs(hash, owner.Guild, owner.User); err != nil || owner.User == "" || hash == "" {
		return fmt.Errorf("issue token: %w", errors.Join(err, store.ErrInvalid))
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	ok, err := s.rdb.SetNX(ctx, tokenIssuedKey(owner.Guild, owner.User), s.now().UTC().Format(time.RFC3339), gap).Result()
	if err != nil {
		return fail(caller, "issue token", err)
	}
	if !ok {
		left, _ := s.rdb.PTTL(ctx, tokenIssuedKey(owner.Guild, owner.User)).Result()
		return fmt.Errorf("%w: one token per %s; try again in %s", store.ErrRateLimited, gap, max(left, time.Second).Round(time.Second))
	}
	owner.Issued = s.now().UTC()
	data, err := json.Marshal(owner)
	if err != nil {
		return fmt.Errorf("issue token: %w", err)
	}
	if _, err := s.endLegacyToken(ctx, owner.Guild, owner.User); err != nil {
		return fail(caller, "issue token: end the old one", err)
	}
	if old, err := s.rdb.GetSet(ctx, tokenUserKey(owner.Guild, owner.User), hash).Result(); err == nil {
		if err := s.rdb.Del(ctx, tokenKey(old)).Err(); err != nil {
			return fail(caller, "issue token: end the old one", err)
		}
	} else if !errors.Is(err, redis.Nil) {
		return fail(caller, "issue token", err)
	}
	if err := s.rdb.Set(ctx, tokenKey(hash), data, 0).Err(); err != nil {
		return fail(caller, "issue token", err)
	}
	return nil
}

// LookupToken returns the owner of the token whose hash is given;
// ErrNotFound when there is no such token (or it was revoked or replaced).
func (s *Redis) LookupToken(ctx context.Context, hash string) (store.TokenOwner, error) {
	if err := store.CheckTokenArgs(hash, "", ""); err != nil || hash == "" {
		return store.TokenOwner{}, fmt.Errorf("look up token: %w", store.ErrNotFound)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	data, err := s.rdb.Get(ctx, tokenKey(hash)).Bytes()
	if errors.Is(err, redis.Nil) {
		return store.TokenOwner{}, fmt.Errorf("look up token: %w", store.ErrNotFound)
	}
	if err != nil {
		return store.TokenOwner{}, fail(caller, "look up token", err)
	}
	var o store.TokenOwner
	if err := json.Unmarshal(data, &o); err != nil {
		return store.TokenOwner{}, fmt.Errorf("look up token: the record is damaged: %w", err)
	}
	return o, nil
}

// RevokeToken ends user's token in guild at once; false when they had
// none there.
func (s *Redis) RevokeToken(ctx context.Context, guild, user string) (bool, error) {
	if err := store.CheckTokenArgs("", guild, user); err != nil || user == "" {
		return false, fmt.Errorf("revoke token: %w", errors.Join(err, store.ErrInvalid))
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	legacy, err := s.endLegacyToken(ctx, guild, user)
	if err != nil {
		return false, fail(caller, "revoke token", err)
	}
	hash, err := s.rdb.GetDel(ctx, tokenUserKey(guild, user)).Result()
	if errors.Is(err, redis.Nil) {
		return legacy, nil
	}
	if err != nil {
		return false, fail(caller, "revoke token", err)
	}
	if err := s.rdb.Del(ctx, tokenKey(hash)).Err(); err != nil {
		return false, fail(caller, "revoke token", err)
	}
	return true, nil
}

// endLegacyToken ends user's token kept from before tokens were per guild
// when it was given in guild; true when there was one.
func (s *Redis) endLegacyToken(ctx context.Context, guild, user string) (bool, error) {
	hash, err := s.rdb.Get(ctx, legacyTokenUserKey(user)).Result()
	if errors.Is(err, redis.Nil) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	data, err := s.rdb.Get(ctx, tokenKey(hash)).Bytes()
	if err != nil && !errors.Is(err, redis.Nil) {
		return false, err
	}
	var o store.TokenOwner
	if err == nil && json.Unmarshal(data, &o) == nil && o.Guild != guild {
		return false, nil // another guild's: it stays
	}
	if err := s.rdb.Del(ctx, tokenKey(hash)).Err(); err != nil {
		return false, err
	}
	return true, s.rdb.Del(ctx, legacyTokenUserKey(user)).Err()
}
