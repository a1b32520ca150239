package storetest

import (
	"bytes"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"arbiter/store"
)

// analysisTests are the contract suite's tests of the analysis line and
// the analyses kept (store.Analyses). They share the line of a Redis
// Cluster, so none runs in parallel with another.
var analysisTests = []struct {
	name    string
	run     func(t *testing.T, e *env)
	cluster bool
}{
	{"AnalysisLineAndShares", testAnalysisLineAndShares, true},
	{"AnalysisPostedOncePerChannel", testAnalysisPostedOncePerChannel, true},
	{"AnalysisTakenOverAfterLease", testAnalysisTakenOverAfterLease, true},
	{"AnalysisClaimedByOneOfMany", testAnalysisClaimedByOneOfMany, true},
	{"AnalysisOutlivesItsStore", testAnalysisOutlivesItsStore, true},
	{"AnalysesKeptBounded", testAnalysesKeptBounded, true},
	{"AnalysisDropped", testAnalysisDropped, true},
}

// roomy are shares that hold back nothing in these tests.
var roomy = store.AnalysisShares{Line: 100, Server: 100, Person: 100}

// ask asks for game id of g1 with channel, and wants it put in line at place.
func ask(t *testing.T, s store.Store, id, asker, channel string, place int) {
	t.Helper()
	got, added, err := s.AskAnalysis(Context(t), store.AnalysisAsk{Guild: "g1", Game: id, Asker: asker, Channel: channel}, roomy)
	if err != nil || !added || got != place {
		t.Fatalf("ask for %s = place %d, added %v, %v; want put in line at %d", id, got, added, err, place)
	}
}

// claim claims a job for worker, wanting one.
func claim(t *testing.T, s store.Store, worker string, lease time.Duration) *store.AnalysisJob {
	t.Helper()
	job, err := s.ClaimAnalysis(Context(t), worker, lease)
	if err != nil {
		t.Fatalf("claim an analysis for %s: %v", worker, err)
	}
	return job
}

// postAll posts job to every channel the store gives, returning them.
func postAll(t *testing.T, s store.Store, job *store.AnalysisJob) []string {
	t.Helper()
	var posted []string
	last := ""
	for {
		ch, ok, err := s.NextAnalysisPost(Context(t), job, last)
		if err != nil {
			t.Fatalf("next post: %v", err)
		}
		if !ok {
			return posted
		}
		posted = append(posted, ch)
		last = ch
	}
}

