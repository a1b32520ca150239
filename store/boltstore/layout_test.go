package boltstore_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/boltstore"
	"arbiter/store/storetest"
)

// TestEmbeddedMigratesLayout1: a database of layout 1 (every running
// game's moves inline in its record) is moved to layout 2 when opened:
// each game loads as it was, its head no longer holds its moves, its moves
// are keys of the moves bucket, a damaged record stays damaged, and the
// games play on.
func TestEmbeddedMigratesLayout1(t *testing.T) {
	ctx := storetest.Context(t)
	reg := games.Registry()
	cfg := store.Config{DataDir: t.TempDir(), Registry: reg, Logger: storetest.QuietLogger()}
	s, err := boltstore.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	want := map[string]*store.Game{}
	records := map[string][]byte{"bad": []byte("{not json")}
	moves := 0
	for i, name := range storetest.GameNames {
		g := storetest.NewGame(t, reg, name, storetest.ChName(i), "1")
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		for range 6 {
			if !storetest.PlayRandom(g, rng, "1001") || g.Status == store.Finished {
				t.Fatalf("%s ended early", name)
			}
			if err := s.Save(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		moves += len(g.Moves)
		want[g.Channel] = g
		if records[g.Channel], err = store.EncodeRecord(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.MakeLayout1(records); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}

	s, err = boltstore.Open(ctx, cfg)
	if err != nil {
		t.Fatalf("open a database of layout 1: %v", err)
	}
	defer s.Close(ctx)
	b := s
	if f, err := b.RawGet([]string{"meta"}, "format"); err != nil || string(f) != "2" {
		t.Fatalf("layout after opening: %q %v, want 2", f, err)
	}
	if n, err := b.RawCount([]string{"moves"}); err != nil || n != moves {
		t.Fatalf("the moves bucket holds %d keys (%v), want %d", n, err, moves)
	}
	for ch, w := range want {
		if head, _ := b.RawGet([]string{"games"}, ch); strings.Contains(string(head), `"moves"`) {
			t.Fatalf("the head of channel %s still holds its moves: %s", ch, head)
		}
		g, err := s.Load(ctx, ch)
		if err != nil {
			t.Fatalf("load %s after the migration: %v", ch, err)
		}
		if g.Version != w.Version || len(g.Moves) != len(w.Moves) || g.Moves[3].Text != w.Moves[3].Text {
			t.Fatalf("game %s after the migration: version %d, %d moves; want %d, %d", ch, g.Version, len(g.Moves), w.Version, len(w.Moves))
		}
		storetest.CheckReplays(t, reg, g)
		if storetest.PlayRandom(g, rng, "1001") {
			if err := s.Save(ctx, g); err != nil {
				t.Fatalf("save %s after the migration: %v", ch, err)
			}
		}
	}
	if _, err := s.Load(ctx, "bad"); !errors.As(err, new(*store.DamagedError)) {
		t.Fatalf("the damaged record after the migration: %v", err)
	}
}

// TestEmbeddedSaveWritesWhatChanged: saving one more move writes the
// game's head and that move, not the whole game: the page bytes a save
// writes late in a long game are no more than early on (with a whole
// record rewritten, they grow with every move: 12 kB at move 20, 28 kB at
// move 240 when this test was written).
func TestEmbeddedSaveWritesWhatChanged(t *testing.T) {
	ctx := storetest.Context(t)
	s, reg := openBolt(t)
	// A game of hique that runs to 240 moves without ending: the first
	// seed that plays one.
	var (
		g   *store.Game
		rng *rand.Rand
	)
	for seed := uint64(0); g == nil && seed < 100; seed++ {
		try := storetest.NewGame(t, reg, "hique", "long", "1")
		rng = rand.New(rand.NewPCG(1, seed))
		for len(try.Moves) < 240 && storetest.PlayRandom(try, rng, "1001") && try.Status == store.Active {
		}
		if len(try.Moves) == 240 && try.Status == store.Active {
			g, rng = storetest.NewGame(t, reg, "hique", "long", "1"), rand.New(rand.NewPCG(1, seed))
		}
	}
	if g == nil {
		t.Fatal("no game of hique of 240 moves in 100 seeds")
	}
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	perSave := func(saves int) int64 {
		before := s.PageBytesWritten()
		for range saves {
			storetest.PlayRandom(g, rng, "1001")
			if err := s.Save(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		return (s.PageBytesWritten() - before) / int64(saves)
	}
	perSave(10)
	early := perSave(10)
	perSave(200)
	late := perSave(20)
	if late > early+8192 {
		t.Fatalf("a save writes %d bytes of pages at move %d and %d at move 20: its cost grows with the game", late, len(g.Moves), early)
	}
	if got, err := s.Load(ctx, "long"); err != nil || len(got.Moves) != 240 {
		t.Fatalf("the long game: %v", err)
	} else {
		storetest.CheckReplays(t, reg, got)
	}
}

// TestEmbeddedMoveListFollowsTheGame: a game's move list goes where the
// game goes: a takeback trims it, archiving a finished game removes it
// (the archive keeps the moves inline), Quarantine keeps it beside the
// damaged head, one move a line, and frees the channel of it, and a
// record put over the game replaces it.
func TestEmbeddedMoveListFollowsTheGame(t *testing.T) {
	ctx := storetest.Context(t)
	s, reg := openBolt(t)
	rng := rand.New(rand.NewPCG(3, 3))
	keysOf := func(channel string) int {
		t.Helper()
		keys, err := s.RawKeys([]string{"moves"})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, k := range keys {
			if strings.HasPrefix(k, channel+"\x00") {
				n++
			}
		}
		return n
	}
	play := func(g *store.Game, n int) {
		t.Helper()
		for range n {
			if !storetest.PlayRandom(g, rng, "1001") || g.Status != store.Active {
				t.Fatal("the game ended early")
			}
			if err := s.Save(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
	}

	g := storetest.NewGame(t, reg, "sixes", "a", "1")
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	play(g, 6)
	// A takeback of two moves: the state replayed without them.
	back, err := reg.New(g.Name, g.Options)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range g.Moves[:4] {
		mv, err := back.ParseMove(m.Text)
		if err != nil {
			t.Fatal(err)
		}
		back.Play(mv)
	}
	g.Moves, g.State = g.Moves[:4], back
	if err := s.Save(ctx, g); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Load(ctx, "a"); err != nil || len(got.Moves) != 4 || keysOf("a") != 4 {
		t.Fatalf("after a takeback: %v, %d keys; want 4 moves", err, keysOf("a"))
	}
	play(g, 1)
	g.Status, g.Result, g.Reason = store.Finished, rules.Draw, "agreed"
	if err := s.Save(ctx, g); err != nil {
		t.Fatal(err)
	}
	if n := keysOf("a"); n != 0 {
		t.Fatalf("%d moves of the archived game left in the moves bucket", n)
	}
	if got, err := s.LoadArchived(ctx, "1", g.ID); err != nil || len(got.Moves) != 5 {
		t.Fatalf("the archived game: %v", err)
	}

	d := storetest.NewGame(t, reg, "sixes", "d", "1")
	if err := s.Create(ctx, d); err != nil {
		t.Fatal(err)
	}
	play(d, 3)
	if err := s.RawPut([]string{"games"}, "d", []byte("{not json")); err != nil {
		t.Fatal(err)
	}
	where, err := s.Quarantine(ctx, "d")
	if err != nil {
		t.Fatal(err)
	}
	kept, err := s.RawGet([]string{"damaged"}, strings.TrimPrefix(where, "damaged/")+"/moves")
	if err != nil || strings.Count(string(kept), "\n") != 2 || !strings.Contains(string(kept), d.Moves[2].Text) {
		t.Fatalf("the quarantined game's moves: %q %v", kept, err)
	}
	if n := keysOf("d"); n != 0 {
		t.Fatalf("%d moves of the quarantined game left in the moves bucket", n)
	}
	fresh := storetest.NewGame(t, reg, "sixes", "d", "1")
	if err := s.Create(ctx, fresh); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Load(ctx, "d"); err != nil || len(got.Moves) != 0 {
		t.Fatalf("the new game in the quarantined channel: %v", err)
	}
	// An imported record without moves, over a channel whose game has
	// some, leaves none of them behind.
	play(fresh, 2)
	imported := storetest.NewGame(t, reg, "sixes", "d", "1")
	imported.ID, imported.Version = "77", 1
	rec, err := store.EncodeRecord(imported)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, []store.Item{{Type: "game", Channel: "d", Record: rec}}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Load(ctx, "d"); err != nil || len(got.Moves) != 0 {
		t.Fatalf("the imported game without moves: %v", err)
	}
}

// TestEmbeddedWritesGoOnDuringALongRead: while a long read transaction
// (a backup, an export) is open, writes that grow the database file go
// on and are committed; bbolt would otherwise map the grown file again,
// which waits for every reader to end.
func TestEmbeddedWritesGoOnDuringALongRead(t *testing.T) {
	ctx := storetest.Context(t)
	s, reg := openBolt(t)
	if err := s.Create(ctx, storetest.NewGame(t, reg, "sixes", "r", "1")); err != nil {
		t.Fatal(err)
	}
	reading, release := make(chan struct{}), make(chan struct{})
	readDone := make(chan error, 1)
	go func() {
		first := true
		readDone <- s.Walk(ctx, func(store.Item) error {
			if first {
				first = false
				close(reading)
				<-release
			}
			return nil
		})
	}()
	<-reading
	written := make(chan error, 1)
	go func() { // about 8 MB of archived games, in batches
		rec, err := store.EncodeRecord(finished(t, reg))
		if err != nil {
			written <- err
			return
		}
		for batch := range 40 {
			items := make([]store.Item, 0, 100)
			for i := range 100 {
				items = append(items, store.Item{Type: "archived", Guild: "1", ID: strconv.Itoa(1000 + batch*100 + i), Record: rec})
			}
			if err := s.Put(ctx, items); err != nil {
				written <- err
				return
			}
		}
		written <- nil
	}()
	select {
	case err := <-written:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(storetest.HangBound):
		t.Error("the writes did not get through while a read transaction was open")
	}
	close(release)
	if err := <-readDone; err != nil {
		t.Fatal(err)
	}
}

// finished returns a finished game of hique of 40 moves.
func finished(t *testing.T, reg *rules.Registry) *store.Game {
	g := storetest.NewGame(t, reg, "hique", "f", "1")
	rng := rand.New(rand.NewPCG(5, 5))
	for len(g.Moves) < 40 && storetest.PlayRandom(g, rng, "1001") && g.Status == store.Active {
	}
	g.ID, g.Version, g.Status, g.Result, g.Reason = "1", int64(len(g.Moves)+1), store.Finished, rules.Draw, "agreed"
	g.Created, g.Updated, g.Finished = time.Now(), time.Now(), time.Now()
	return g
}

// TestEmbeddedLoadDecodesOnlyNewMoves: loading a game again decodes only
// the moves it has not seen (the rest come from the store's memo of
// decoded moves), so a Load's allocations, and the garbage they make,
// grow by about one a move (the state's), not eight (72 allocations at 10
// moves and 156 at 90 with the memo, 142 and 786 without, when written).
func TestEmbeddedLoadDecodesOnlyNewMoves(t *testing.T) {
	ctx := storetest.Context(t)
	s, reg := openBolt(t)
	g := storetest.NewGame(t, reg, "hique", "m", "1")
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 0))
	allocsAt := func(moves int) float64 {
		t.Helper()
		for len(g.Moves) < moves {
			if !storetest.PlayRandom(g, rng, "1001") || g.Status != store.Active {
				t.Fatal("the game ended early")
			}
			if err := s.Save(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		return testing.AllocsPerRun(20, func() {
			if _, err := s.Load(ctx, "m"); err != nil {
				t.Fatal(err)
			}
		})
	}
	few, many := allocsAt(10), allocsAt(90)
	if many-few > 2*80 { // the state's decoding allocates about one a move
		t.Fatalf("a Load allocates %.0f times at 10 moves and %.0f at 90: it decodes every move again", few, many)
	}
}

// openBolt opens an embedded store in a new directory, closed at the
// end of the test.
func openBolt(t *testing.T) (*boltstore.Bolt, *rules.Registry) {
	t.Helper()
	reg := games.Registry()
	s, err := boltstore.Open(storetest.Context(t), store.Config{DataDir: t.TempDir(), Registry: reg, Logger: storetest.QuietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	return s, reg
}
