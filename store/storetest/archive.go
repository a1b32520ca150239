package storetest

import (
	"testing"

	"arbiter/rules"
	"arbiter/store"
)

// testArchiveKeepsLiveGame: Archive given a game that is finished only in
// the caller's copy does not free the channel of the game going on there.
func testArchiveKeepsLiveGame(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	g := NewGame(t, e.reg, "upthrust", "41", "4")
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	mine := *g
	mine.Status, mine.Result, mine.Reason = store.Finished, rules.P1Wins, "resigned"
	MustErr(t, s.Archive(ctx, &mine), store.ErrConflict, "archive a game still going on in its channel")
	got, err := s.Load(ctx, "41")
	if err != nil || got.Status != store.Active || got.Version != g.Version {
		t.Fatalf("the channel after a refused archive: %+v, %v", got, err)
	}
}
