package analyst

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"arbiter/engine"
	"arbiter/engine/analysis"
	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/boltstore"
	"arbiter/store/storetest"
)

// testPlan is the plan of a game of Sixes of plies first moves, each
// position searched for an hour: longer than any test waits.
func testPlan(t *testing.T, plies int) *analysis.Plan {
	t.Helper()
	g, err := games.Registry().New("sixes", nil)
	if err != nil {
		t.Fatal(err)
	}
	start := g.Clone()
	var moves []rules.Move
	var list rules.MoveList
	for range plies {
		g.Moves(&list)
		if list.N == 0 {
			break
		}
		g.Play(list.Moves[0])
		moves = append(moves, list.Moves[0])
	}
	p, err := analysis.NewPlan(start, moves, [2]string{"Ada", "Bob"}, analysis.Options{Limits: engine.Limits{MoveTime: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// testMaker makes plan's analysis and reports each post.
type testMaker struct {
	plan  *analysis.Plan
	posts chan string // channel, key
	mu    sync.Mutex
	made  int
}

func (m *testMaker) Prepare(context.Context, string, string) (*Work, error) {
	return &Work{Plan: m.plan, Result: func(rep *analysis.Report) store.Analysis {
		m.mu.Lock()
		m.made++
		m.mu.Unlock()
		return store.Analysis{Text: "made", Page: []byte("<html>")}
	}}, nil
}

func (m *testMaker) Post(_ context.Context, channel, key, _, _ string, a store.Analysis) error {
	m.posts <- channel + " " + key + " " + a.Text
	return nil
}

// openBolt opens the embedded store in dir.
func openBolt(t *testing.T, dir string) *boltstore.Bolt {
	t.Helper()
	s, err := boltstore.Open(context.Background(), store.Config{DataDir: dir, Registry: games.Registry(), Logger: storetest.QuietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGoesOnFromTheRecordedProgress: a game whose worker recorded every
// position as searched before it stopped is finished by the next analyst
// without searching any again (each search would last an hour), kept and
// posted once in the channel that asked.
func TestGoesOnFromTheRecordedProgress(t *testing.T) {
	ctx := storetest.Context(t)
	dir := t.TempDir()
	plan := testPlan(t, 4)
	first := openBolt(t, dir)
	if _, _, err := first.AskAnalysis(ctx, store.AnalysisAsk{Guild: "g1", Game: "1", Channel: "c1"}, store.AnalysisShares{Line: 8, Server: 4, Person: 2}); err != nil {
		t.Fatal(err)
	}
	job, err := first.ClaimAnalysis(ctx, "stopped", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	done := &progress{Verdicts: make([]analysis.Verdict, plan.Positions()), Done: make([]bool, plan.Positions())}
	for i := range done.Done {
		done.Done[i] = true
	}
	data, err := json.Marshal(done)
	if err != nil {
		t.Fatal(err)
	}
	if err := first.ExtendAnalysis(ctx, job, data); err != nil {
		t.Fatal(err)
	}
	if err := first.Close(ctx); err != nil { // its process ends: its lease with it
		t.Fatal(err)
	}

	next := openBolt(t, dir)
	defer next.Close(context.Background())
	maker := &testMaker{plan: plan, posts: make(chan string, 8)}
	a := New(next, maker, &Gate{}, Config{Worker: "next", Searches: 2}, storetest.QuietLogger())
	runCtx, stop := context.WithCancel(ctx)
	ran := make(chan struct{})
	go func() { defer close(ran); a.Run(runCtx) }()
	select {
	case post := <-maker.posts:
		if post != "c1 analysis/g1/1/c1 made" {
			t.Errorf("posted %q; want the analysis in c1, keyed by game and channel", post)
		}
	case <-ctx.Done():
		t.Fatal("the analysis recorded as searched was never posted")
	}
	for {
		n, err := next.AnalysesInLine(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("the analysis posted stays in line")
		case <-time.After(10 * time.Millisecond):
		}
	}
	stop()
	<-ran
	if kept, err := next.KeptAnalysis(ctx, "g1", "1"); err != nil || kept.Text != "made" {
		t.Errorf("kept %+v, %v; want the analysis made", kept, err)
	}
	select {
	case post := <-maker.posts:
		t.Errorf("posted again: %q", post)
	default:
	}
	if maker.made != 1 {
		t.Errorf("the result was made %d times; want once", maker.made)
	}
}
