package boltstore

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"testing"

	bolt "go.etcd.io/bbolt"

	"arbiter/store"
	"arbiter/store/storetest"
)

// TestSaveComparesTheStoredHead: a save's compare-and-set goes by the head
// stored, byte for byte, not by what the store last wrote there: a head
// changed behind it (one version on, or damaged) is ErrConflict or a
// *DamagedError, and nothing is written.
func TestSaveComparesTheStoredHead(t *testing.T) {
	ctx := context.Background()
	s, gs := groupFixture(t, 1)
	g := gs[0]
	if err := s.Save(ctx, g); err != nil {
		t.Fatal(err)
	}
	storetest.PlayRandom(g, rand.New(rand.NewPCG(5, 5)), "1002")

	ahead := *g
	ahead.Version++
	head, err := store.EncodeHead(&ahead)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RawPut([]string{"games"}, g.Channel, head); err != nil {
		t.Fatal(err)
	}
	if err := s.Save(ctx, g); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("save over a head one version on: %v, want ErrConflict", err)
	}

	if err := s.RawPut([]string{"games"}, g.Channel, []byte(`{"schema":2,"id":`)); err != nil {
		t.Fatal(err)
	}
	if err := s.Save(ctx, g); !errors.As(err, new(*store.DamagedError)) {
		t.Fatalf("save over a damaged head: %v, want a *DamagedError", err)
	}
	if got, _ := s.RawGet([]string{"games"}, g.Channel); string(got) != `{"schema":2,"id":` {
		t.Fatalf("the damaged head was overwritten: %q", got)
	}
}

// TestHeadMemoReadsAsDecoded: after creates, saves (some of them stale),
// loads, finished games and new ones in their channels, every stored head
// the memo knows reads there as DecodeRecord reads it.
func TestHeadMemoReadsAsDecoded(t *testing.T) {
	ctx := context.Background()
	s, reg := openTemp(t)
	rng := rand.New(rand.NewPCG(7, 8))
	const channels = 6
	held := make([]*store.Game, channels) // each channel's game as one caller holds it
	for i := range held {
		held[i] = storetest.NewGame(t, reg, storetest.GameNames[i%len(storetest.GameNames)], strconv.Itoa(i), "g")
		if err := s.Create(ctx, held[i]); err != nil {
			t.Fatal(err)
		}
	}
	checked := 0
	for step := range 300 {
		i := rng.IntN(channels)
		g := held[i]
		switch r := rng.IntN(10); {
		case r == 0: // a load in between
			fresh, err := s.Load(ctx, g.Channel)
			if err != nil {
				t.Fatal(err)
			}
			held[i] = fresh
		case r == 1: // a stale copy saved: refused
			stale := *g
			stale.Version--
			if err := s.Save(ctx, &stale); stale.Version > 0 && !errors.Is(err, store.ErrConflict) {
				t.Fatalf("step %d: a stale save: %v", step, err)
			}
		case !storetest.PlayRandom(g, rng, "1001") || g.Status == store.Finished || step%37 == 0:
			g.Status = store.Finished
			if err := s.Save(ctx, g); err != nil {
				t.Fatalf("step %d: finish: %v", step, err)
			}
			held[i] = storetest.NewGame(t, reg, g.Name, g.Channel, "g")
			if err := s.Create(ctx, held[i]); err != nil {
				t.Fatal(err)
			}
		default:
			if err := s.Save(ctx, g); err != nil {
				t.Fatalf("step %d: save: %v", step, err)
			}
		}
		err := s.db.View(func(tx *bolt.Tx) error {
			return tx.Bucket(bGames).ForEach(func(k, v []byte) error {
				s.heads.mu.Lock()
				f := s.heads.m[string(k)]
				s.heads.mu.Unlock()
				if f == nil || string(f.data) != string(v) {
					return nil
				}
				checked++
				r, err := store.DecodeRecord(v)
				if err != nil {
					t.Fatalf("step %d: channel %s: the memo knows a head that does not decode: %v", step, k, err)
				}
				if r.ID != f.id || r.Version != f.version || r.Status != f.status {
					t.Fatalf("step %d: channel %s: the memo reads %s v%d %s, the head %s v%d %s",
						step, k, f.id, f.version, f.status, r.ID, r.Version, r.Status)
				}
				return nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked < 300 {
		t.Fatalf("the memo knew only %d stored heads over 300 steps", checked)
	}
}
