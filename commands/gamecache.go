package commands

import (
	"container/list"
	"context"
	"sync"

	"arbiter/store"
)

// defaultCachedGames is how many games a Service keeps as it saved them
// when Config.CachedGames does not say: about 50 MB at the most (a HiQUE
// or Hi-Ya! game kept takes about 24 KB, its position's stacks reserved
// for the whole game; Sixes and Upthrust under 10 KB).
const defaultCachedGames = 2048

// gameCache keeps, by channel, the games this process saved last, so
// that a /move can be played on the game as saved without reading it
// back from the store (see Service.move). It is an optimistic copy: the
// store's compare-and-set on the version is what keeps a stale entry
// from being written over a newer game, and a move tried on an entry is
// tried again on the stored game unless it was saved. The least recently
// used entry goes when it is full. It is safe for concurrent use.
//
// A channel's entry outlives the game taken from it or dropped: the next
// put of the channel's game (the move's, just saved) fills it again
// without a new entry, as a channel's moves follow one another.
type gameCache struct {
	mu    sync.Mutex
	max   int
	order *list.List               // front: most recently put
	at    map[string]*list.Element // channel -> element holding its *cacheSlot
	kept  int                      // slots holding a game
}

// cacheSlot is a channel's entry in a gameCache: its game, nil while
// taken or dropped.
type cacheSlot struct {
	channel string
	g       *store.Game
}

// newGameCache returns a cache of up to max games; max < 1 keeps none.
func newGameCache(max int) *gameCache {
	return &gameCache{max: max, order: list.New(), at: map[string]*list.Element{}}
}

// take removes channel's game from the cache and returns it (nil when
// there is none): the caller owns it, and no one else gets it until it is
// put back.
func (c *gameCache) take(channel string) *store.Game {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.at[channel]
	if !ok {
		return nil
	}
	return c.empty(el.Value.(*cacheSlot))
}

// empty takes slot's game out of it (nil when it has none).
func (c *gameCache) empty(slot *cacheSlot) *store.Game {
	g := slot.g
	if g != nil {
		slot.g = nil
		c.kept--
	}
	return g
}

// put keeps g, a game just saved, for its channel's next move. The caller
// must not use g afterwards. A finished game is not kept, nor one older
// than the channel's entry of the same game.
func (c *gameCache) put(g *store.Game) {
	if c.max < 1 || g.Status != store.Active {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.at[g.Channel]; ok {
		slot := el.Value.(*cacheSlot)
		if old := slot.g; old != nil && old.ID == g.ID && old.Version >= g.Version {
			return
		}
		if slot.g == nil {
			c.kept++
		}
		slot.g = g
		c.order.MoveToFront(el)
		return
	}
	c.at[g.Channel] = c.order.PushFront(&cacheSlot{channel: g.Channel, g: g})
	c.kept++
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		slot := last.Value.(*cacheSlot)
		c.empty(slot)
		delete(c.at, slot.channel)
	}
}

// drop forgets channel's game.
func (c *gameCache) drop(channel string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.at[channel]; ok {
		c.empty(el.Value.(*cacheSlot))
	}
}

// len returns how many games are kept.
func (c *gameCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.kept
}

// keep puts g, just saved (or created) and done with, in the cache for
// its channel's next /move, when that move is a person's (or a
// program's): the bot's turn is saved by a worker, which drops it.
func (s *Service) keep(g *store.Game) {
	if g.Status == store.Active && !flow(g).Challenge && g.Players[g.State.ToMove()].Kind != store.Bot {
		s.cached.put(g)
	}
}

// forgetfulStore is the Service's store: every write of a channel's game
// through it (whoever in the Service makes it) first drops the channel's
// cached game, so that only /move, which puts back what it saved, keeps
// one.
type forgetfulStore struct {
	store.Store
	games *gameCache
}

// forget drops the cached game of g's channel (g may be nil: the store
// refuses it).
func (f forgetfulStore) forget(g *store.Game) {
	if g != nil {
		f.games.drop(g.Channel)
	}
}

func (f forgetfulStore) Create(ctx context.Context, g *store.Game) error {
	f.forget(g)
	return f.Store.Create(ctx, g)
}

func (f forgetfulStore) Save(ctx context.Context, g *store.Game) error {
	f.forget(g)
	return f.Store.Save(ctx, g)
}

func (f forgetfulStore) Archive(ctx context.Context, g *store.Game) error {
	f.forget(g)
	return f.Store.Archive(ctx, g)
}

func (f forgetfulStore) Quarantine(ctx context.Context, channel string) (string, error) {
	f.games.drop(channel)
	return f.Store.Quarantine(ctx, channel)
}
