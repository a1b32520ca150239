package storetest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"arbiter/store"
)

// playTests are the contract suite's tests of the play page's
// credentials (store.PlayCredentials); cluster as in tests.
var playTests = []struct {
	name    string
	run     func(t *testing.T, e *env)
	cluster bool
}{
	{"PlayLinkSpentOnce", testPlayLinkSpentOnce, true},
	{"PlayLinkSpentByOneOfMany", testPlayLinkSpentByOneOfMany, true},
	{"PlaySessionOutlivesItsStore", testPlaySessionOutlivesItsStore, true},
	{"PlayCredentialsExpire", testPlayCredentialsExpire, true},
	{"PlayCredentialArguments", testPlayCredentialArguments, false},
}

// credHash is the hash of a credential's secret, as the play page keeps it.
func credHash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// testGrant is a grant for user in game 7.
func testGrant(user string) store.PlayGrant {
	return store.PlayGrant{User: user, UserName: "Ada", Guild: "g1", Channel: "c1", Game: "7"}
}

// testPlayLinkSpentOnce: a link is read any number of times until it is
// spent, then is gone; a session of the same hash is another thing.
func testPlayLinkSpentOnce(t *testing.T, e *env) {
	t.Parallel()
	ctx := Context(t)
	s := e.open()
	h := credHash("link-1")
	before := time.Now()
	if err := s.PutPlayLink(ctx, h, testGrant("u1"), 10*time.Minute); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		g, err := s.PlayLink(ctx, h)
		if err != nil || g.User != "u1" || g.Game != "7" || g.Channel != "c1" || g.Guild != "g1" || g.UserName != "Ada" {
			t.Fatalf("PlayLink = %+v, %v; want the grant kept", g, err)
		}
		if g.Expires.Before(before.Add(10*time.Minute-time.Minute)) || g.Expires.After(time.Now().Add(10*time.Minute+time.Minute)) {
			t.Fatalf("the link expires at %v; want ten minutes after it was kept (%v)", g.Expires, before)
		}
	}
	_, err := s.PlaySession(ctx, h)
	MustErr(t, err, store.ErrNotFound, "a link read as a session")
	g, err := s.SpendPlayLink(ctx, h)
	if err != nil || g.User != "u1" {
		t.Fatalf("SpendPlayLink = %+v, %v; want the grant", g, err)
	}
	_, err = s.SpendPlayLink(ctx, h)
	MustErr(t, err, store.ErrNotFound, "a link spent twice")
	_, err = s.PlayLink(ctx, h)
	MustErr(t, err, store.ErrNotFound, "a spent link read")
	_, err = s.SpendPlayLink(ctx, credHash("never-made"))
	MustErr(t, err, store.ErrNotFound, "a link never made")
}

// testPlayLinkSpentByOneOfMany: of many spends of one link at once, one
// gets it.
func testPlayLinkSpentByOneOfMany(t *testing.T, e *env) {
	t.Parallel()
	ctx := Context(t)
	s := e.open()
	for round := range 5 {
		h := credHash("race-" + strconv.Itoa(round))
		if err := s.PutPlayLink(ctx, h, testGrant("u"+strconv.Itoa(round)), time.Hour); err != nil {
			t.Fatal(err)
		}
		var won atomic.Int32
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() {
				if _, err := s.SpendPlayLink(ctx, h); err == nil {
					won.Add(1)
				} else if !isNotFound(err) {
					t.Errorf("spend: %v", err)
				}
			})
		}
		wg.Wait()
		if n := won.Load(); n != 1 {
			t.Fatalf("round %d: %d of 16 spends of one link got it; want 1", round, n)
		}
	}
}

