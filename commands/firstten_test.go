package commands_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"arbiter/commands"
	"arbiter/render"
)

// TestParserNamesOptions: a wrong option name is reported by name, not
// glued onto the previous option's value.
func TestParserNamesOptions(t *testing.T) {
	specs := commands.CommandSet([]string{"hique", "upthrust", "hiya", "sixes"})
	for line, want := range map[string]string{
		"/play game:sixes colour:red":         "/play has no option colour; it takes game, opponent",
		"/play game:sixes level:1 colour:red": "/play has no option colour",
		"/board stlye:emoji":                  "/board has no option stlye; it takes style, view",
		"/referee start game:sixes pl:@ann":   "/referee start has no option pl; it takes game, p1, p2",
		"/resign now:yes":                     "/resign takes no options",
	} {
		if _, err := commands.ParseLine(line, specs); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseLine(%q) = %v, want an error containing %q", line, err, want)
		}
	}
	// A colon in a quoted value or in prose after a space is a value.
	for _, line := range []string{`/referee adjudicate result:p1 reason:"note: no show"`, "/referee adjudicate result:p1 reason:left: no show"} {
		if _, err := commands.ParseLine(line, specs); err != nil {
			t.Errorf("ParseLine(%q): %v", line, err)
		}
	}
}

// TestMissingAndBadOptions: a missing required option, a value outside an
// option's choices or bounds, and an oversized value are refused by name,
// as Discord's own validation would, whoever sends the invocation.
func TestMissingAndBadOptions(t *testing.T) {
	e := newEnv(t, false)
	e.refused(ann, "o", "/play", "/play needs game (which game): hique, upthrust, hiya, sixes, amazons, breakthrough, checkers, connect4, dots, gomoku, hex, kalah, konane, loa, morris, othello, pentago or tictactoe")
	e.refused(ann, "o", "/leaderboard", "/leaderboard needs game")
	e.refused(ann, "o", "/rules", "/rules needs game")
	e.refused(cat, "o", "/referee start game:sixes p1:@ann", "/referee start needs p2")
	e.refused(cat, "o", "/referee extend", "/referee extend needs by")
	e.refused(ann, "o", "/play game:sixes side:middle", `side must be first, second or random, not "middle"`)
	e.refused(ann, "o", "/play game:sixes level:x", `level must be 1 to 5, not "x"`)
	e.refused(ann, "o", "/play game:sixes thread:maybe", `thread must be true or false`)
	long := strings.Repeat("x", 10000)
	r := e.do(ann, "o", "/play game:sixes time:"+long)
	if !r.Private || !strings.Contains(r.Text, "time is 10000 bytes long; Arbiter reads at most 200") || len(r.Text) > 300 {
		t.Errorf("oversized option: %q", r.Text[:min(len(r.Text), 400)])
	}
	// An invocation built by a platform, not by ParseLine, is checked too.
	inv := commands.Invocation{Guild: "guild1", Channel: "o", User: ann, Command: "play", Options: map[string]string{"game": "sixes", "colour": "red"}}
	if r := e.svc.Handle(context.Background(), inv); !r.Private || !strings.Contains(r.Text, "/play has no option colour") {
		t.Errorf("unknown option from a platform: %q", r.Text)
	}
	// Choices are read whatever their case.
	e.ok(ann, "o", "/play game:sixes side:First level:1")
	e.ok(ann, "o", "/board style:EMOJI")
}

// TestFirstMessages: the refusals a new player meets say the right thing
// for the game and the person.
func TestFirstMessages(t *testing.T) {
	e := newEnv(t, false)
	e.ok(ann, "f", "/play game:sixes opponent:@bob")
	e.refused(bob, "f", "/move a5 a4", "<@100> challenges you; /accept the challenge first")
	e.refused(ann, "f", "/move a1 c1", "the challenge has not been accepted yet: <@200> can /accept it")
	e.ok(bob, "f", "/accept")
	// /move alone gives an example in the game's own notation.
	r := e.do(ann, "f", "/move")
	if !r.Private || !strings.Contains(r.Text, "give a move, e.g. /move a") || strings.Contains(r.Text, "4 2 4 10") {
		t.Errorf("/move with no move in Sixes: %q", r.Text)
	}
	e.refused(ann, "f", "/moves from:z9", "no legal move from z9: z9 is off the board")
	e.refused(ann, "f", "/moves from:a5", "no legal move from a5: the piece on a5 is O's; you play X")
	e.refused(ann, "f", "/moves from:c3", "no legal move from c3: there is no piece on c3")
	e.ok(ann, "f", "/resign")
	if r := e.do(ann, "f", "/games"); !strings.Contains(r.Text, "bob won (X resigned)") {
		t.Errorf("/games does not name the winner: %q", r.Text)
	}
	// A capture is announced in the move's own line.
	e.ok(ann, "f", "/play game:hique opponent:@bob")
	e.ok(bob, "f", "/accept")
	rng := rand.New(rand.NewPCG(3, 4))
	found := false
	for i := 0; i < 400 && !found; i++ {
		g := e.going("f")
		if g == nil {
			break
		}
		user := ann
		if g.Players[g.State.ToMove()].UserID == bob.ID {
			user = bob
		}
		r := e.ok(user, "f", "/move "+e.randomMove("f", rng))
		g = e.going("f")
		if g == nil {
			break
		}
		if eff := render.LastMoveEffects(g.State); strings.Contains(eff, "removing") {
			found = true
			first, _, _ := strings.Cut(r.Text, "\n")
			if !strings.Contains(first, "**, "+eff+".") {
				t.Errorf("capture %q not in the announcement %q", eff, first)
			}
		}
	}
	if !found {
		t.Fatal("no capture in 400 random moves")
	}
}
