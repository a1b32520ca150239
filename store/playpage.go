package store

import (
	"context"
	"fmt"
	"time"
)

// PlayGrant is what a play page credential allows: one person in one
// game. A one-time link and a page session each carry one.
type PlayGrant struct {
	User     string `json:"user"` // the person's id
	UserName string `json:"name"` // their display name when it was made
	Guild    string `json:"guild"`
	Channel  string `json:"channel"`
	Game     string `json:"game"` // the archive id
	// CSRF is a session's anti-forgery token, which each of its actions
	// must carry; empty for a link.
	CSRF string `json:"csrf,omitempty"`
	// Expires is when it ends, set by the store when it is kept.
	Expires time.Time `json:"expires"`
}

// PlayCredentials keeps the play page's one-time links and sessions, by
// the SHA-256 hash (64 hex digits) of their secret, so that no usable
// secret is ever stored. Expiry is the store's: a credential past its
// time to live is gone for every process at once.
type PlayCredentials interface {
	// PutPlayLink keeps a one-time link for ttl; ErrInvalid for a hash
	// that is not 64 hex digits or a ttl that is not positive.
	PutPlayLink(ctx context.Context, hash string, g PlayGrant, ttl time.Duration) error
	// PlayLink returns an unspent link's grant without spending it;
	// ErrNotFound when it was never made, is spent, or has expired.
	PlayLink(ctx context.Context, hash string) (PlayGrant, error)
	// SpendPlayLink returns an unspent link's grant and ends the link, in
	// one step: of any number of callers, in any processes, one gets it
	// and the others ErrNotFound.
	SpendPlayLink(ctx context.Context, hash string) (PlayGrant, error)
	// PutPlaySession keeps a page session for ttl (ErrInvalid as for
	// PutPlayLink).
	PutPlaySession(ctx context.Context, hash string, g PlayGrant, ttl time.Duration) error
	// PlaySession returns a session's grant; ErrNotFound when it was
	// never made or has expired.
	PlaySession(ctx context.Context, hash string) (PlayGrant, error)
}

// CheckPlayCredential checks the arguments of a credential's keeping: a
// SHA-256 hash in hex, and a positive time to live (0 when only read).
func CheckPlayCredential(hash string, ttl time.Duration, put bool) error {
	if len(hash) != 64 {
		return fmt.Errorf("a credential's hash is 64 hex digits, not %d characters: %w", len(hash), ErrInvalid)
	}
	for _, c := range hash {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return fmt.Errorf("a credential's hash is 64 lower-case hex digits: %w", ErrInvalid)
		}
	}
	if put && ttl <= 0 {
		return fmt.Errorf("a credential's time to live must be positive, not %s: %w", ttl, ErrInvalid)
	}
	return nil
}
