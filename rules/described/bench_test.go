package described_test

import (
	"testing"

	"arbiter/rules"
)

// BenchmarkPerft measures perft nodes a second of each shipped game,
// described and hand-written, by the same perft code:
//
//	go test ./rules/described -run '^$' -bench Perft -benchtime 3x
func BenchmarkPerft(b *testing.B) {
	for _, tc := range []struct {
		game  string
		depth int
		ref   func() refGame
	}{
		{"breakthrough", 4, func() refGame { return newBreakthrough(8) }},
		{"othello", 7, func() refGame { return newOthello(8) }},
		{"connect4", 7, func() refGame { return newConnect4(7, 6, 4) }},
	} {
		b.Run(tc.game+"/described", func(b *testing.B) {
			g := newDescribed(b, tc.game, nil)
			benchPerft(b, g, tc.depth)
		})
		b.Run(tc.game+"/handwritten", func(b *testing.B) {
			benchPerft(b, tc.ref(), tc.depth)
		})
	}
}

func benchPerft[G refGame](b *testing.B, g G, depth int) {
	lists := make([]rules.MoveList, depth)
	var nodes uint64
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		nodes += perft(g, lists)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
}
