package engine

import (
	"context"
	"testing"

	"arbiter/rules"
	"arbiter/rules/hique"
	"arbiter/rules/hiya"
	"arbiter/rules/sixes"
	"arbiter/rules/upthrust"
)

// BenchmarkDispatch compares the search instantiated over a game's concrete
// type with the search over the rules.Game interface, at a fixed depth from
// each start position. The engine searches through the interface (see the
// package doc for the figures); this benchmark is how to check that again.
func BenchmarkDispatch(b *testing.B) {
	const depth = 6
	for _, name := range []string{"hique", "upthrust", "hiya", "sixes"} {
		g := startOf(b, name)
		b.Run(name+"/interface", func(b *testing.B) { benchDepth(b, NewSearcher[rules.Game](NewTable(4), nil), g, depth) })
		b.Run(name+"/concrete", func(b *testing.B) {
			switch x := g.(type) {
			case *hique.Game:
				benchDepth(b, NewSearcher[*hique.Game](NewTable(4), nil), x, depth)
			case *upthrust.Game:
				benchDepth(b, NewSearcher[*upthrust.Game](NewTable(4), nil), x, depth)
			case *hiya.Game:
				benchDepth(b, NewSearcher[*hiya.Game](NewTable(4), nil), x, depth)
			case *sixes.Game:
				benchDepth(b, NewSearcher[*sixes.Game](NewTable(4), nil), x, depth)
			}
		})
	}
}

// benchDepth searches g to depth once an op with a cleared table, and
// reports nodes an op.
func benchDepth[G rules.Game](b *testing.B, s *Searcher[G], g G, depth int) {
	var nodes uint64
	for b.Loop() {
		s.tt.Clear()
		info := s.Search(context.Background(), g, Limits{Depth: depth})
		nodes = info.Nodes
	}
	b.ReportMetric(float64(nodes), "nodes/op")
}
