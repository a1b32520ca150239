package described_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"arbiter/rules"
	"arbiter/rules/described"
)

// BenchmarkPerft measures perft nodes a second of each shipped game,
// described and hand-written, by the same perft code, alternating the two
// in each round so that both see the same load; "slowdown" is the
// hand-written speed over the described one:
//
//	go test ./rules/described -run '^$' -bench Perft -benchtime 20x
func BenchmarkPerft(b *testing.B) {
	b.Run("breakthrough", func(b *testing.B) {
		benchBoth(b, newDescribed(b, "breakthrough", nil), newBreakthrough(8), 4)
	})
	b.Run("othello", func(b *testing.B) {
		benchBoth(b, newDescribed(b, "othello", nil), newOthello(8), 6)
	})
	b.Run("connect4", func(b *testing.B) {
		benchBoth(b, newDescribed(b, "connect4", nil), newConnect4(7, 6, 4), 6)
	})
	b.Run("kalah", func(b *testing.B) {
		benchBoth(b, newShaped(b, "kalah", nil).(*described.Pits), newKalah(6, 4), 8)
	})
	b.Run("dots", func(b *testing.B) {
		benchBoth(b, newShaped(b, "dots", nil).(*described.Dots), newDotsHand(3, 3), 4)
	})
	b.Run("morris", func(b *testing.B) {
		benchBoth(b, newDescribed(b, "morris", nil), newMorris(), 4)
	})
}

// benchBoth runs perft to depth on g and on its hand-written twin ref in
// turn, each called directly (no interface dispatch for either).
func benchBoth[G, R refGame](b *testing.B, g G, ref R, depth int) {
	lists := make([]rules.MoveList, depth)
	var nodes [2]uint64
	var spent [2]time.Duration
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		nodes[0] += perft(g, lists)
		mid := time.Now()
		nodes[1] += perft(ref, lists)
		spent[0] += mid.Sub(start)
		spent[1] += time.Since(mid)
	}
	described := float64(nodes[0]) / spent[0].Seconds()
	handwritten := float64(nodes[1]) / spent[1].Seconds()
	b.ReportMetric(described/1e6, "described-Mnodes/s")
	b.ReportMetric(handwritten/1e6, "handwritten-Mnodes/s")
	b.ReportMetric(handwritten/described, "slowdown")
}

// BenchmarkEvaluate measures the evaluation of the games whose
// description weighs a search of the board (connection, territory) or its
// open lines, over
// 64 positions of seeded random play, 20 to 40 moves in; score-sum, the
// scores of the 64 added up, changes only when the evaluation does:
//
//	go test ./rules/described -run '^$' -bench Evaluate
func BenchmarkEvaluate(b *testing.B) {
	for _, name := range []string{"hex", "amazons", "gomoku", "pentago", "connect4"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			rng := rand.New(rand.NewPCG(7, 13))
			var positions []*described.Game
			var list rules.MoveList
			for len(positions) < 64 {
				g := newDescribed(b, name, nil)
				plies := 20 + rng.IntN(21)
				for range plies {
					if g.Status() != rules.Ongoing {
						break
					}
					g.Moves(&list)
					g.Play(list.Slice()[rng.IntN(list.N)])
				}
				if g.Status() == rules.Ongoing {
					positions = append(positions, g)
				}
			}
			sum := 0
			for _, g := range positions {
				sum += g.Evaluate()
			}
			for i := 0; b.Loop(); i++ {
				positions[i%len(positions)].Evaluate()
			}
			b.ReportMetric(float64(sum), "score-sum")
		})
	}
}
