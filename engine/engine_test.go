package engine

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"arbiter/rules"
	"arbiter/rules/games"
)

func TestEngineFindsForcedWins(t *testing.T) {
	eng := NewEngine(4)
	for _, p := range forcedWins(t) {
		for _, lim := range []Limits{{Depth: 2*p.mateIn + 2}, {MoveTime: 200 * time.Millisecond}} {
			before := p.g.Hash()
			info := eng.Search(context.Background(), p.g, lim)
			if p.g.Hash() != before || p.g.Ply() != 0 {
				t.Fatalf("%s: the search changed the game", p.name)
			}
			n, ok := MateIn(info.Score)
			if !ok || n != p.mateIn {
				t.Errorf("%s (%v): score %s (%d), want a win in %d", p.name, lim, ScoreString(info.Score), info.Score, p.mateIn)
				continue
			}
			// The move must keep the forced win.
			c := p.g.Clone()
			me := c.ToMove()
			c.Play(info.Move)
			if !winsNow(c, me) && !(c.Status() == rules.Ongoing && allRepliesLose(c, me, 2*p.mateIn-2)) {
				t.Errorf("%s (%v): move %s does not win in %d", p.name, lim, p.g.FormatMove(info.Move), p.mateIn)
			}
		}
	}
}

func TestEveryLevelTakesAWinInOne(t *testing.T) {
	for _, p := range forcedWins(t) {
		if p.mateIn != 1 {
			continue
		}
		for level := Level(1); level <= 5; level++ {
			a := NewArbiter(games.Registry(), level, 1, rand.New(rand.NewPCG(uint64(level), 9)))
			m, _, err := a.Choose(context.Background(), p.g, Limits{MoveTime: 100 * time.Millisecond})
			if err != nil {
				t.Fatalf("%s level %d: %v", p.name, level, err)
			}
			c := p.g.Clone()
			me := c.ToMove()
			c.Play(m)
			if !winsNow(c, me) {
				t.Errorf("%s level %d: played %s, not the win", p.name, level, p.g.FormatMove(m))
			}
		}
	}
}

// positionsAlong returns positions from seeded random games of each game,
// a few from each.
func positionsAlong(t *testing.T, name string, n int) []rules.Game {
	t.Helper()
	r := rand.New(rand.NewPCG(11, uint64(len(name))))
	var out []rules.Game
	var list rules.MoveList
	for len(out) < n {
		g := startOf(t, name)
		for g.Status() == rules.Ongoing && len(out) < n {
			if r.IntN(6) == 0 {
				out = append(out, g.Clone())
			}
			g.Moves(&list)
			g.Play(list.Moves[r.IntN(list.N)])
		}
	}
	return out
}

func legal(g rules.Game, m rules.Move) bool {
	var list rules.MoveList
	g.Moves(&list)
	return list.Contains(m)
}

func TestEverySearchReturnsALegalMoveWithinLimits(t *testing.T) {
	eng := NewEngine(4)
	limits := []Limits{
		{Nodes: 1}, {Nodes: 2}, {Nodes: 100}, {Nodes: 5000},
		{Depth: 1}, {Depth: 2}, {Depth: 3},
		{MoveTime: time.Millisecond}, {MoveTime: 5 * time.Millisecond},
		{Depth: 4, Nodes: 3000},
	}
	for _, name := range games.Registry().Names() {
		positions, lims := positionsAlong(t, name, 12), limits
		if sampled(startOf(t, name)) {
			// One position, to depth 1 in full and to depth 2 within a
			// node cap.
			positions, lims = positions[:1], []Limits{{Depth: 1}, {Depth: 2, Nodes: 1000}}
		}
		for _, g := range positions {
			for _, lim := range lims {
				if wide(g) && lim.Depth > 2 {
					continue
				}
				info := eng.Search(context.Background(), g, lim)
				if !legal(g, info.Move) {
					t.Fatalf("%s ply %d, %v: move %d is not legal", name, g.Ply(), lim, info.Move)
				}
				if lim.Nodes > 0 && info.Nodes > lim.Nodes {
					t.Errorf("%s ply %d, %v: visited %d nodes", name, g.Ply(), lim, info.Nodes)
				}
				if lim.Depth > 0 && info.Depth > lim.Depth {
					t.Errorf("%s ply %d, %v: reached depth %d", name, g.Ply(), lim, info.Depth)
				}
				if lim.Depth > 0 && lim.Nodes == 0 && info.Depth != lim.Depth && !decided(info.Score) {
					t.Errorf("%s ply %d, %v: stopped at depth %d", name, g.Ply(), lim, info.Depth)
				}
			}
		}
	}
}

