package redisstore_test

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"arbiter/store"
	"arbiter/store/redisstore"
	"arbiter/store/storetest"
)

// TestLosingSaveLeavesNoDeadline: saves that lose their compare-and-set
// (each from an older version of a game that moved on) add nothing to the
// deadline index and leave the live entry's time alone.
func TestLosingSaveLeavesNoDeadline(t *testing.T) {
	forEachRedis(t, func(t *testing.T, e *env) {
		ctx := storetest.Context(t)
		s := e.openRedis()
		g := storetest.NewGame(t, e.reg, "hique", "1", "1")
		g.Players[1] = store.Player{Kind: store.Human, UserID: "1002", Name: "Bea"}
		g.Deadline = time.Now().Add(time.Hour)
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		var stale []*store.Game
		for range 4 {
			old, err := s.Load(ctx, "1")
			if err != nil {
				t.Fatal(err)
			}
			stale = append(stale, old)
			storetest.PlayRandom(g, rng, "1001")
			g.Deadline = time.Now().Add(time.Hour)
			if err := s.Save(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		live, err := s.Raw().ZScore(ctx, redisstore.DeadlinesKey, "1/"+g.ID+"/5").Result()
		if err != nil {
			t.Fatalf("the live entry: %v", err)
		}
		for _, old := range stale {
			storetest.PlayRandom(old, rng, "1001")
			old.Deadline = time.Now().Add(time.Minute) // earlier than the live one
			storetest.MustErr(t, s.Save(ctx, old), store.ErrConflict, "a save from an old version")
		}
		members, err := s.Raw().ZRange(ctx, redisstore.DeadlinesKey, 0, -1).Result()
		if err != nil {
			t.Fatal(err)
		}
		if len(members) != 1 || members[0] != "1/"+g.ID+"/5" {
			t.Fatalf("the deadline index holds %v after 4 losing saves, want only the live entry", members)
		}
		if got, _ := s.Raw().ZScore(ctx, redisstore.DeadlinesKey, members[0]).Result(); got != live {
			t.Fatalf("losing saves moved the live entry from %v to %v", live, got)
		}
	})
}

// TestMoveAppends: a move appends one element to the channel's move list
// and rewrites a record that holds no moves (only the state's packed
// moves, a few bytes each); an undo trims the list; the game reads back whole.
func TestMoveAppends(t *testing.T) {
	forEachRedis(t, func(t *testing.T, e *env) {
		ctx := storetest.Context(t)
		s := e.openRedis()
		g := storetest.NewGame(t, e.reg, "sixes", "1", "1")
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(3, 4))
		var sizes []int
		for i := range 40 {
			g, err := s.Load(ctx, "1")
			if err != nil {
				t.Fatal(err)
			}
			if !storetest.PlayRandom(g, rng, "1001") || g.Status != store.Active {
				break
			}
			if err := s.Save(ctx, g); err != nil {
				t.Fatal(err)
			}
			n, err := s.Raw().LLen(ctx, redisstore.MovesKey("1")).Result()
			if err != nil || n != int64(i+1) {
				t.Fatalf("after move %d the move list has %d elements (%v)", i+1, n, err)
			}
			rec, err := s.Raw().HGet(ctx, redisstore.GameKey("1"), "record").Result()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(rec, `"moves"`) {
				t.Fatalf("the channel's record holds its moves: %.200s", rec)
			}
			sizes = append(sizes, len(rec))
		}
		// The state keeps its moves packed (a few bytes each, base64);
		// a move as listed is over 60 bytes.
		if len(sizes) < 20 || (sizes[len(sizes)-1]-sizes[0])/(len(sizes)-1) > 4 {
			t.Fatalf("record sizes over the game: %v; want at most 4 bytes more a move", sizes)
		}
		// An undo of two moves and a new move in one save.
		g, err := s.Load(ctx, "1")
		if err != nil {
			t.Fatal(err)
		}
		before := len(g.Moves)
		replayed, err := e.reg.Replay(g.Name, g.Options, moveTexts(g.Moves[:before-2]))
		if err != nil {
			t.Fatal(err)
		}
		g.State, g.Moves = replayed, g.Moves[:before-2]
		storetest.PlayRandom(g, rng, "1002")
		if err := s.Save(ctx, g); err != nil {
			t.Fatal(err)
		}
		got, err := s.Load(ctx, "1")
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Moves) != before-1 || got.Moves[before-2].By != "1002" {
			t.Fatalf("after an undo and a move: %d moves, the last by %q", len(got.Moves), got.Moves[len(got.Moves)-1].By)
		}
		storetest.CheckReplays(t, e.reg, got)
	})
}

