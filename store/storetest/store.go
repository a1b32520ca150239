package storetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"arbiter/rules"
	"arbiter/store"
)

func testCreateLoadSave(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	rng := rand.New(rand.NewPCG(1, 2))
	for i, name := range GameNames {
		ch := ChName(i)
		g := NewGame(t, e.reg, name, ch, "42")
		g.Deadline = time.Now().Add(time.Hour).UTC().Truncate(time.Millisecond)
		if err := s.Create(ctx, g); err != nil {
			t.Fatalf("create %s: %v", name, err)
		}
		if g.Version != 1 || g.ID == "" || g.Created.IsZero() {
			t.Fatalf("created game: version %d id %q created %v", g.Version, g.ID, g.Created)
		}
		for range 5 {
			if !PlayRandom(g, rng, "1001") || g.Status == store.Finished {
				break
			}
			if err := s.Save(ctx, g); err != nil {
				t.Fatalf("save %s: %v", name, err)
			}
		}
		got, err := s.Load(ctx, ch)
		if err != nil {
			t.Fatalf("load %s: %v", name, err)
		}
		if got.Version != g.Version || got.ID != g.ID || got.Name != name || got.Guild != "42" ||
			got.Players != g.Players || got.Status != store.Active || !got.Deadline.Equal(g.Deadline) ||
			len(got.Moves) != len(g.Moves) || got.Options.String() != g.Options.String() {
			t.Fatalf("loaded %+v\nsaved %+v", got, g)
		}
		if string(rules.Encode(got.State)) != string(rules.Encode(g.State)) {
			t.Fatalf("%s: loaded state differs from the saved one", name)
		}
		CheckReplays(t, e.reg, got)
		CheckEverySaveAMove(t, got)
	}
	// A second game in a busy channel.
	MustErr(t, s.Create(ctx, NewGame(t, e.reg, "sixes", ChName(0), "42")), store.ErrBusy, "create in a busy channel")
	// Nothing in an unknown channel.
	_, err := s.Load(ctx, "12345")
	MustErr(t, err, store.ErrNotFound, "load an empty channel")
	// Archive ids are unique within the guild.
	ids := map[string]bool{}
	for i := range GameNames {
		g, err := s.Load(ctx, ChName(i))
		if err != nil {
			t.Fatal(err)
		}
		if ids[g.ID] {
			t.Fatalf("archive id %s given twice", g.ID)
		}
		ids[g.ID] = true
	}
}

func testInvalidArguments(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	for _, ch := range []string{"", "{ch:1}", "a/b", "a b", strings.Repeat("9", 65)} {
		_, err := s.Load(ctx, ch)
		MustErr(t, err, store.ErrInvalid, "load channel "+ch)
		g := NewGame(t, e.reg, "sixes", ch, "1")
		MustErr(t, s.Create(ctx, g), store.ErrInvalid, "create in channel "+ch)
	}
	MustErr(t, s.Create(ctx, nil), store.ErrInvalid, "create nil")
	MustErr(t, s.Save(ctx, nil), store.ErrInvalid, "save nil")
	g := NewGame(t, e.reg, "sixes", "1", "1")
	g.State = nil
	MustErr(t, s.Create(ctx, g), store.ErrInvalid, "create without a state")
	g = NewGame(t, e.reg, "sixes", "1", "1")
	MustErr(t, s.Save(ctx, g), store.ErrInvalid, "save a game never created")
	g.Moves = append(g.Moves, store.Move{Text: "x"})
	MustErr(t, s.Create(ctx, g), store.ErrInvalid, "create with a move list longer than the state")
	g = NewGame(t, e.reg, "sixes", "1", "1")
	g.Status = store.Finished
	MustErr(t, s.Create(ctx, g), store.ErrInvalid, "create a finished game")
}

func testConflict(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	rng := rand.New(rand.NewPCG(3, 4))
	g := NewGame(t, e.reg, "upthrust", "7", "1")
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	a, _ := s.Load(ctx, "7")
	b, _ := s.Load(ctx, "7")
	PlayRandom(a, rng, "1001")
	PlayRandom(b, rng, "1001")
	if err := s.Save(ctx, a); err != nil {
		t.Fatalf("first save: %v", err)
	}
	MustErr(t, s.Save(ctx, b), store.ErrConflict, "second save from the same version")
	got, _ := s.Load(ctx, "7")
	if got.Version != 2 || len(got.Moves) != 1 || got.Moves[0] != a.Moves[0] {
		t.Fatalf("stored version %d moves %v, want the first save's", got.Version, got.Moves)
	}
}

