package analyst

import (
	"context"
	"sync"
)

// Gate lets analysis searches run only while no worker of the process has
// a bot turn: Enter stops every search in progress (each is put back)
// before the worker thinks, and holds off new ones until the last busy
// worker leaves, so that a bot turn never shares the machine with this
// process's analyses. The zero Gate is open. Safe for concurrent use.
type Gate struct {
	mu       sync.Mutex
	busy     int // workers with a bot turn
	stopping int // workers in Enter, waiting for the searches to stop
	searches map[*search]struct{}
}

// search is one search running under the gate.
type search struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// Enter marks a worker busy with a bot turn, once every analysis search
// has stopped.
func (g *Gate) Enter() {
	g.mu.Lock()
	g.stopping++
	var wait []chan struct{}
	for sr := range g.searches {
		sr.cancel()
		wait = append(wait, sr.done)
	}
	g.mu.Unlock()
	for _, done := range wait {
		<-done
	}
	g.mu.Lock()
	g.stopping--
	g.busy++
	g.mu.Unlock()
}

// Leave marks a worker idle again.
func (g *Gate) Leave() {
	g.mu.Lock()
	g.busy--
	g.mu.Unlock()
}

// Load counts, at one instant, the workers with a bot turn and the
// analysis searches running (never both, by the gate).
func (g *Gate) Load() (bot, analysing int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.busy, len(g.searches)
}

// idle reports whether a search could start now.
func (g *Gate) idle() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.busy == 0 && g.stopping == 0
}

// start begins a search under the gate, unless a worker is busy; the
// search ends with end, and its context when a worker enters.
func (g *Gate) start(parent context.Context) (context.Context, *search, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.busy > 0 || g.stopping > 0 {
		return nil, nil, false
	}
	ctx, cancel := context.WithCancel(parent)
	sr := &search{cancel: cancel, done: make(chan struct{})}
	if g.searches == nil {
		g.searches = map[*search]struct{}{}
	}
	g.searches[sr] = struct{}{}
	return ctx, sr, true
}

// end closes a search start began.
func (g *Gate) end(sr *search) {
	g.mu.Lock()
	defer g.mu.Unlock()
	sr.cancel()
	close(sr.done)
	delete(g.searches, sr)
}