func moveTexts(moves []store.Move) []string {
	var out []string
	for _, m := range moves {
		out = append(out, m.Text)
	}
	return out
}

// TestSchema1GameMigrates: a running game stored by schema 1 (its moves
// inside its record) loads, and its next save writes the move list and a
// schema 2 record without moves.
func TestSchema1GameMigrates(t *testing.T) {
	forEachRedis(t, func(t *testing.T, e *env) {
		ctx := storetest.Context(t)
		s := e.openRedis()
		g := storetest.NewGame(t, e.reg, "upthrust", "1", "1")
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(5, 6))
		for range 6 {
			storetest.PlayRandom(g, rng, "1001")
		}
		g.Version = 7
		data, err := store.EncodeRecord(g)
		if err != nil {
			t.Fatal(err)
		}
		var rec map[string]any
		if err := json.Unmarshal(data, &rec); err != nil {
			t.Fatal(err)
		}
		rec["schema"] = 1
		v1, _ := json.Marshal(rec)
		raw := s.Raw()
		if err := raw.HSet(ctx, redisstore.GameKey("1"), "version", "7", "record", v1).Err(); err != nil {
			t.Fatal(err)
		}
		if err := raw.Del(ctx, redisstore.MovesKey("1")).Err(); err != nil {
			t.Fatal(err)
		}
		got, err := s.Load(ctx, "1")
		if err != nil {
			t.Fatalf("load a schema 1 game: %v", err)
		}
		if len(got.Moves) != 6 {
			t.Fatalf("a schema 1 game loads with %d moves, want 6", len(got.Moves))
		}
		storetest.PlayRandom(got, rng, "1001")
		if err := s.Save(ctx, got); err != nil {
			t.Fatal(err)
		}
		if n, _ := raw.LLen(ctx, redisstore.MovesKey("1")).Result(); n != 7 {
			t.Fatalf("after the first save of a schema 1 game its move list has %d moves, want 7", n)
		}
		stored, _ := raw.HGet(ctx, redisstore.GameKey("1"), "record").Result()
		if !strings.Contains(stored, `"schema":2`) || strings.Contains(stored, `"moves"`) {
			t.Fatalf("after the first save the record is %.120s", stored)
		}
		again, err := s.Load(ctx, "1")
		if err != nil || len(again.Moves) != 7 {
			t.Fatalf("reload: %v, %v", again, err)
		}
		storetest.CheckReplays(t, e.reg, again)
	})
}

// TestShortMoveListIsDamage: a move list shorter than its record says is
// reported as damage, not played on.
func TestShortMoveListIsDamage(t *testing.T) {
	forEachRedis(t, func(t *testing.T, e *env) {
		ctx := storetest.Context(t)
		s := e.openRedis()
		g := storetest.NewGame(t, e.reg, "hiya", "1", "1")
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(7, 8))
		for range 3 {
			storetest.PlayRandom(g, rng, "1001")
			if err := s.Save(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Raw().RPop(ctx, redisstore.MovesKey("1")).Err(); err != nil {
			t.Fatal(err)
		}
		_, err := s.Load(ctx, "1")
		var dmg *store.DamagedError
		if !errors.As(err, &dmg) {
			t.Fatalf("load with a move missing: %v, want a DamagedError", err)
		}
		storetest.PlayRandom(g, rng, "1001")
		if err := s.Save(ctx, g); !errors.As(err, &dmg) {
			t.Fatalf("save over a short move list: %v, want a DamagedError", err)
		}
	})
}
