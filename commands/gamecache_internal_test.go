package commands

import (
	"strconv"
	"testing"

	"arbiter/store"
)

// The cache holds at most its size, dropping the game used least
// recently; it never replaces a game with an older version of it, keeps no
// finished game, and hands each game to one taker.
func TestGameCacheBounds(t *testing.T) {
	c := newGameCache(3)
	game := func(ch string, version int64) *store.Game {
		return &store.Game{Channel: ch, ID: "1", Version: version, Status: store.Active}
	}
	for i := range 5 {
		c.put(game("c"+strconv.Itoa(i), 1))
	}
	if n := c.len(); n != 3 {
		t.Fatalf("%d games kept, want 3", n)
	}
	if c.take("c0") != nil || c.take("c1") != nil {
		t.Error("the games put first are still kept")
	}
	c.put(game("c2", 2)) // c2 is now the most recent: c3 goes next
	c.put(game("c5", 1))
	if c.take("c3") != nil || c.take("c2") == nil {
		t.Error("the least recently put game was not the one dropped")
	}
	if c.take("c2") != nil {
		t.Error("a game was handed out twice")
	}
	c.put(game("v", 5))
	c.put(game("v", 4))
	if g := c.take("v"); g == nil || g.Version != 5 {
		t.Errorf("an older version replaced a newer one: %+v", g)
	}
	done := game("f", 2)
	done.Status = store.Finished
	c.put(done)
	if c.take("f") != nil {
		t.Error("a finished game was kept")
	}
	c.put(game("d", 1))
	c.drop("d")
	if c.take("d") != nil {
		t.Error("a dropped game is still kept")
	}
	off := newGameCache(-1)
	off.put(game("x", 1))
	if off.take("x") != nil {
		t.Error("a cache of size -1 kept a game")
	}
}

// A channel's game taken for a move and put back after it fills the
// channel's entry again, without allocating; a taken or dropped game is
// not counted as kept.
func TestGameCacheRefill(t *testing.T) {
	c := newGameCache(2)
	g := &store.Game{Channel: "c", ID: "1", Version: 1, Status: store.Active}
	c.put(g)
	if c.take("c") != g || c.len() != 0 {
		t.Fatalf("after the take, %d games kept", c.len())
	}
	allocs := testing.AllocsPerRun(100, func() {
		c.put(g)
		if c.take("c") != g {
			t.Fatal("the game put back was not taken")
		}
	})
	if allocs != 0 {
		t.Errorf("a move's take and put allocate %.1f times", allocs)
	}
	c.put(g)
	c.drop("c")
	if c.len() != 0 || c.take("c") != nil {
		t.Errorf("a dropped game is kept (%d kept)", c.len())
	}
	c.put(g)
	c.put(&store.Game{Channel: "d", ID: "1", Version: 1, Status: store.Active})
	c.put(&store.Game{Channel: "e", ID: "1", Version: 1, Status: store.Active})
	if c.len() != 2 || c.take("c") != nil {
		t.Errorf("%d kept after a third channel; the least recent one should have gone", c.len())
	}
}