// testAnalysisLineAndShares: games are taken oldest first; asking again
// gives the place and adds the channel once; the shares of the line, a
// server and a person hold, and are freed when a job leaves the line.
func testAnalysisLineAndShares(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	shares := store.AnalysisShares{Line: 3, Server: 2, Person: 1}
	try := func(guild, id, asker, channel string) (int, bool, error) {
		return s.AskAnalysis(ctx, store.AnalysisAsk{Guild: guild, Game: id, Asker: asker, Channel: channel}, shares)
	}
	if place, added, err := try("g1", "1", "ada", "c1"); place != 1 || !added || err != nil {
		t.Fatalf("first ask = %d %v %v; want place 1, put in line", place, added, err)
	}
	if place, added, err := try("g1", "1", "bob", "c2"); place != 1 || added || err != nil {
		t.Fatalf("the same game asked again = %d %v %v; want place 1, not put in line again", place, added, err)
	}
	_, _, err := try("g1", "2", "ada", "c1")
	MustErr(t, err, store.ErrPersonShare, "a second game of a person whose share is one")
	if place, added, err := try("g1", "2", "", "c1"); place != 2 || !added || err != nil {
		t.Fatalf("a second game of the server, asked by nobody = %d %v %v", place, added, err)
	}
	_, _, err = try("g1", "3", "cy", "c1")
	MustErr(t, err, store.ErrServerShare, "a third game of a server whose share is two")
	if place, added, err := try("g2", "3", "cy", "c9"); place != 3 || !added || err != nil {
		t.Fatalf("another server's game = %d %v %v", place, added, err)
	}
	place, _, err := try("g3", "4", "", "c8")
	MustErr(t, err, store.ErrLineFull, "a fourth game in a line of three")
	if place != 3 {
		t.Fatalf("a full line gives place %d; want its bound 3", place)
	}
	if n, err := s.AnalysesInLine(ctx); n != 3 || err != nil {
		t.Fatalf("AnalysesInLine = %d, %v; want 3", n, err)
	}
	_, _, err = s.AskAnalysis(ctx, store.AnalysisAsk{Guild: "g1", Game: "{x}"}, shares)
	MustErr(t, err, store.ErrInvalid, "a game id with braces")
	_, _, err = s.AskAnalysis(ctx, store.AnalysisAsk{Guild: "g1", Game: "5"}, store.AnalysisShares{})
	MustErr(t, err, store.ErrInvalid, "no shares")

	job := claim(t, s, "w1", time.Hour)
	if job.Guild != "g1" || job.Game != "1" || job.Worker != "w1" || job.Deliveries != 1 || job.Kept || job.Progress != nil {
		t.Fatalf("the first claim = %+v; want g1's game 1, new", job)
	}
	if got := postAll(t, s, job); len(got) != 2 || got[0] != "c1" || got[1] != "c2" {
		t.Fatalf("posted to %v; want c1 then c2, once each", got)
	}
	// Ada's share is free again, and so is one of g1's.
	if place, added, err := try("g1", "2b", "ada", "c1"); place != 3 || !added || err != nil {
		t.Fatalf("Ada's game once her first left the line = %d %v %v; want place 3", place, added, err)
	}
	if next := claim(t, s, "w1", time.Hour); next.Game != "2" {
		t.Fatalf("the second claim took %+v; want game 2, the oldest left", next)
	}
	if next := claim(t, s, "w2", time.Hour); next.Game != "3" {
		t.Fatalf("the third claim took %+v; want game 3", next)
	}
	if next := claim(t, s, "w2", time.Hour); next.Game != "2b" {
		t.Fatalf("the fourth claim took %+v; want game 2b", next)
	}
	_, err = s.ClaimAnalysis(ctx, "w3", time.Hour)
	MustErr(t, err, store.ErrNoJob, "a claim with every job held")
}

// testAnalysisPostedOncePerChannel: a kept result is posted once to each
// channel that asked, one that asks while the posts go out included; once
// out of line, asking gives ErrAnalysisKept and the result is read.
func testAnalysisPostedOncePerChannel(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	ask(t, s, "7", "ada", "c1", 1)
	_, err := s.KeptAnalysis(ctx, "g1", "7")
	MustErr(t, err, store.ErrNotFound, "an analysis in line, read")
	job := claim(t, s, "w1", time.Hour)
	result := store.Analysis{Text: "**Analysis of game 7**", Graph: []byte{0x89, 'P', 'N', 'G', 0, 1}, Page: []byte("<html>")}
	if err := s.KeepAnalysis(ctx, job, result); err != nil {
		t.Fatal(err)
	}
	// Asked in another channel while it is kept but still in line: posted
	// there too, and the same channel asking twice gets one post.
	if place, added, err := s.AskAnalysis(ctx, store.AnalysisAsk{Guild: "g1", Game: "7", Asker: "bob", Channel: "c2"}, roomy); place != 1 || added || err != nil {
		t.Fatalf("asked while its posts go out = %d %v %v; want its place, 1", place, added, err)
	}
	ch, ok, err := s.NextAnalysisPost(ctx, job, "")
	if ch != "c1" || !ok || err != nil {
		t.Fatalf("first post = %q %v %v; want c1", ch, ok, err)
	}
	// The same channel not recorded as posted is given again (its post
	// may not have gone out); a channel asked for meanwhile comes after.
	if again, ok, err := s.NextAnalysisPost(ctx, job, ""); again != "c1" || !ok || err != nil {
		t.Fatalf("next post without recording c1 = %q %v %v; want c1 again", again, ok, err)
	}
	_, _, _ = s.AskAnalysis(ctx, store.AnalysisAsk{Guild: "g1", Game: "7", Channel: "c3"}, roomy)
	_, _, _ = s.AskAnalysis(ctx, store.AnalysisAsk{Guild: "g1", Game: "7", Channel: "c2"}, roomy)
	if got := append([]string{"c1"}, postAll(t, s, job)...); len(got) != 4 || got[1] != "c1" || got[2] != "c2" || got[3] != "c3" {
		t.Fatalf("posts %v; want c1, then c1 recorded and c2, c3 once each", got)
	}
	_, _, err = s.AskAnalysis(ctx, store.AnalysisAsk{Guild: "g1", Game: "7", Channel: "c4"}, roomy)
	MustErr(t, err, store.ErrAnalysisKept, "asked once out of line")
	got, err := s.KeptAnalysis(ctx, "g1", "7")
	if err != nil || got.Text != result.Text || !bytes.Equal(got.Graph, result.Graph) || !bytes.Equal(got.Page, result.Page) {
		t.Fatalf("KeptAnalysis = %+v, %v; want it as kept", got, err)
	}
	if n, err := s.AnalysesInLine(ctx); n != 0 || err != nil {
		t.Fatalf("AnalysesInLine = %d, %v; want 0", n, err)
	}
	_, _, err = s.NextAnalysisPost(ctx, job, "")
	MustErr(t, err, store.ErrStaleJob, "a job out of line, posted again")
	_, err = s.ClaimAnalysis(ctx, "w1", time.Hour)
	MustErr(t, err, store.ErrNoJob, "a claim with nothing in line")
}