// wide reports whether g's player to move has more than 512 legal
// moves (Amazons has 2,176 at the start): the tests search such a
// position only two or three plies deep, as each further ply costs
// minutes.
func wide(g rules.Game) bool {
	var list rules.MoveList
	g.Moves(&list)
	return list.N > 512
}

// sampled reports whether, under -short, the every-game tests take the
// game that g starts as a sample (one position, a search or two at a small
// depth or node limit) rather than their full set: each search of a wide
// game costs what hundreds of the other games' do. The full run checks
// it as it checks every other game.
func sampled(g rules.Game) bool { return testing.Short() && wide(g) }

// decided reports whether a score is a forced win or loss, after which a
// search may stop before its depth limit.
func decided(score int) bool {
	_, ok := MateIn(score)
	return ok
}

// hang bounds a wait that only a hang reaches, however busy the machine.
const hang = 2 * time.Minute

func TestSearchStopsWhenTheContextIsDone(t *testing.T) {
	eng := NewEngine(4)
	for _, name := range games.Registry().Names() {
		g := startOf(t, name)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		start := time.Now()
		info := eng.Search(ctx, g, Limits{})
		cancel()
		if !legal(g, info.Move) {
			t.Fatalf("%s: move %d is not legal", name, info.Move)
		}
		// Not a timing assertion: a search without limits runs until its
		// deepest iteration, far past the bound only a hang reaches.
		if el := time.Since(start); el > hang {
			t.Errorf("%s: the search ran %v after its context ended", name, el)
		}
	}
}

func TestPlayersPlayLegalMoves(t *testing.T) {
	specs := []string{"random", "greedy", "alphabeta:1", "alphabeta:2", "arbiter:1", "arbiter:2", "arbiter:3", "arbiter:4", "arbiter"}
	for _, name := range games.Registry().Names() {
		positions := positionsAlong(t, name, 4)
		if sampled(positions[0]) {
			positions = positions[:1]
		}
		for _, spec := range specs {
			p, err := NewPlayer(spec, PlayerOptions{Registry: games.Registry(), Seed: 3, TableMB: 1})
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range positions {
				if spec == "alphabeta:2" && wide(g) {
					continue // millions of positions, with no time limit
				}
				before := g.Hash()
				m, _, err := p.Choose(context.Background(), g, Limits{MoveTime: 10 * time.Millisecond})
				if err != nil {
					t.Fatalf("%s %s: %v", name, spec, err)
				}
				if !legal(g, m) {
					t.Fatalf("%s %s: move %d is not legal", name, spec, m)
				}
				if g.Hash() != before {
					t.Fatalf("%s %s: Choose changed the game", name, spec)
				}
			}
			p.End(positions[0])
		}
	}
}

func TestNewPlayerRejectsBadSpecs(t *testing.T) {
	for _, spec := range []string{"", "arbiter:0", "arbiter:6", "arbiter:x", "alphabeta", "alphabeta:0", "alphabeta:9", "random:2", "greedy:1", "exec:", "exec:  ", "stockfish"} {
		if _, err := NewPlayer(spec, PlayerOptions{}); err == nil {
			t.Errorf("NewPlayer(%q): no error", spec)
		}
	}
	for spec, want := range map[string]string{"arbiter": "arbiter:5", "Arbiter:2": "arbiter:2", "random": "random", "greedy": "greedy", "alphabeta:4": "alphabeta:4", "exec:./x y": "exec:./x y"} {
		p, err := NewPlayer(spec, PlayerOptions{})
		if err != nil {
			t.Fatalf("NewPlayer(%q): %v", spec, err)
		}
		if p.String() != want {
			t.Errorf("NewPlayer(%q).String() = %q, want %q", spec, p.String(), want)
		}
	}
}

