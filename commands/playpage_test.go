package commands_test

import (
	"context"
	"strings"
	"testing"

	"arbiter/commands"
	"arbiter/store"
)

// links is a BoardLinks that records what it made.
type links struct{ made []string }

func (l *links) BoardLink(_ context.Context, user commands.User, g *store.Game) (string, error) {
	url := "https://arbiter.test/play/link/" + user.ID + "-" + g.ID
	l.made = append(l.made, url)
	return url, nil
}

// hasButton reports whether r carries a button labelled label, and its id.
func hasButton(r commands.Reply, label string) (string, bool) {
	for _, b := range r.Buttons {
		if b.Label == label {
			return b.ID, true
		}
	}
	return "", false
}

// TestBoardLinkAndPlayButton: without the play page there is no "Play on
// the board" and /board link:true says why; with it, a player gets a
// private link (a spectator does not), and with an Activity the button
// launches it.
func TestBoardLinkAndPlayButton(t *testing.T) {
	e := newEnv(t, false)
	e.ok(ann, "c1", "/play game:sixes opponent:@bob")
	board := e.ok(bob, "c1", "/accept")
	if _, ok := hasButton(board, "Play on the board"); ok {
		t.Errorf("a board has \"Play on the board\" without a play page")
	}
	e.refused(ann, "c1", "/board link:true", "API_ADDR")

	l := &links{}
	e.svc.SetPlayPage(commands.PlayPage{Links: l})
	board = e.ok(ann, "c1", "/board")
	id, ok := hasButton(board, "Play on the board")
	if !ok {
		t.Fatalf("no \"Play on the board\" button: %+v", board.Buttons)
	}
	r := e.do(ann, "c1", "/board link:true")
	if !r.Private || !strings.Contains(r.Text, "https://arbiter.test/play/link/"+ann.ID) || len(l.made) != 1 {
		t.Errorf("ann's link: %q (private %v)", r.Text, r.Private)
	}
	e.refused(cat, "c1", "/board link:true", "not playing")
	if len(l.made) != 1 {
		t.Errorf("a spectator got a link: %v", l.made)
	}
	cmd, game, version, err := commands.ParseButton(id)
	if err != nil || cmd != "playboard" {
		t.Fatalf("button %q: %v", id, err)
	}
	press := commands.Invocation{Guild: "guild1", Channel: "c1", User: bob, Command: cmd, Game: game, Version: version}
	if r := e.svc.Handle(context.Background(), press); !r.Private || r.LaunchActivity || !strings.Contains(r.Text, "/play/link/"+bob.ID) {
		t.Errorf("the button without an Activity: %q (private %v, launch %v)", r.Text, r.Private, r.LaunchActivity)
	}
	e.svc.SetPlayPage(commands.PlayPage{Links: l, Activity: true})
	if r := e.svc.Handle(context.Background(), press); !r.LaunchActivity {
		t.Errorf("the button with an Activity: %q; want the Activity launched", r.Text)
	}
}

// TestPlayViewOffersTakebackAfterOwnMove: the play page offers "Take back"
// only once the viewer has a move of their own to take back.
func TestPlayViewOffersTakebackAfterOwnMove(t *testing.T) {
	e := newEnv(t, false)
	e.ok(ann, "c1", "/play game:sixes opponent:@bob")
	e.ok(bob, "c1", "/accept")
	undoable := func(who commands.User) bool {
		t.Helper()
		g, err := e.svc.GameIn(context.Background(), "c1")
		if err != nil {
			t.Fatal(err)
		}
		v, err := e.svc.PlayView(g, who.ID)
		if err != nil {
			t.Fatal(err)
		}
		return v.Undoable
	}
	if undoable(ann) || undoable(bob) {
		t.Error("Take back is offered before any move")
	}
	e.ok(ann, "c1", "/move a1 c1")
	if !undoable(ann) || undoable(bob) {
		t.Errorf("after ann's first move: ann %v, bob %v; want only ann", undoable(ann), undoable(bob))
	}
}
