package commands_test

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestDailyDigest: /notify digest:08:30 tz:Europe/Berlin sends, at 08:30
// in Berlin each day and once, a direct message listing the games waiting
// for the person's move (not those waiting for the opponent); digest:off
// stops it; bad times and zones are refused.
func TestDailyDigest(t *testing.T) {
	e := newEnv(t, false)
	ctx := context.Background()
	e.refused(ann, "c1", "/notify digest:25:00", "HH:MM")
	e.refused(ann, "c1", "/notify tz:Mars/Olympus", "time zone")
	// A refused option keeps the others from being set too.
	e.refused(ann, "c1", "/notify dm:on digest:8:75", "HH:MM")
	if r := e.do(ann, "c1", "/notify"); !strings.Contains(r.Text, "your turn: off") || !strings.Contains(r.Text, "waiting for you: off") {
		t.Errorf("after a refused /notify: %q", r.Text)
	}
	if r := e.do(ann, "c1", "/notify digest:8:30 tz:Europe/Berlin"); !r.Private || !strings.Contains(r.Text, "at 08:30 Europe/Berlin") {
		t.Fatalf("/notify answered %q", r.Text)
	}
	e.ok(ann, "c1", "/play game:sixes opponent:@bob side:first")
	e.ok(bob, "c1", "/accept")
	e.ok(ann, "c2", "/play game:hiya opponent:@bob side:second")
	e.ok(bob, "c2", "/accept")
	e.ok(ann, "c3", "/play game:hique opponent:@bob side:first")
	e.ok(bob, "c3", "/accept")
	// The clock starts at 09:00 UTC, 10:00 in Berlin: the digest is due at
	// 07:30 UTC the next day.
	must(t, e.svc.Tick(ctx))
	e.clock.Advance(22*time.Hour + 29*time.Minute)
	must(t, e.svc.Tick(ctx))
	if n := len(e.posts.directs(ann.ID)); n != 0 {
		t.Fatalf("%d digests a minute early", n)
	}
	e.clock.Advance(time.Minute)
	must(t, e.svc.Tick(ctx))
	must(t, e.svc.Tick(ctx))
	got := e.posts.directs(ann.ID)
	if len(got) != 1 || !got[0].Digest {
		t.Fatalf("at 08:30 Berlin: %d direct messages %+v, want one digest", len(got), got)
	}
	text := got[0].Text
	if !strings.Contains(text, "2 games waiting") || !strings.Contains(text, "Sixes in <#c1>") || !strings.Contains(text, "HiQUE in <#c3>") || strings.Contains(text, "<#c2>") {
		t.Errorf("digest %q, want c1 and c3 (not c2, Bob's move)", text)
	}
	e.clock.Advance(time.Minute)
	must(t, e.svc.Tick(ctx))
	if n := len(e.posts.directs(ann.ID)); n != 1 {
		t.Fatalf("%d digests on one day", n)
	}
	e.clock.Advance(24*time.Hour - time.Minute)
	must(t, e.svc.Tick(ctx))
	if n := len(e.posts.directs(ann.ID)); n != 2 {
		t.Fatalf("%d digests after two days, want 2", n)
	}
	e.do(ann, "c1", "/notify digest:off")
	e.clock.Advance(24 * time.Hour)
	must(t, e.svc.Tick(ctx))
	if n := len(e.posts.directs(ann.ID)); n != 2 {
		t.Fatalf("a digest after digest:off (%d)", n)
	}
	if n := len(e.posts.directs(bob.ID)); n != 0 {
		t.Errorf("Bob, without /notify, got %d direct messages", n)
	}
}
