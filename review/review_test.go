package review

import (
	"bytes"
	"context"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"arbiter/engine"
	"arbiter/engine/analysis"
	"arbiter/rules"
	"arbiter/rules/games"
)

// randomGame plays a seeded random game of name and returns its start and
// moves with their analysis at depth 2.
func randomGame(t *testing.T, name string) (Game, *analysis.Report) {
	t.Helper()
	g, err := games.Registry().New(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := g.Clone()
	rng := rand.New(rand.NewPCG(3, 4))
	var moves []rules.Move
	var list rules.MoveList
	for g.Status() == rules.Ongoing && len(moves) < 60 {
		g.Moves(&list)
		m := list.Moves[rng.IntN(list.N)]
		moves = append(moves, m)
		g.Play(m)
	}
	rep, err := analysis.Analyse(context.Background(), start, moves, [2]string{"ann", "bob"},
		analysis.Options{Limits: engine.Limits{Depth: 2}})
	if err != nil {
		t.Fatal(err)
	}
	return Game{Start: start, Moves: moves, Players: [2]string{"ann", "bob"}}, rep
}

func TestGraphIsAPNG(t *testing.T) {
	_, rep := randomGame(t, "hiya")
	b, err := Graph(rep, vg.Points(400), vg.Points(200))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the graph is not a PNG: %v", err)
	}
	if w := img.Bounds().Dx(); w < 300 {
		t.Errorf("the graph is %d pixels wide", w)
	}
}

func TestPageHasEveryMoveAndBoard(t *testing.T) {
	for _, name := range games.Registry().Names() {
		g, rep := randomGame(t, name)
		var buf bytes.Buffer
		if err := Page(&buf, g, rep); err != nil {
			t.Fatal(err)
		}
		html := buf.String()
		if n := strings.Count(html, `<pre id="board`); n != len(g.Moves)+1 {
			t.Errorf("%s: %d boards for %d moves", name, n, len(g.Moves))
		}
		if n := strings.Count(html, `<tr class="move"`); n != len(g.Moves) {
			t.Errorf("%s: %d move rows for %d moves", name, n, len(g.Moves))
		}
		for _, want := range []string{"data:image/png;base64,", "ann", "bob", "blunder"} {
			if !strings.Contains(html, want) {
				t.Errorf("%s: the page has no %q", name, want)
			}
		}
	}
	g, rep := randomGame(t, "sixes")
	g.Moves = g.Moves[:1]
	if err := Page(&bytes.Buffer{}, g, rep); err == nil {
		t.Error("a page of one move with an analysis of many: no error")
	}
}

// TestPageFitsAPhone: the review page tells a phone's browser to lay it out
// at the phone's width.
func TestPageFitsAPhone(t *testing.T) {
	g, rep := randomGame(t, "sixes")
	var b strings.Builder
	if err := Page(&b, g, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `<meta name="viewport" content="width=device-width,initial-scale=1">`) {
		t.Error("the review page has no viewport for phones")
	}
}
