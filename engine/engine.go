package engine

import (
	"context"
	"time"

	"arbiter/rules"
)

// Engine is Arbiter's search for every game of the rules contract: one
// transposition table and one Searcher over the rules.Game interface. An
// Engine is not safe for concurrent use: give each worker its own.
type Engine struct {
	tt       *Table
	searcher *Searcher[rules.Game]
}

// NewEngine returns an engine with a transposition table of tableMB
// megabytes (DefaultTableMB when tableMB is 0 or less).
func NewEngine(tableMB int) *Engine {
	if tableMB <= 0 {
		tableMB = DefaultTableMB
	}
	tt := NewTable(tableMB)
	return &Engine{tt: tt, searcher: NewSearcher[rules.Game](tt, nil)}
}

// Search searches g's position within lim and ctx, at full strength, and
// returns the best move found. g is not changed. Info.Move is a legal move
// whenever the position has one.
func (e *Engine) Search(ctx context.Context, g rules.Game, lim Limits) Info {
	info, _ := e.search(ctx, g, lim, false)
	return info
}

// Reset forgets what earlier searches learnt (the transposition table, the
// killer moves and the history), so that the next search depends only on
// its position and limits: with a depth limit alone, the same result every
// time.
func (e *Engine) Reset() {
	e.tt.Clear()
	e.searcher.reset()
}

// search searches g; with exactRoot it also returns an exact score for
// every root move.
func (e *Engine) search(ctx context.Context, g rules.Game, lim Limits, exactRoot bool) (Info, []rootScore) {
	return e.searcher.search(ctx, g, lim, exactRoot, time.Now())
}