func TestLevelLimits(t *testing.T) {
	g := startOf(t, "hique")
	tests := []struct {
		level Level
		in    Limits
		want  Limits
	}{
		{5, Limits{}, Limits{MoveTime: 20 * time.Second}},
		{5, Limits{MoveTime: time.Second}, Limits{MoveTime: time.Second}},
		// HiQUE's own ladder (engine/levels.go).
		{4, Limits{MoveTime: time.Second}, Limits{MoveTime: time.Second, Nodes: 18000}},
		{3, Limits{MoveTime: time.Second}, Limits{MoveTime: time.Second, Nodes: 3500}},
		{2, Limits{MoveTime: time.Second}, Limits{MoveTime: time.Second, Nodes: 450}},
		{1, Limits{Depth: 9}, Limits{Depth: 1, Nodes: 450}},
		{2, Limits{Nodes: 7}, Limits{Nodes: 7}},
		{3, Limits{Nodes: 9000}, Limits{Nodes: 3500}},
	}
	for _, tt := range tests {
		a := NewArbiter(games.Registry(), tt.level, 1, nil)
		if got := a.Limits(g, tt.in); got != tt.want {
			t.Errorf("level %d, %v: got %v, want %v", tt.level, tt.in, got, tt.want)
		}
	}
}

func TestBenchMeasuresEveryGame(t *testing.T) {
	cfg := BenchConfig{SearchTime: 30 * time.Millisecond, PerftTime: 5 * time.Millisecond, ShortSearches: 10, ShortTime: 2 * time.Millisecond, MiddlePlies: 6}
	for _, name := range games.Registry().Names() {
		g := startOf(t, name)
		before := g.Hash()
		cfg := cfg
		if sampled(g) {
			// The middle game's searches are the bench's cost: none, and
			// one short search.
			cfg.MiddlePlies, cfg.ShortSearches = 0, 1
		}
		row, err := Bench(context.Background(), g, cfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if row.PerftNPS <= 0 || row.SearchNPS <= 0 || row.Depth1s < 0 || row.Depth1sMid < 0 || row.PerftDepth < 1 {
			t.Errorf("%s: %+v", name, row)
		}
		// The depths reached are the machine's: a busy one may finish no
		// iteration of a wide game in the search time. Tic-tac-toe's first
		// iteration is nine positions, thousands of times within it.
		if name == "tictactoe" && (row.Depth1s < 1 || row.Depth1sMid < 1) {
			t.Errorf("%s: no depth measured: %+v", name, row)
		}
		if g.Hash() != before || g.Ply() != 0 {
			t.Errorf("%s: the bench changed the start position", name)
		}
	}
}

// TestResetMakesASearchRepeatable: after Reset, a depth-limited search
// finds what a fresh engine finds, nodes counted alike, whatever the
// engine searched before.
func TestResetMakesASearchRepeatable(t *testing.T) {
	reg := games.Registry()
	for _, name := range reg.Names() {
		g, err := reg.New(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(4, 5))
		var list rules.MoveList
		for range 6 {
			g.Moves(&list)
			g.Play(list.Moves[rng.IntN(list.N)])
		}
		lim, between := Limits{Depth: 5}, Limits{Depth: 3}
		switch {
		case sampled(g):
			lim, between = Limits{Depth: 1}, Limits{Depth: 2, Nodes: 1000}
		case wide(g):
			lim.Depth = 2
		}
		fresh := NewEngine(4).Search(context.Background(), g, lim)
		used := NewEngine(4)
		start, _ := reg.New(name, nil)
		used.Search(context.Background(), start, lim)
		used.Search(context.Background(), g, between)
		used.Reset()
		again := used.Search(context.Background(), g, lim)
		if again.Move != fresh.Move || again.Score != fresh.Score || again.Nodes != fresh.Nodes {
			t.Errorf("%s: after Reset %s %d in %d nodes, fresh %s %d in %d nodes", name,
				g.FormatMove(again.Move), again.Score, again.Nodes, g.FormatMove(fresh.Move), fresh.Score, fresh.Nodes)
		}
	}
}
