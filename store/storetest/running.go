package storetest

import (
	"strings"
	"testing"

	"arbiter/rules"
	"arbiter/store"
)

// testRunningAfterFailedCreate: a Create that fails leaves the index of
// running games right: a game of another guild in the channel is listed
// for its own guild only, and a channel whose game was moved aside is
// dropped.
func testRunningAfterFailedCreate(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	if err := s.Create(ctx, NewGame(t, e.reg, "sixes", "31", "7")); err != nil {
		t.Fatal(err)
	}
	MustErr(t, s.Create(ctx, NewGame(t, e.reg, "hique", "31", "8")), store.ErrBusy, "create over another guild's game")
	for _, c := range []struct {
		guild string
		want  int
	}{{"8", 0}, {"7", 1}, {"8", 0}} {
		running, err := s.Running(ctx, c.guild)
		if err != nil || len(running) != c.want {
			t.Fatalf("running in guild %s: %v, %v; want %d games", c.guild, running, err, c.want)
		}
	}
	if _, err := s.Quarantine(ctx, "31"); err != nil {
		t.Fatal(err)
	}
	if running, err := s.Running(ctx, "7"); err != nil || len(running) != 0 {
		t.Fatalf("running after the game was moved aside: %v, %v", running, err)
	}
}

// testRunningRacesCreate: a game created in a channel while the channel
// leaves the index of running games (between the Load that found its old
// game gone or over and the SREM) stays in the index: when Running drops
// a stale entry, and when a finishing game is archived.
func testRunningRacesCreate(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	// A stale entry: the game's record moved aside stays in the index.
	if err := s.Create(ctx, NewGame(t, e.reg, "sixes", "21", "7")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Quarantine(ctx, "21"); err != nil {
		t.Fatal(err)
	}
	// A game that finishes.
	over := NewGame(t, e.reg, "sixes", "22", "7")
	if err := s.Create(ctx, over); err != nil {
		t.Fatal(err)
	}
	// Where the backend drops the index entry apart from reading the
	// game (Redis: between the Load and the SREM), the new game is
	// created in between; elsewhere the returned func creates it
	// after the operation.
	createBeforeSRem := func(channel string) func() {
		create := func() {
			if err := s.Create(ctx, NewGame(t, e.reg, "hiya", channel, "7")); err != nil {
				t.Errorf("create in channel %s before the SREM: %v", channel, err)
			}
		}
		return e.b.Raw.BeforeRunningDrop(s, create)
	}
	running := func(want ...string) {
		t.Helper()
		games, err := s.Running(ctx, "7")
		var got []string
		for _, g := range games {
			got = append(got, g.Channel+":"+g.Name)
		}
		if err != nil || strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("running: %v, %v; want %v", got, err, want)
		}
	}

	createBeforeSRem("21")()       // the channel is free: at once
	running("22:sixes", "21:hiya") // oldest first
	running("22:sixes", "21:hiya") // oldest first

	after := createBeforeSRem("22")
	over.Status, over.Result, over.Reason = store.Finished, rules.P1Wins, "resigned"
	if err := s.Save(ctx, over); err != nil {
		t.Fatal(err)
	}
	after()
	running("21:hiya", "22:hiya")
}
