package commands

import (
	"context"
	"fmt"
	"sync"
	"time"

	"arbiter/render"
	"arbiter/store"
)

// Limits of the replays kept in memory and drawn at once.
const (
	replayCacheEntries = 16
	replayCacheBytes   = 64 << 20
	replayDrawing      = 2 // replays drawn at once
	replayTimeout      = 30 * time.Second
)

// replays draws each game's replay once, within render.DefaultGIFBudget,
// and keeps the newest few: asking again (or many at once) costs one
// drawing per game version.
type replays struct {
	sem     chan struct{}
	mu      sync.Mutex
	entries map[string]*replayEntry
	order   []string // keys, oldest first
	bytes   int
	draws   int // replays drawn, for tests
}

// replayEntry is one game version's replay, done when done is closed.
type replayEntry struct {
	done chan struct{}
	r    render.ReplayGIF
	err  error
}

func newReplays() *replays {
	return &replays{sem: make(chan struct{}, replayDrawing), entries: map[string]*replayEntry{}}
}

// get returns g's replay, drawing it (once, whoever else asks meanwhile)
// if it is not kept.
func (c *replays) get(ctx context.Context, g *store.Game, opt render.Options) (render.ReplayGIF, error) {
	key := fmt.Sprintf("%s/%s/%d/%d", g.Guild, g.ID, g.Version, opt.View)
	c.mu.Lock()
	e, ok := c.entries[key]
	if !ok {
		e = &replayEntry{done: make(chan struct{})}
		c.entries[key] = e
		c.order = append(c.order, key)
	}
	c.mu.Unlock()
	if !ok {
		go c.draw(key, e, g, opt)
	}
	select {
	case <-e.done:
		return e.r, e.err
	case <-ctx.Done():
		return render.ReplayGIF{}, ctx.Err()
	}
}

// draw draws the replay of key (not bound to one asker's context), keeps
// it if it succeeded and evicts the oldest beyond the limits.
func (c *replays) draw(key string, e *replayEntry, g *store.Game, opt render.Options) {
	ctx, cancel := context.WithTimeout(context.Background(), replayTimeout)
	defer cancel()
	c.mu.Lock()
	c.draws++
	c.mu.Unlock()
	select {
	case c.sem <- struct{}{}:
		e.r, e.err = render.DrawGIF(ctx, g.State, opt, render.DefaultGIFBudget)
		<-c.sem
	case <-ctx.Done():
		e.err = fmt.Errorf("replay: too many being drawn: %w", ctx.Err())
	}
	close(e.done)
	c.mu.Lock()
	defer c.mu.Unlock()
	if e.err != nil {
		c.forget(key)
		return
	}
	c.bytes += len(e.r.Data)
	for len(c.order) > 1 && (len(c.order) > replayCacheEntries || c.bytes > replayCacheBytes) {
		c.forget(c.order[0])
	}
}

// forget drops key; c.mu is held.
func (c *replays) forget(key string) {
	e, ok := c.entries[key]
	if !ok {
		return
	}
	select {
	case <-e.done:
		if e.err == nil {
			c.bytes -= len(e.r.Data)
		}
	default:
	}
	delete(c.entries, key)
	for i, k := range c.order {
		if k == key {
			c.order = append(c.order[:i], c.order[i+1:]...)
			break
		}
	}
}