// testAnalysisTakenOverAfterLease: a job whose worker stops renewing it
// is taken by another worker's claim once its lease ran out, not before,
// with the progress recorded; the first worker can then do nothing more
// with it.
func testAnalysisTakenOverAfterLease(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	ask(t, s, "9", "", "c1", 1)
	// Claimed for an hour, then renewed for a short lease: the renewal
	// cannot come after the lease ran out, however slow the machine.
	const lease = 300 * time.Millisecond
	dead := claim(t, s, "dead-worker", time.Hour)
	dead.Lease = lease
	asked := time.Now()
	if err := s.ExtendAnalysis(ctx, dead, []byte("3 of 40")); err != nil {
		t.Fatal(err)
	}
	extended := time.Now()
	const slack = 5 * time.Millisecond // whole milliseconds
	var got *store.AnalysisJob
	for begun := time.Now(); got == nil; begun = time.Now() {
		if time.Since(extended) > HangBound {
			t.Fatal("no claim took the job over")
		}
		job, err := s.ClaimAnalysis(ctx, "fresh-worker", time.Hour)
		if err != nil {
			MustErr(t, err, store.ErrNoJob, "claim while the lease runs")
			if begun.After(extended.Add(lease + slack)) {
				t.Fatalf("a claim begun %v after the lease was renewed, past its %v, found no job", begun.Sub(extended), lease)
			}
			time.Sleep(10 * time.Millisecond)
			continue
		}
		// A store's clock counts whole milliseconds, so a lease renewed late in
		// one may run out up to a millisecond short of its length.
		if ended := time.Since(asked); ended < lease-time.Millisecond {
			t.Fatalf("the job was taken over %v after its lease was renewed: before its %v lease ran out", ended, lease)
		}
		got = job
	}
	if got.Game != "9" || got.Worker != "fresh-worker" || string(got.Progress) != "3 of 40" || got.Deliveries != 2 {
		t.Fatalf("taken over: %+v; want game 9 with the progress recorded, second delivery", got)
	}
	MustErr(t, s.ExtendAnalysis(ctx, dead, nil), store.ErrStaleJob, "extend by the worker whose lease ran out")
	MustErr(t, s.KeepAnalysis(ctx, dead, store.Analysis{Text: "late"}), store.ErrStaleJob, "keep by the worker whose lease ran out")
	_, _, err := s.NextAnalysisPost(ctx, dead, "")
	MustErr(t, err, store.ErrStaleJob, "post by the worker whose lease ran out")
	MustErr(t, s.DropAnalysis(ctx, dead), store.ErrStaleJob, "drop by the worker whose lease ran out")
	if err := s.ExtendAnalysis(ctx, got, nil); err != nil {
		t.Fatalf("extend by its new worker: %v", err)
	}
	if err := s.KeepAnalysis(ctx, got, store.Analysis{Text: "done"}); err != nil {
		t.Fatal(err)
	}
	if posted := postAll(t, s, got); len(posted) != 1 || posted[0] != "c1" {
		t.Fatalf("posted to %v; want c1", posted)
	}
}

