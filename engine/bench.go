package engine

import (
	"context"
	"math"
	"math/rand/v2"
	"time"

	"arbiter/rules"
)

// BenchConfig sets how long the bench measures.
type BenchConfig struct {
	SearchTime    time.Duration // each search for nodes/s and depth (1 s)
	PerftTime     time.Duration // perft deepens until one depth takes this long (300 ms)
	ShortSearches int           // the short searches for the overrun (300)
	ShortTime     time.Duration // the move time of each (10 ms)
	MiddlePlies   int           // plies of play to the middle-game position (12)
}

// DefaultBench returns the bench of `arbiter bench`.
func DefaultBench() BenchConfig {
	return BenchConfig{
		SearchTime:    time.Second,
		PerftTime:     300 * time.Millisecond,
		ShortSearches: 300,
		ShortTime:     10 * time.Millisecond,
		MiddlePlies:   12,
	}
}

// BenchRow is the bench of one game.
type BenchRow struct {
	Game         string  `json:"-"`
	PerftNPS     float64 `json:"perft_nps"`      // rules.Perft leaves a second, at the deepest depth measured
	PerftDepth   int     `json:"-"`              // that depth
	SearchNPS    float64 `json:"search_nps"`     // nodes a second of the search from the start
	Depth1s      int     `json:"depth_1s"`       // the last iteration completed in SearchTime from the start
	Depth1sMid   int     `json:"depth_1s_mid"`   // the same from the middle-game position
	MaxOverrunMS float64 `json:"max_overrun_ms"` // the worst time beyond ShortTime, in milliseconds (negative: always early)
}

// Bench measures one game: perft nodes/s, search nodes/s and the depth
// reached in SearchTime from the start and from a middle-game position
// (MiddlePlies of the engine's 3-ply play against itself), and the worst overrun of ShortTime
// over ShortSearches searches from positions along seeded games. Start is
// the start position; it is not changed.
func Bench(ctx context.Context, start rules.Game, cfg BenchConfig) (BenchRow, error) {
	row := BenchRow{Game: start.Name()}
	var last uint64
	for depth := 1; depth <= 12; depth++ {
		t0 := time.Now()
		n := rules.Perft(start.Clone(), depth)
		el := time.Since(t0)
		if n == 0 {
			break // every game ends before this depth (tic-tac-toe): keep the last that counted
		}
		row.PerftNPS, row.PerftDepth = math.Round(float64(n)/el.Seconds()), depth
		if el >= cfg.PerftTime || ctx.Err() != nil {
			break
		}
		// The next depth takes about as many times longer as this one
		// had nodes per node of the last: a game of thousands of moves a
		// position (Amazons) stops before a depth of hours.
		if last > 0 && el.Seconds()*float64(n)/float64(last) > 20*cfg.PerftTime.Seconds() {
			break
		}
		last = n
	}

	eng := NewEngine(DefaultTableMB)
	info := eng.Search(ctx, start, Limits{MoveTime: cfg.SearchTime})
	row.SearchNPS = math.Round(float64(info.Nodes) / info.Elapsed.Seconds())
	row.Depth1s = info.Depth

	mid, err := middleGame(ctx, start, cfg.MiddlePlies)
	if err != nil {
		return row, err
	}
	eng = NewEngine(DefaultTableMB)
	info = eng.Search(ctx, mid, Limits{MoveTime: cfg.SearchTime})
	row.Depth1sMid = info.Depth

	// The overrun, measured as a caller sees it: through Arbiter's level 5.
	rng := rand.New(rand.NewPCG(7, 7))
	player := NewArbiter(nil, 5, DefaultTableMB, rng) // always given a move time
	g := start.Clone()
	var list rules.MoveList
	worst := time.Duration(math.MinInt64) // negative: every answer came early
	for i := 0; i < cfg.ShortSearches && ctx.Err() == nil; i++ {
		if g.Status() != rules.Ongoing {
			g = start.Clone()
		}
		t0 := time.Now()
		m, _, err := player.Choose(ctx, g, Limits{MoveTime: cfg.ShortTime})
		worst = max(worst, time.Since(t0)-cfg.ShortTime)
		if err != nil {
			return row, err
		}
		// Go on along a varied game: the engine's move or a random one.
		if rng.IntN(3) == 0 {
			g.Moves(&list)
			m = list.Moves[rng.IntN(list.N)]
		}
		g.Play(m)
	}
	if cfg.ShortSearches > 0 {
		row.MaxOverrunMS = math.Round(float64(worst.Microseconds())/100) / 10
	}
	return row, ctx.Err()
}

// middleGame plays plies moves of the engine against itself at 3 plies (2
// in a position of more than 512 moves) from start (deterministic, so every bench starts from the same position), or
// fewer if the game would end.
func middleGame(ctx context.Context, start rules.Game, plies int) (rules.Game, error) {
	g := start.Clone()
	eng := NewEngine(1)
	var list rules.MoveList
	for i := 0; i < plies; i++ {
		// A position of more moves than most games ever have (Amazons'
		// thousands) is searched 2 plies deep, so that the bench stays
		// short.
		depth := 3
		if g.Moves(&list); list.N > 512 {
			depth = 2
		}
		info := eng.Search(ctx, g, Limits{Depth: depth})
		if info.Move == rules.NoMove {
			break
		}
		g.Play(info.Move)
		if g.Status() != rules.Ongoing {
			g.Undo()
			break
		}
	}
	return g, ctx.Err()
}
