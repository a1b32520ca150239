package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"testing"
	"time"

	"arbiter/rules"
	"arbiter/rules/games"
)

// startOf returns the start position of a game (Upthrust with colours=gb).
func startOf(tb testing.TB, name string) rules.Game {
	tb.Helper()
	opts := rules.Options{}
	if name == "upthrust" {
		opts["colours"] = "gb"
	}
	g, err := games.Registry().New(name, opts)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// BenchmarkSearchNPS searches each start position for 200 ms a run and
// reports nodes a second and the depth reached.
func BenchmarkSearchNPS(b *testing.B) {
	for _, name := range games.Registry().Names() {
		b.Run(name, func(b *testing.B) {
			g := startOf(b, name)
			eng := NewEngine(16)
			var nodes uint64
			var depth int
			var elapsed time.Duration
			for b.Loop() {
				info := eng.Search(context.Background(), g, Limits{MoveTime: 200 * time.Millisecond})
				nodes += info.Nodes
				elapsed += info.Elapsed
				depth = info.Depth
			}
			b.ReportMetric(float64(nodes)/elapsed.Seconds(), "nodes/s")
			b.ReportMetric(float64(depth), "depth")
		})
	}
}

// BenchmarkShortSearches searches positions along Hi-Ya! games for 20 ms
// each, as a match at 20 ms a move does: one engine with a table of
// DefaultTableMB, kept from move to move. The games are played by a
// separate 3-ply search on a cleared table, so that every build searches the
// same positions. It reports nodes a second and the mean depth reached.
func BenchmarkShortSearches(b *testing.B) {
	start := startOf(b, "hiya")
	eng, mover := NewEngine(DefaultTableMB), NewEngine(1)
	g := start.Clone()
	var nodes, depths, searches uint64
	var elapsed time.Duration
	for b.Loop() {
		if g.Status() != rules.Ongoing {
			g = start.Clone()
		}
		info := eng.Search(context.Background(), g, Limits{MoveTime: 20 * time.Millisecond})
		nodes += info.Nodes
		elapsed += info.Elapsed
		depths += uint64(info.Depth)
		searches++
		mover.tt.Clear()
		g.Play(mover.Search(context.Background(), g, Limits{Depth: 3}).Move)
	}
	b.ReportMetric(float64(nodes)/elapsed.Seconds(), "nodes/s")
	b.ReportMetric(float64(depths)/float64(searches), "depth")
}

// BenchmarkFirstSearch is the first search of a new engine: 100,000
// positions of Hi-Ya! from the start on a new table of DefaultTableMB, in
// memory fresh from the operating system, as in a new process. The engine
// is made outside the timer; what the search pays for the table's memory
// is inside it.
func BenchmarkFirstSearch(b *testing.B) {
	g := startOf(b, "hiya")
	for b.Loop() {
		b.StopTimer()
		debug.FreeOSMemory() // the last run's table goes back to the system
		eng := NewEngine(DefaultTableMB)
		b.StartTimer()
		eng.Search(context.Background(), g, Limits{Nodes: 100_000})
	}
}

// BenchmarkOverrun plays short searches (10 ms) through Arbiter's level 5
// from positions along seeded games and reports the worst and the 99th
// percentile time beyond the move time.
func BenchmarkOverrun(b *testing.B) {
	const moveTime = 10 * time.Millisecond
	for _, name := range games.Registry().Names() {
		b.Run(name, func(b *testing.B) {
			start := startOf(b, name)
			a := NewArbiter(games.Registry(), 5, 16, nil)
			g := start.Clone()
			var over []time.Duration
			for b.Loop() {
				if g.Status() != rules.Ongoing {
					g = start.Clone()
				}
				t0 := time.Now()
				m, _, err := a.Choose(context.Background(), g, Limits{MoveTime: moveTime})
				over = append(over, time.Since(t0)-moveTime)
				if err != nil {
					b.Fatal(err)
				}
				g.Play(m)
			}
			slices.Sort(over)
			b.ReportMetric(float64(over[len(over)-1].Microseconds())/1000, "max-overrun-ms")
			b.ReportMetric(float64(over[len(over)*99/100].Microseconds())/1000, "p99-overrun-ms")
		})
	}
}

// BenchmarkTimeToDepth searches the start positions of the course games to
// a fixed depth with an empty table; the time per op is the time to that
// depth.
func BenchmarkTimeToDepth(b *testing.B) {
	depths := map[string]int{"hique": 8, "upthrust": 14, "hiya": 9, "sixes": 8}
	for _, name := range games.Registry().Names() {
		if depths[name] == 0 {
			continue
		}
		b.Run(fmt.Sprintf("%s/depth-%d", name, depths[name]), func(b *testing.B) {
			g := startOf(b, name)
			var nodes uint64
			eng := NewEngine(16)
			for b.Loop() {
				eng.tt.Clear()
				info := eng.Search(context.Background(), g, Limits{Depth: depths[name]})
				nodes = info.Nodes
			}
			b.ReportMetric(float64(nodes), "nodes")
		})
	}
}

// BenchmarkMiddlegames searches 16 positions of seeded random play in games
// described in files, 6 to 17 moves in, each to a fixed depth with an
// empty table; an op is the 16 searches, and nodes, theirs, changes only
// when the search does:
//
//	go test ./engine -run '^$' -bench Middlegames
func BenchmarkMiddlegames(b *testing.B) {
	for _, tc := range []struct {
		name  string
		depth int
	}{{"pentago", 3}, {"connect4", 10}, {"gomoku", 3}, {"hex", 2}} {
		b.Run(fmt.Sprintf("%s/depth-%d", tc.name, tc.depth), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(3, 9))
			var positions []rules.Game
			var list rules.MoveList
			for len(positions) < 16 {
				g := startOf(b, tc.name)
				for range 6 + rng.IntN(12) {
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
			eng := NewEngine(1)
			var nodes uint64
			for b.Loop() {
				nodes = 0
				for _, g := range positions {
					eng.tt.Clear()
					nodes += eng.Search(context.Background(), g, Limits{Depth: tc.depth}).Nodes
				}
			}
			b.ReportMetric(float64(nodes), "nodes")
		})
	}
}

// TestBenchPerftOfAShortGame: a game that always ends before perft's
// deepest depth (tic-tac-toe, nine plies) is measured at its last depth
// with moves, not at a depth of no nodes.
func TestBenchPerftOfAShortGame(t *testing.T) {
	cfg := BenchConfig{SearchTime: 5 * time.Millisecond, PerftTime: time.Hour, MiddlePlies: 2, ShortSearches: 1, ShortTime: time.Millisecond}
	row, err := Bench(context.Background(), startOf(t, "tictactoe"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if row.PerftDepth != 9 || row.PerftNPS <= 0 {
		t.Fatalf("perft measured at depth %d, %v nodes/s; want depth 9 and a rate", row.PerftDepth, row.PerftNPS)
	}
}
