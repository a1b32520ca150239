package storetest

import (
	"errors"
	"strings"
	"testing"
	"time"

	"arbiter/store"
)

// testProgramTokens: a token is found by its hash until revoked or
// replaced; a second one in the same guild within the gap is refused, one
// in another guild is a second token; bad arguments are refused without
// touching the store.
func testProgramTokens(t *testing.T, e *env) {
	s := e.open()
	ctx := Context(t)
	h1, h2 := strings.Repeat("a", 64), strings.Repeat("b", 64)
	ann := store.TokenOwner{User: "100", Name: "Ann", Guild: "g1"}
	if err := s.IssueToken(ctx, h1, ann, time.Hour); err != nil {
		t.Fatal(err)
	}
	got, err := s.LookupToken(ctx, h1)
	if err != nil || got.User != "100" || got.Name != "Ann" || got.Guild != "g1" || got.Issued.IsZero() {
		t.Fatalf("LookupToken = %+v, %v", got, err)
	}
	MustErr(t, s.IssueToken(ctx, h2, ann, time.Hour), store.ErrRateLimited, "a second token within the gap")
	if _, err := s.LookupToken(ctx, h2); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the refused token was stored: %v", err)
	}
	// Another person is not limited by Ann's gap.
	if err := s.IssueToken(ctx, strings.Repeat("c", 64), store.TokenOwner{User: "200", Name: "Bob"}, time.Hour); err != nil {
		t.Fatal(err)
	}
	// Once the gap is over, a new token replaces the old one.
	ben := store.TokenOwner{User: "300", Name: "Ben"}
	h3, h4 := strings.Repeat("d", 64), strings.Repeat("e", 64)
	if err := s.IssueToken(ctx, h3, ben, time.Millisecond); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(HangBound); ; time.Sleep(5 * time.Millisecond) {
		err := s.IssueToken(ctx, h4, ben, time.Millisecond)
		if err == nil {
			break
		}
		if !errors.Is(err, store.ErrRateLimited) || time.Now().After(end) {
			t.Fatalf("issue after the gap: %v", err)
		}
	}
	if _, err := s.LookupToken(ctx, h3); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the replaced token still works: %v", err)
	}
	if o, err := s.LookupToken(ctx, h4); err != nil || o.User != "300" {
		t.Errorf("the new token: %+v, %v", o, err)
	}
	// Tokens are per guild: Ann's token in g2 neither waits for the gap of
	// her g1 token nor ends it, and revoking one leaves the other.
	h5 := strings.Repeat("f", 64)
	if err := s.IssueToken(ctx, h5, store.TokenOwner{User: "100", Name: "Ann", Guild: "g2"}, time.Hour); err != nil {
		t.Fatalf("a token in another guild: %v", err)
	}
	if o, err := s.LookupToken(ctx, h1); err != nil || o.Guild != "g1" {
		t.Errorf("the g1 token after one in g2: %+v, %v", o, err)
	}
	if had, err := s.RevokeToken(ctx, "g2", "100"); !had || err != nil {
		t.Fatalf("RevokeToken g2 = %v, %v", had, err)
	}
	if _, err := s.LookupToken(ctx, h5); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the revoked g2 token still works: %v", err)
	}
	if had, err := s.RevokeToken(ctx, "g1", "100"); !had || err != nil {
		t.Fatalf("RevokeToken = %v, %v", had, err)
	}
	if _, err := s.LookupToken(ctx, h1); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the revoked token still works: %v", err)
	}
	if had, err := s.RevokeToken(ctx, "g1", "100"); had || err != nil {
		t.Errorf("a second revoke = %v, %v", had, err)
	}
	MustErr(t, s.IssueToken(ctx, "short", ann, time.Hour), store.ErrInvalid, "a malformed hash")
	MustErr(t, s.IssueToken(ctx, h2, store.TokenOwner{}, time.Hour), store.ErrInvalid, "no user")
	MustErr(t, func() error { _, err := s.RevokeToken(ctx, "g1", ""); return err }(), store.ErrInvalid, "revoke no user")
	MustErr(t, s.IssueToken(ctx, h2, store.TokenOwner{User: "100", Guild: "g:1}"}, time.Hour), store.ErrInvalid, "a guild that cannot be a key")
	if _, err := s.LookupToken(ctx, "short"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a malformed hash: %v", err)
	}
}

// testLegacyToken: a token kept from before tokens were per guild (under
// the person's id alone) is ended by a revoke, or by a new token, in its
// own guild, and left alone by those of another guild.
func testLegacyToken(t *testing.T, e *env) {
	s := e.open()
	ctx := Context(t)
	// Another person's token makes whatever the backend keeps tokens in.
	if err := s.IssueToken(ctx, strings.Repeat("c", 64), store.TokenOwner{User: "200", Guild: "g1"}, time.Minute); err != nil {
		t.Fatal(err)
	}
	old := strings.Repeat("a", 64)
	ann := store.TokenOwner{User: "100", Name: "Ann", Guild: "g1", Issued: time.Now()}
	if err := e.b.Raw.PutLegacyToken(s, old, ann); err != nil {
		t.Fatal(err)
	}
	if had, err := s.RevokeToken(ctx, "g2", "100"); had || err != nil {
		t.Fatalf("revoke in g2: %v, %v", had, err)
	}
	if _, err := s.LookupToken(ctx, old); err != nil {
		t.Fatalf("a revoke in g2 ended the g1 token: %v", err)
	}
	if had, err := s.RevokeToken(ctx, "g1", "100"); !had || err != nil {
		t.Fatalf("revoke in g1: %v, %v", had, err)
	}
	MustErr(t, func() error { _, err := s.LookupToken(ctx, old); return err }(), store.ErrNotFound, "the old token after its revoke")
	if err := e.b.Raw.PutLegacyToken(s, old, ann); err != nil {
		t.Fatal(err)
	}
	if err := s.IssueToken(ctx, strings.Repeat("b", 64), store.TokenOwner{User: "100", Name: "Ann", Guild: "g1"}, time.Minute); err != nil {
		t.Fatal(err)
	}
	MustErr(t, func() error { _, err := s.LookupToken(ctx, old); return err }(), store.ErrNotFound, "the old token after a new one in its guild")
}
