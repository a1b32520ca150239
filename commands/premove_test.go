package commands_test

import (
	"strings"
	"testing"

	"arbiter/rules"
	"arbiter/store/storetest"
)

// TestPremoves: a chain of conditional premoves is played as the
// opponent's moves match, each answer at once, marked in the record; a
// line the opponent's move does not match is dropped; premoves are
// refused against the bot, with premoves=off, on one's own move, and for
// moves that are not legal where they would be played.
func TestPremoves(t *testing.T) {
	e := newEnv(t, false)
	e.ok(ann, "c1", "/play game:sixes opponent:@bob side:first")
	e.ok(bob, "c1", "/accept")
	e.refused(ann, "c1", `/premove line:"a1 a2, a3 a4"`, "it is your move now")
	line := storetest.LegalLine(t, e.game("c1"), 4, 0)
	e.refused(bob, "c1", `/premove line:"`+line[0]+`, `+line[0]+`"`, "line 1, your answer")
	e.refused(bob, "c1", `/premove line:"`+line[0]+`"`, "in pairs")
	kept := e.do(bob, "c1", `/premove line:"`+strings.Join(line, ", ")+`"`)
	if !kept.Private || !strings.Contains(kept.Text, "if "+line[0]+" then "+line[1]) {
		t.Fatalf("/premove answered %+v", kept)
	}
	if shown := e.do(bob, "c1", "/premove"); !shown.Private || !strings.Contains(shown.Text, "if "+line[2]+" then "+line[3]) {
		t.Fatalf("/premove shows %q", shown.Text)
	}
	// Ann plays the line's first move: Bob's answer comes at once.
	r := e.ok(ann, "c1", "/move move:"+line[0])
	if !strings.Contains(r.Text, "played by premove **"+line[1]+"**") {
		t.Fatalf("Ann's move answered %q, want Bob's premove %s", r.Text, line[1])
	}
	r = e.ok(ann, "c1", "/move move:"+line[2])
	if !strings.Contains(r.Text, "played by premove **"+line[3]+"**") {
		t.Fatalf("Ann's second move answered %q, want Bob's premove %s", r.Text, line[3])
	}
	if g := e.game("c1"); len(g.Moves) != 4 || g.State.ToMove() != rules.P1 {
		t.Fatalf("after the chain the game has %d moves, %v to move", len(g.Moves), g.State.ToMove())
	}
	if shown := e.do(bob, "c1", "/premove"); !strings.Contains(shown.Text, "no premoves") {
		t.Errorf("after the chain /premove shows %q", shown.Text)
	}
	// A line whose first move Ann does not play is dropped.
	other := storetest.LegalLine(t, e.game("c1"), 2, 1)
	mine := storetest.LegalLine(t, e.game("c1"), 2, 0)
	if other[0] == mine[0] {
		t.Fatal("the test needs two different first moves")
	}
	e.do(bob, "c1", `/premove line:"`+strings.Join(other, ", ")+`"`)
	r = e.ok(ann, "c1", "/move move:"+mine[0])
	if strings.Contains(r.Text, "premove") {
		t.Errorf("a premove answered a move it was not written for: %q", r.Text)
	}
	if g := e.game("c1"); len(g.Moves) != 5 || g.State.ToMove() != rules.P2 {
		t.Fatalf("after a mismatch the game has %d moves, %v to move", len(g.Moves), g.State.ToMove())
	}
	if shown := e.do(bob, "c1", "/premove"); !strings.Contains(shown.Text, "no premoves") {
		t.Errorf("after a mismatch /premove shows %q", shown.Text)
	}
	// The record marks the moves premoves played.
	h := e.do(ann, "c1", "/history")
	if !strings.Contains(h.Text, "Played by premove: moves 2, 4") {
		t.Errorf("/history says %q", h.Text)
	}
	if len(h.Files) == 0 || !strings.Contains(string(h.Files[0].Data), "move 2 was played by a conditional premove") {
		t.Errorf("the record does not mark the premoves")
	}
	// Not against the bot, nor with premoves=off.
	e.ok(ann, "c2", "/play game:sixes")
	e.refused(ann, "c2", `/premove line:"a1 a2, a3 a4"`, "not against the bot")
	e.ok(ann, "c3", `/play game:sixes opponent:@bob options:"premoves=off"`)
	e.ok(bob, "c3", "/accept")
	e.refused(bob, "c3", `/premove line:"a1 a2, a3 a4"`, "premoves=off")
}
