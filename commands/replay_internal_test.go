package commands

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"arbiter/render"
	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
)

// TestReplayDrawnOnce: many asks for one game's replay, at once and later,
// draw it once; another version of the game is drawn anew.
func TestReplayDrawnOnce(t *testing.T) {
	reg := games.Registry()
	state, err := reg.New("sixes", nil)
	if err != nil {
		t.Fatal(err)
	}
	var list rules.MoveList
	for range 12 {
		state.Moves(&list)
		state.Play(list.Moves[0])
	}
	g := &store.Game{Guild: "g", ID: "1", Version: 13, Name: "sixes", State: state}
	c := newReplays()
	var wg sync.WaitGroup
	out := make([][]byte, 8)
	for i := range out {
		wg.Go(func() {
			r, err := c.get(context.Background(), g, render.Options{})
			if err != nil {
				t.Error(err)
			}
			out[i] = r.Data
		})
	}
	wg.Wait()
	if _, err := c.get(context.Background(), g, render.Options{}); err != nil {
		t.Fatal(err)
	}
	for i := range out {
		if len(out[i]) == 0 || !bytes.Equal(out[i], out[0]) {
			t.Fatalf("ask %d got another replay", i)
		}
	}
	if c.draws != 1 {
		t.Fatalf("drawn %d times, want once", c.draws)
	}
	g2 := *g
	g2.Version++
	if _, err := c.get(context.Background(), &g2, render.Options{}); err != nil || c.draws != 2 {
		t.Fatalf("another version: %d draws, %v", c.draws, err)
	}
}