// testAnalysisClaimedByOneOfMany: of many claims at once of one job, one
// gets it.
func testAnalysisClaimedByOneOfMany(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	ask(t, s, "1", "", "c1", 1)
	var mu sync.Mutex
	var won []string
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			job, err := s.ClaimAnalysis(ctx, "w"+strconv.Itoa(i), time.Hour)
			if err != nil {
				if !errors.Is(err, store.ErrNoJob) {
					t.Errorf("claim: %v", err)
				}
				return
			}
			mu.Lock()
			won = append(won, job.Worker)
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(won) != 1 {
		t.Fatalf("%d of 16 claims of one job got it (%v); want 1", len(won), won)
	}
}

// testAnalysisOutlivesItsStore: a job in line, and a kept analysis, are
// there for the next store opened on the same data.
func testAnalysisOutlivesItsStore(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	ask(t, s, "1", "ada", "c1", 1)
	ask(t, s, "2", "", "c2", 2)
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	next := e.open()
	job := claim(t, next, "w1", time.Hour)
	if job.Game != "1" {
		t.Fatalf("the next store's claim = %+v; want game 1", job)
	}
	if err := next.KeepAnalysis(ctx, job, store.Analysis{Text: "one"}); err != nil {
		t.Fatal(err)
	}
	if err := next.Close(ctx); err != nil {
		t.Fatal(err)
	}
	third := e.open()
	if a, err := third.KeptAnalysis(ctx, "g1", "1"); err != nil || a.Text != "one" {
		t.Fatalf("kept analysis in the third store = %+v, %v", a, err)
	}
	if n, err := third.AnalysesInLine(ctx); n != 2 || err != nil {
		t.Fatalf("AnalysesInLine = %d, %v; want 2 (one kept, its post to go out)", n, err)
	}
}

// testAnalysesKeptBounded: past store.KeptAnalyses, the analysis kept
// longest ago is forgotten; keeping one again makes it the newest.
func testAnalysesKeptBounded(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	for i := range store.KeptAnalyses + 1 {
		id := strconv.Itoa(i)
		ask(t, s, id, "", "", 1)
		job := claim(t, s, "w1", time.Hour)
		if err := s.KeepAnalysis(ctx, job, store.Analysis{Text: id}); err != nil {
			t.Fatal(err)
		}
		if posted := postAll(t, s, job); len(posted) != 0 {
			t.Fatalf("an analysis asked for no channel posted to %v", posted)
		}
	}
	_, err := s.KeptAnalysis(ctx, "g1", "0")
	MustErr(t, err, store.ErrNotFound, "the analysis kept longest ago, past the bound")
	for _, id := range []string{"1", strconv.Itoa(store.KeptAnalyses)} {
		if a, err := s.KeptAnalysis(ctx, "g1", id); err != nil || a.Text != id {
			t.Fatalf("kept analysis %s = %+v, %v", id, a, err)
		}
	}
	// Game 0, forgotten, may be asked for again.
	ask(t, s, "0", "", "c1", 1)
}

// testAnalysisDropped: a job dropped by its worker leaves the line with
// nothing kept, and may be asked for again.
func testAnalysisDropped(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	ask(t, s, "5", "ada", "c1", 1)
	job := claim(t, s, "w1", time.Hour)
	if err := s.DropAnalysis(ctx, job); err != nil {
		t.Fatal(err)
	}
	_, err := s.KeptAnalysis(ctx, "g1", "5")
	MustErr(t, err, store.ErrNotFound, "a dropped analysis, read")
	_, err = s.ClaimAnalysis(ctx, "w1", time.Hour)
	MustErr(t, err, store.ErrNoJob, "a claim after the drop")
	shares := store.AnalysisShares{Line: 1, Server: 1, Person: 1}
	if place, added, err := s.AskAnalysis(ctx, store.AnalysisAsk{Guild: "g1", Game: "5", Asker: "ada", Channel: "c1"}, shares); place != 1 || !added || err != nil {
		t.Fatalf("asked again after the drop, with shares of one = %d %v %v; want put in line", place, added, err)
	}
}