func testArchive(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	rng := rand.New(rand.NewPCG(5, 6))
	var finished []*store.Game
	for i := range 3 {
		g := NewGame(t, e.reg, "sixes", "55", "9")
		if err := s.Create(ctx, g); err != nil {
			t.Fatalf("create game %d: %v", i, err)
		}
		for j := 0; j < 3 && g.Status == store.Active; j++ {
			PlayRandom(g, rng, "1001")
			if err := s.Save(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		if g.Status == store.Active { // resign
			g.Status, g.Result, g.Reason = store.Finished, rules.P2Wins, "X resigned"
			if err := s.Save(ctx, g); err != nil {
				t.Fatalf("save finished: %v", err)
			}
		}
		if g.Finished.IsZero() {
			t.Fatal("a finished game has no finish time")
		}
		// The channel is free again.
		_, err := s.Load(ctx, "55")
		MustErr(t, err, store.ErrNotFound, "load a channel whose game finished")
		finished = append(finished, g)
		// A finished game cannot be saved again, nor can a stale copy.
		g2 := *g
		MustErr(t, s.Save(ctx, &g2), store.ErrConflict, "save an archived game")
		// Archiving again is harmless.
		if err := s.Archive(ctx, g); err != nil {
			t.Fatalf("archive again: %v", err)
		}
	}
	list, total, err := s.Archived(ctx, "9", 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if total != 3 || len(list) != 3 {
		t.Fatalf("archive lists %d of %d games, want 3", len(list), total)
	}
	for i, sum := range list { // newest first
		want := finished[len(finished)-1-i]
		if sum.ID != want.ID || sum.Moves != len(want.Moves) || sum.Result != want.Result || sum.Channel != "55" {
			t.Fatalf("listing %d is %+v, want game %s", i, sum, want.ID)
		}
		got, err := s.LoadArchived(ctx, "9", sum.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != store.Finished || got.Reason != want.Reason || len(got.Moves) != len(want.Moves) {
			t.Fatalf("archived game %s is %+v", sum.ID, got)
		}
		CheckReplays(t, e.reg, got)
	}
	page, _, err := s.Archived(ctx, "9", 1, 1)
	if err != nil || len(page) != 1 || page[0].ID != list[1].ID {
		t.Fatalf("second page: %v %v", page, err)
	}
	_, err = s.LoadArchived(ctx, "9", "999")
	MustErr(t, err, store.ErrNotFound, "load an unknown archived game")
	_, err = s.LoadArchived(ctx, "10", finished[0].ID)
	MustErr(t, err, store.ErrNotFound, "load an archived game of another guild")
}

// testInterruptedArchive: a finished game left in its channel (the process
// died between saving it and archiving it) is archived by the next Create
// there.
func testInterruptedArchive(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	g := NewGame(t, e.reg, "hiya", "66", "9")
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	// Write the finished record by hand, as Save does before archiving.
	g.Status, g.Result, g.Reason = store.Finished, rules.Draw, "agreed"
	g.Version++
	g.Finished = time.Now().UTC()
	data, err := store.EncodeRecord(g)
	if err != nil {
		t.Fatal(err)
	}
	e.putRecord(s, "66", "2", "finished", data)
	left, err := s.Load(ctx, "66")
	if err != nil || left.Status != store.Finished {
		t.Fatalf("load the finished game left behind: %v %v", left, err)
	}
	next := NewGame(t, e.reg, "hiya", "66", "9")
	if err := s.Create(ctx, next); err != nil {
		t.Fatalf("create over a finished game: %v", err)
	}
	if _, err := s.LoadArchived(ctx, "9", g.ID); err != nil {
		t.Fatalf("the game left behind was not archived: %v", err)
	}
}

func testDeadlines(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	rng := rand.New(rand.NewPCG(7, 8))
	t0 := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	a := NewGame(t, e.reg, "hique", "1", "5")
	a.RemindAt, a.Deadline = t0.Add(30*time.Second), t0.Add(time.Minute)
	b := NewGame(t, e.reg, "sixes", "2", "5")
	b.Deadline = t0.Add(2 * time.Minute)
	c := NewGame(t, e.reg, "hiya", "3", "5") // no deadline
	for _, g := range []*store.Game{a, b, c} {
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	due := func(at time.Duration) []string {
		t.Helper()
		games, err := s.Due(ctx, t0.Add(at), 0)
		if err != nil {
			t.Fatal(err)
		}
		var chans []string
		for _, g := range games {
			chans = append(chans, g.Channel)
		}
		return chans
	}
	eq := func(got []string, want ...string) {
		t.Helper()
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("due: got %v, want %v", got, want)
		}
	}
	eq(due(0))
	eq(due(31*time.Second), "1")
	eq(due(31*time.Second), "1") // still due: nothing acted
	// The clock sends the reminder and clears it.
	a.RemindAt = time.Time{}
	if err := s.Save(ctx, a); err != nil {
		t.Fatal(err)
	}
	eq(due(31 * time.Second))
	eq(due(61*time.Second), "1")
	eq(due(3*time.Minute), "1", "2")
	// A move sets a new deadline; the old entries go stale.
	PlayRandom(a, rng, "1001")
	a.Deadline = t0.Add(10 * time.Minute)
	if err := s.Save(ctx, a); err != nil {
		t.Fatal(err)
	}
	eq(due(3*time.Minute), "2")
	// b finishes: nothing of it stays due.
	b.Status, b.Result, b.Reason = store.Finished, rules.P1Wins, "O timed out"
	if err := s.Save(ctx, b); err != nil {
		t.Fatal(err)
	}
	eq(due(3 * time.Minute))
	eq(due(11*time.Minute), "1")
	// After the tidying, the index holds only the live entry of a.
	if chans := e.deadlineChannels(s); len(chans) != 1 || chans[0] != "1" {
		t.Fatalf("the deadline index holds entries of %v after tidying", chans)
	}
}

func testDamagedRecords(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	good := NewGame(t, e.reg, "sixes", "100", "1")
	if err := s.Create(ctx, good); err != nil {
		t.Fatal(err)
	}
	for i, name := range GameNames {
		if err := s.Create(ctx, NewGame(t, e.reg, name, ChName(i), "1")); err != nil {
			t.Fatal(err)
		}
	}
	// 0: not JSON. 1: a schema from the future. 2: a state that does
	// not decode. 3: not a record at all.
	e.putRecord(s, ChName(0), "1", "active", []byte("{not json"))
	rec := e.record(s, ChName(1))
	e.putRecord(s, ChName(1), "1", "active", []byte(strings.Replace(rec, fmt.Sprintf(`"schema":%d`, store.SchemaVersion), `"schema":7`, 1)))
	rec = e.record(s, ChName(2))
	i := strings.Index(rec, `"state":"`) + len(`"state":"`)
	e.putRecord(s, ChName(2), "1", "active", []byte(rec[:i]+"QUJD"+rec[strings.IndexByte(rec[i:], '"')+i:]))
	e.putNotAGame(s, ChName(3))

	for i := range GameNames {
		_, err := s.Load(ctx, ChName(i))
		var dmg *store.DamagedError
		if !errors.As(err, &dmg) || dmg.Channel != ChName(i) || !strings.Contains(err.Error(), ChName(i)) {
			t.Fatalf("load damaged record %d: got %v, want a DamagedError naming channel %s", i, err, ChName(i))
		}
		if (i == 1) != errors.Is(err, store.ErrUnknownSchema) {
			t.Fatalf("load damaged record %d: %v (unknown schema: %v)", i, err, errors.Is(err, store.ErrUnknownSchema))
		}
	}
	// The other game keeps working.
	got, err := s.Load(ctx, "100")
	if err != nil {
		t.Fatalf("load a good game next to damaged ones: %v", err)
	}
	PlayRandom(got, rand.New(rand.NewPCG(1, 1)), "1001")
	if err := s.Save(ctx, got); err != nil {
		t.Fatalf("save a good game next to damaged ones: %v", err)
	}
	// A damaged channel is busy until its record is moved aside.
	var dmg *store.DamagedError
	if err := s.Create(ctx, NewGame(t, e.reg, "sixes", ChName(3), "1")); !errors.As(err, &dmg) {
		t.Fatalf("create over a damaged record: %v", err)
	}
	for i := range GameNames {
		to, err := s.Quarantine(ctx, ChName(i))
		if err != nil || !strings.Contains(to, ChName(i)) {
			t.Fatalf("quarantine %d: %q %v", i, to, err)
		}
		if err := s.Create(ctx, NewGame(t, e.reg, "sixes", ChName(i), "1")); err != nil {
			t.Fatalf("create after quarantine: %v", err)
		}
	}
	_, err = s.Quarantine(ctx, "424242")
	MustErr(t, err, store.ErrNotFound, "quarantine an empty channel")
}

func testLock(t *testing.T, e *env) {
	t.Parallel()
	ctx := Context(t)
	s := e.open()
	l1, err := s.TryLock(ctx, "clock", 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.TryLock(ctx, "clock", time.Second)
	MustErr(t, err, store.ErrLocked, "second lock")
	if err := l1.Renew(ctx); err != nil {
		t.Fatalf("renew: %v", err)
	}
	// Let it expire by the clock (the embedded backend too).
	var l2 store.Lock
	for start := time.Now(); time.Since(start) < HangBound; time.Sleep(50 * time.Millisecond) {
		if l2, err = s.TryLock(ctx, "clock", time.Minute); err == nil {
			break
		}
	}
	if l2 == nil {
		t.Fatalf("the lock never expired: %v", err)
	}
	MustErr(t, l1.Renew(ctx), store.ErrLockLost, "renew a lost lock")
	MustErr(t, l1.Release(ctx), store.ErrLockLost, "release a lost lock")
	_, err = s.TryLock(ctx, "clock", time.Second)
	MustErr(t, err, store.ErrLocked, "lock held by the second holder")
	if err := l2.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.TryLock(ctx, "clock", time.Second); err != nil {
		t.Fatalf("lock after release: %v", err)
	}
}

func testRatings(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	players := []string{"1001", "1002"}
	cur, err := s.Ratings(ctx, "5", "hique", players...)
	if err != nil || len(cur) != 2 || cur[0].Player != "1001" || cur[0].Games != 0 {
		t.Fatalf("ratings of new players: %+v %v", cur, err)
	}
	win := func(winner int) func([]store.Rating) ([]store.Rating, error) {
		return func(cur []store.Rating) ([]store.Rating, error) {
			next := append([]store.Rating(nil), cur...)
			for i := range next {
				if next[i].Games == 0 {
					next[i].Rating, next[i].Deviation, next[i].Volatility = 1500, 350, 0.06
				}
				next[i].Games++
				if i == winner {
					next[i].Wins++
					next[i].Rating += 10
				} else {
					next[i].Losses++
					next[i].Rating -= 10
				}
			}
			return next, nil
		}
	}
	ok, err := s.UpdateRatings(ctx, "5", "hique", "1", players, win(0))
	if err != nil || !ok {
		t.Fatalf("first update: %v %v", ok, err)
	}
	ok, err = s.UpdateRatings(ctx, "5", "hique", "1", players, win(0))
	if err != nil || ok {
		t.Fatalf("the same result again: applied %v, %v", ok, err)
	}
	// Results racing for the same players: each applies once.
	const n = 20
	errs := make(chan error, n)
	for i := range n {
		go func() {
			_, err := s.UpdateRatings(ctx, "5", "hique", ChName(i), players, win(1))
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatalf("racing update: %v", err)
		}
	}
	cur, err = s.Ratings(ctx, "5", "hique", players...)
	if err != nil {
		t.Fatal(err)
	}
	if cur[0].Games != n+1 || cur[0].Wins != 1 || cur[0].Losses != n || cur[1].Wins != n || cur[1].Rating != 1500-10+10*n {
		t.Fatalf("after %d racing results: %+v", n, cur)
	}
	board, err := s.Leaderboard(ctx, "5", "hique", 0, 10)
	if err != nil || len(board) != 2 || board[0].Player != "1002" || board[1].Player != "1001" {
		t.Fatalf("leaderboard: %+v %v", board, err)
	}
	if other, err := s.Leaderboard(ctx, "5", "sixes", 0, 10); err != nil || len(other) != 0 {
		t.Fatalf("leaderboard of another game: %+v %v", other, err)
	}
	boom := errors.New("boom")
	_, err = s.UpdateRatings(ctx, "5", "hique", "x", players, func([]store.Rating) ([]store.Rating, error) { return nil, boom })
	MustErr(t, err, boom, "update that fails")
	_, err = s.UpdateRatings(ctx, "5", "hique", "y", players, func([]store.Rating) ([]store.Rating, error) { return nil, nil })
	MustErr(t, err, store.ErrInvalid, "update that returns no ratings")
}

// testClosed: a closed store answers ErrUnavailable, never panics.
func testClosed(t *testing.T, e *env) {
	s := e.open()
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, err := s.Load(context.Background(), "1")
	MustErr(t, err, store.ErrUnavailable, "load from a closed store")
}

// testRunning: the guild's running games are listed, and a game leaves
// the list when it finishes.
func testRunning(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	for _, c := range []struct{ channel, guild string }{{"11", "7"}, {"12", "7"}, {"13", "8"}} {
		if err := s.Create(ctx, NewGame(t, e.reg, "sixes", c.channel, c.guild)); err != nil {
			t.Fatal(err)
		}
	}
	running, err := s.Running(ctx, "7")
	if err != nil || len(running) != 2 || running[0].Channel != "11" || running[1].Channel != "12" {
		t.Fatalf("running in guild 7: %v, %v", running, err)
	}
	g := running[0]
	g.Status, g.Result, g.Reason = store.Finished, rules.P1Wins, "resigned"
	if err := s.Save(ctx, g); err != nil {
		t.Fatal(err)
	}
	running, err = s.Running(ctx, "7")
	if err != nil || len(running) != 1 || running[0].Channel != "12" {
		t.Fatalf("running after one finished: %v, %v", running, err)
	}
	if running, err := s.Running(ctx, "8"); err != nil || len(running) != 1 {
		t.Fatalf("running in guild 8: %v, %v", running, err)
	}
}

// testChannelSettings: a channel's settings are kept apart from its games.
func testChannelSettings(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	if v, err := s.ChannelSetting(ctx, "5", "board"); err != nil || v != "" {
		t.Fatalf("unset setting: %q, %v", v, err)
	}
	if err := s.SetChannelSetting(ctx, "5", "board", "emoji"); err != nil {
		t.Fatal(err)
	}
	if v, err := s.ChannelSetting(ctx, "5", "board"); err != nil || v != "emoji" {
		t.Fatalf("setting: %q, %v", v, err)
	}
	if v, _ := s.ChannelSetting(ctx, "6", "board"); v != "" {
		t.Fatalf("another channel sees %q", v)
	}
	if err := s.SetChannelSetting(ctx, "5", "board", ""); err != nil {
		t.Fatal(err)
	}
	if v, err := s.ChannelSetting(ctx, "5", "board"); err != nil || v != "" {
		t.Fatalf("removed setting: %q, %v", v, err)
	}
	if _, err := s.ChannelSetting(ctx, "", "board"); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("empty channel: %v", err)
	}
}

// testDueSkipsDamaged: a damaged game in the deadline index is left out of
// Due (and looked at again an hour later), and the other due games are
// returned.
func testDueSkipsDamaged(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	t0 := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	for i := range 2 {
		g := NewGame(t, e.reg, "sixes", ChName(i), "1")
		g.Deadline = t0.Add(time.Duration(i) * time.Second)
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	e.putRecord(s, ChName(0), "1", "active", []byte("{not json"))
	due, err := s.Due(ctx, t0.Add(time.Minute), 0)
	if err != nil || len(due) != 1 || due[0].Channel != ChName(1) {
		t.Fatalf("due next to a damaged game: %v, %v", due, err)
	}
	due, err = s.Due(ctx, t0.Add(2*time.Hour), 0)
	if err != nil || len(due) != 1 || due[0].Channel != ChName(1) {
		t.Fatalf("due two hours on: %v, %v", due, err)
	}
}

// testFlowIsTheCallersBytes: the store keeps the game flow's state as the
// caller's bytes, unread, on every backend: a field it has never heard of
// comes back as it went in, and bytes that are not JSON are refused.
func testFlowIsTheCallersBytes(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	g := NewGame(t, e.reg, "sixes", "1", "1")
	const flow = `{"v":9,"a_field_of_tomorrow":[1,2,{"x":"y"}]}`
	g.Flow = store.RawFlow(flow)
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	back, err := s.Load(ctx, "1")
	if err != nil {
		t.Fatal(err)
	}
	got, err := back.Flow.FlowBytes()
	if err != nil || string(got) != flow {
		t.Fatalf("flow came back as %q (%v), want %q", got, err, flow)
	}
	bad := NewGame(t, e.reg, "sixes", "2", "1")
	bad.Flow = store.RawFlow(`{not json`)
	MustErr(t, s.Create(ctx, bad), store.ErrInvalid, "create with a flow that is not JSON")
}