// testPlaySessionOutlivesItsStore: a session kept by one store is read by
// another opened on the same data after the first closed.
func testPlaySessionOutlivesItsStore(t *testing.T, e *env) {
	t.Parallel()
	ctx := Context(t)
	s := e.open()
	h := credHash("session-1")
	g := testGrant("u1")
	g.CSRF = "anti-forgery"
	if err := s.PutPlaySession(ctx, h, g, 24*time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	next := e.open()
	got, err := next.PlaySession(ctx, h)
	if err != nil || got.User != "u1" || got.CSRF != "anti-forgery" || got.Game != "7" {
		t.Fatalf("the session read by the next store = %+v, %v; want it as kept", got, err)
	}
	_, err = next.PlayLink(ctx, h)
	MustErr(t, err, store.ErrNotFound, "a session read as a link")
}

// testPlayCredentialsExpire: a credential is gone once its time to live
// has passed; one with time left stays.
func testPlayCredentialsExpire(t *testing.T, e *env) {
	t.Parallel()
	ctx := Context(t)
	s := e.open()
	short, long := credHash("short"), credHash("long")
	if err := s.PutPlayLink(ctx, long, testGrant("u1"), time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := s.PutPlaySession(ctx, long, testGrant("u1"), time.Hour); err != nil {
		t.Fatal(err)
	}
	put := time.Now()
	if err := s.PutPlayLink(ctx, short, testGrant("u2"), 100*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if err := s.PutPlaySession(ctx, short, testGrant("u2"), 100*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	for {
		_, lerr := s.PlayLink(ctx, short)
		_, serr := s.PlaySession(ctx, short)
		if isNotFound(lerr) && isNotFound(serr) {
			break
		}
		if lerr != nil && !isNotFound(lerr) || serr != nil && !isNotFound(serr) {
			t.Fatalf("reading expiring credentials: %v, %v", lerr, serr)
		}
		if time.Since(put) > HangBound {
			t.Fatalf("a link and a session with 100ms to live are still there %v later", HangBound)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if time.Since(put) < 100*time.Millisecond {
		t.Fatalf("credentials with 100ms to live were gone after %v", time.Since(put))
	}
	// Keeping another sweeps what expired, never what has time left.
	if err := s.PutPlayLink(ctx, credHash("later"), testGrant("u3"), time.Hour); err != nil {
		t.Fatal(err)
	}
	_, err := s.SpendPlayLink(ctx, short)
	MustErr(t, err, store.ErrNotFound, "an expired link spent")
	if _, err := s.PlayLink(ctx, long); err != nil {
		t.Fatalf("a link with an hour left: %v", err)
	}
	if _, err := s.PlaySession(ctx, long); err != nil {
		t.Fatalf("a session with an hour left: %v", err)
	}
}

// testPlayCredentialArguments: a hash that is not SHA-256 hex, or a time
// to live that is not positive, is refused; reading one finds nothing.
func testPlayCredentialArguments(t *testing.T, e *env) {
	t.Parallel()
	ctx := Context(t)
	s := e.open()
	for _, h := range []string{"", "abc", credHash("x")[:63] + "G", credHash("x") + "0", "{x}" + credHash("x")[3:]} {
		MustErr(t, s.PutPlayLink(ctx, h, testGrant("u"), time.Minute), store.ErrInvalid, "a link under hash "+strconv.Quote(h))
		MustErr(t, s.PutPlaySession(ctx, h, testGrant("u"), time.Minute), store.ErrInvalid, "a session under hash "+strconv.Quote(h))
		_, err := s.SpendPlayLink(ctx, h)
		MustErr(t, err, store.ErrNotFound, "spending hash "+strconv.Quote(h))
		_, err = s.PlaySession(ctx, h)
		MustErr(t, err, store.ErrNotFound, "a session of hash "+strconv.Quote(h))
	}
	for _, ttl := range []time.Duration{0, -time.Second} {
		MustErr(t, s.PutPlayLink(ctx, credHash("x"), testGrant("u"), ttl), store.ErrInvalid, "a link living "+ttl.String())
	}
}

// isNotFound reports whether err is store.ErrNotFound.
func isNotFound(err error) bool { return err != nil && errors.Is(err, store.ErrNotFound) }
