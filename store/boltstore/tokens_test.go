package boltstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/boltstore"
	"arbiter/store/storetest"
)

// TestLegacyTokenEndedInItsGuild: a token kept from before tokens were
// per guild (under the person's id alone) is ended by a revoke, or by a
// new token, in its own guild, and left alone by those of another guild.
func TestLegacyTokenEndedInItsGuild(t *testing.T) {
	ctx := context.Background()
	s, err := boltstore.Open(ctx, store.Config{Registry: games.Registry(), Logger: storetest.QuietLogger(), DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	// Another person's token makes the buckets.
	if err := s.IssueToken(ctx, strings.Repeat("c", 64), store.TokenOwner{User: "200", Guild: "g1"}, time.Minute); err != nil {
		t.Fatal(err)
	}
	put := func(hash, guild string) {
		data, _ := json.Marshal(store.TokenOwner{User: "100", Name: "Ann", Guild: guild, Issued: time.Now()})
		if err := s.RawPut([]string{"tokens"}, hash, data); err != nil {
			t.Fatal(err)
		}
		if err := s.RawPut([]string{"tokenusers"}, "100", []byte(hash)); err != nil {
			t.Fatal(err)
		}
	}
	old := strings.Repeat("a", 64)
	put(old, "g1")
	if had, err := s.RevokeToken(ctx, "g2", "100"); had || err != nil {
		t.Fatalf("revoke in g2: %v, %v", had, err)
	}
	if _, err := s.LookupToken(ctx, old); err != nil {
		t.Fatalf("a revoke in g2 ended the g1 token: %v", err)
	}
	if had, err := s.RevokeToken(ctx, "g1", "100"); !had || err != nil {
		t.Fatalf("revoke in g1: %v, %v", had, err)
	}
	if _, err := s.LookupToken(ctx, old); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the old token survives its revoke: %v", err)
	}
	put(old, "g1")
	if err := s.IssueToken(ctx, strings.Repeat("b", 64), store.TokenOwner{User: "100", Name: "Ann", Guild: "g1"}, time.Minute); err != nil {
		t.Fatal(err)
	}
	storetest.MustErr(t, func() error { _, err := s.LookupToken(ctx, old); return err }(), store.ErrNotFound, "the old token after a new one in its guild")
}
