package commands

import (
	"io"
	"log/slog"
	"math/rand/v2"
	"testing"
	"time"

	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
)

// BenchmarkPlayedMessage writes a move's reply, the board and all, as
// /move does after the save: the reply's share of a move's cost.
func BenchmarkPlayedMessage(b *testing.B) {
	reg := games.Registry()
	state, err := reg.New("hique", nil)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var list rules.MoveList
	for range 30 {
		state.Moves(&list)
		state.Play(list.Moves[rng.IntN(list.N)])
	}
	now := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	g := &store.Game{Channel: "c", Guild: "g", ID: "17", Name: "hique", State: state, Version: 31, Status: store.Active,
		Players:  [2]store.Player{{Kind: store.Human, UserID: "111", Name: "ann"}, {Kind: store.Human, UserID: "222", Name: "bob"}},
		Deadline: now.Add(24 * time.Hour)}
	s := New(Config{}, nil, reg, nil, slog.New(slog.NewTextHandler(io.Discard, nil)), func() time.Time { return now })
	seat := state.ToMove().Other()
	n := 0
	for b.Loop() {
		n = len(s.playedMessage(g, seat, "played", "4 2 4 8", nil).Text)
	}
	b.ReportMetric(float64(n), "chars")
}

// TestSetButtonIDs: the ids made together are those made one by one, and
// each reads back as its command on the game's version.
func TestSetButtonIDs(t *testing.T) {
	reg := games.Registry()
	state, err := reg.New("sixes", nil)
	if err != nil {
		t.Fatal(err)
	}
	g := &store.Game{ID: "4711", Name: "sixes", State: state, Version: 1234567}
	buttons := []Button{{ID: "pick"}, {ID: "board"}, {ID: "draw"}, {ID: "resign"}, {ID: "playboard"}}
	setButtonIDs(buttons, g)
	want := []string{pickID(g), buttonID("board", g), buttonID("draw", g), buttonID("resign", g), buttonID("playboard", g)}
	for i, b := range buttons {
		if b.ID != want[i] {
			t.Errorf("button %d: id %q, want %q", i, b.ID, want[i])
		}
		cmd, game, version, err := ParseButton(b.ID)
		if err != nil || game != "4711" || cmd == "pick" && version != positionKey(g) || cmd != "pick" && version != 1234567 {
			t.Errorf("button %d: %q reads back as %s %s %d (%v)", i, b.ID, cmd, game, version, err)
		}
	}
	if want := "board:4711:1234567"; want != buttonID("board", g) {
		t.Errorf("buttonID = %q, want %q", buttonID("board", g), want)
	}
}
