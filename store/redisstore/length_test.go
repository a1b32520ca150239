package redisstore_test

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/redisstore"
	"arbiter/store/redistest"
	"arbiter/store/storetest"
)

// TestSaveCostDoesNotGrowWithLength: saving one more move into a game
// kept from its last save (as the game flow keeps it between moves)
// allocates about as much at move 140 as at move 10: the move is
// appended, and the store's note of what the move list holds grows in
// place rather than being copied whole (about 70 bytes a move). What
// still grows is the state in the record: its packed history, a few
// bytes a move.
func TestSaveCostDoesNotGrowWithLength(t *testing.T) {
	const early, late, n = 10, 140, 20
	reg := games.Registry()
	line := longLine(t, reg, "hique", late+n)
	srv := redistest.Start(t, redistest.Options{})
	ctx := storetest.Context(t)
	s, err := redisstore.Open(ctx, store.Config{RedisURL: srv.URL(), Registry: reg, Logger: storetest.QuietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	g := storetest.NewGame(t, reg, "hique", "len", "1")
	g.Moves = make([]store.Move, 0, late+n) // the caller's own appends are not the store's cost
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	play := func(i int) {
		m, err := g.State.ParseMove(line[i].Text)
		if err != nil {
			t.Fatal(err)
		}
		g.State.Play(m)
		g.Moves = append(g.Moves, line[i])
		if err := s.Save(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	perSave := func(from int) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for i := from; i < from+n; i++ {
			play(i)
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / n
	}
	for i := range early {
		play(i)
	}
	first := perSave(early)
	for i := early + n; i < late; i++ {
		play(i)
	}
	last := perSave(late)
	t.Logf("bytes allocated a save: %d at move %d, %d at move %d", first, early, last, late)
	if grow := (int(last) - int(first)) / (late - early); grow > 32 {
		t.Errorf("a save allocates %d bytes at move %d and %d at move %d: %d bytes more for every move of the game", first, early, last, late, grow)
	}
}

// longLine returns the moves of a random game of name that lasts at least
// plies moves.
func longLine(t *testing.T, reg *rules.Registry, name string, plies int) []store.Move {
	t.Helper()
	for seed := uint64(1); seed < 500; seed++ {
		g := storetest.NewGame(t, reg, name, "line", "1")
		rng := rand.New(rand.NewPCG(seed, 1))
		for len(g.Moves) < plies && g.Status == store.Active && storetest.PlayRandom(g, rng, "1001") {
		}
		if len(g.Moves) >= plies && g.Status == store.Active {
			return g.Moves
		}
	}
	t.Skipf("no random %s game of 500 seeds lasts %d moves", name, plies)
	return nil
}
