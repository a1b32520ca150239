package engine

import (
	"context"
	"time"

	"arbiter/rules"
	"arbiter/rules/hique"
	"arbiter/rules/hiya"
	"arbiter/rules/sixes"
	"arbiter/rules/upthrust"
)

// Engine is Arbiter's search for every game: one transposition table and
// one Searcher per concrete game type, instantiated on first use. Any other
// rules.Game is searched through the interface. An Engine is
// not safe for concurrent use: give each worker its own.
type Engine struct {
	tt *Table

	hique    *Searcher[*hique.Game]
	upthrust *Searcher[*upthrust.Game]
	hiya     *Searcher[*hiya.Game]
	sixes    *Searcher[*sixes.Game]
	other    *Searcher[rules.Game]
}

// NewEngine returns an engine with a transposition table of tableMB
// megabytes (DefaultTableMB when tableMB is 0 or less).
func NewEngine(tableMB int) *Engine {
	if tableMB <= 0 {
		tableMB = DefaultTableMB
	}
	return &Engine{tt: NewTable(tableMB)}
}

// Search searches g's position within lim and ctx, at full strength, and
// returns the best move found. g is not changed. Info.Move is a legal move
// whenever the position has one.
func (e *Engine) Search(ctx context.Context, g rules.Game, lim Limits) Info {
	info, _ := e.search(ctx, g, lim, false)
	return info
}

// search dispatches to the searcher of g's concrete type; with exactRoot it
// also returns an exact score for every root move.
func (e *Engine) search(ctx context.Context, g rules.Game, lim Limits, exactRoot bool) (Info, []rootScore) {
	start := time.Now()
	switch x := g.(type) {
	case *hique.Game:
		if e.hique == nil {
			e.hique = NewSearcher[*hique.Game](e.tt, nil)
		}
		return e.hique.search(ctx, x, lim, exactRoot, start)
	case *upthrust.Game:
		if e.upthrust == nil {
			e.upthrust = NewSearcher[*upthrust.Game](e.tt, nil)
		}
		return e.upthrust.search(ctx, x, lim, exactRoot, start)
	case *hiya.Game:
		if e.hiya == nil {
			e.hiya = NewSearcher[*hiya.Game](e.tt, nil)
		}
		return e.hiya.search(ctx, x, lim, exactRoot, start)
	case *sixes.Game:
		if e.sixes == nil {
			e.sixes = NewSearcher[*sixes.Game](e.tt, nil)
		}
		return e.sixes.search(ctx, x, lim, exactRoot, start)
	}
	if e.other == nil {
		e.other = NewSearcher[rules.Game](e.tt, nil)
	}
	return e.other.search(ctx, g, lim, exactRoot, start)
}
