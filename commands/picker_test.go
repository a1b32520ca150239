package commands_test

import (
	"context"
	"strings"
	"testing"

	"arbiter/commands"
)

// pickInv is a pick from the picker's menu in channel, as the platform
// passes it: the menu's id read as a button's, the value as an option.
func pickInv(t *testing.T, user commands.User, channel, id, value string) commands.Invocation {
	t.Helper()
	inv := commands.Invocation{Guild: "guild1", Channel: channel, User: user, Options: map[string]string{}}
	cmd, game, version, err := commands.ParseButton(id)
	if err != nil {
		t.Fatalf("menu id %q: %v", id, err)
	}
	inv.Command, inv.Game, inv.Version = cmd, game, version
	if value != "" {
		inv.Options[commands.PickOption] = value
	}
	return inv
}

// TestForgedPicksChangeNothing: a pick another user sends, one of another
// game or an older version, a value that is no choice of the picker, or
// one of 10 KB is refused privately with a clear message, and the game is
// as it was.
func TestForgedPicksChangeNothing(t *testing.T) {
	e := newEnv(t, false)
	e.ok(ann, "c1", "/play game:hiya opponent:@bob")
	accepted := e.ok(bob, "c1", "/accept")
	g := e.game("c1")
	id := ""
	for _, b := range accepted.Buttons {
		if b.Label == "Pick a move" {
			id = b.ID
		}
	}
	first := e.svc.Handle(context.Background(), pickInv(t, ann, "c1", id, ""))
	if !first.Private || first.Menu == nil || len(first.Menu.Options) == 0 {
		t.Fatalf("Pick a move answered %+v", first)
	}
	for _, c := range []struct {
		name      string
		user      commands.User
		id, value string
		want      string
	}{
		{"the opponent", bob, id, "0.0", "not yours"},
		{"a spectator", cat, id, "0.0", "not playing"},
		{"another game", ann, strings.Replace(id, ":"+g.ID+":", ":999:", 1), "0.0", "older state"},
		{"another position", ann, "pick:" + g.ID + ":1", "0.0", "older state"},
		{"a choice off the tree", ann, id, "99.0", "not one of the picker's choices"},
		{"a negative choice", ann, id, "-1", "not one of the picker's choices"},
		{"too many picks", ann, id, "0.0.0.0", "not one of the picker's choices"},
		{"10 KB", ann, id, strings.Repeat("0.", 5120), "not one of the picker's choices"},
		{"text", ann, id, "E2B5", "not one of the picker's choices"},
	} {
		r := e.svc.Handle(context.Background(), pickInv(t, c.user, "c1", c.id, c.value))
		if !r.Private || !strings.Contains(r.Text, c.want) {
			t.Errorf("%s: answered (private=%v) %q, want a refusal saying %q", c.name, r.Private, r.Text, c.want)
		}
		if now := e.game("c1"); now.Version != g.Version || len(now.Moves) != len(g.Moves) {
			t.Fatalf("%s changed the game: version %d, %d moves", c.name, now.Version, len(now.Moves))
		}
	}
	// A pick of the menu as offered plays its move.
	var leaf string
	for v := first.Menu.Options[0].Value; ; {
		r := e.svc.Handle(context.Background(), pickInv(t, ann, "c1", id, v))
		if !r.Private {
			if !strings.Contains(r.Text, "played **") {
				t.Fatalf("the pick answered %q", r.Text)
			}
			break
		}
		if r.Menu == nil {
			t.Fatalf("pick %q answered %q", v, r.Text)
		}
		leaf, v = r.Menu.Options[0].Label, r.Menu.Options[0].Value
	}
	if now := e.game("c1"); len(now.Moves) != 1 || !strings.HasSuffix(strings.TrimSuffix(now.Moves[0].Text, " Hi-YA!"), leaf) {
		t.Fatalf("after the pick of %s the game has moves %+v", leaf, now.Moves)
	}
}

// TestPickerOutlivesOtherChanges: a change of the game that is not a move
// (the opponent's draw offer) leaves the picker open; a move makes it
// stale.
func TestPickerOutlivesOtherChanges(t *testing.T) {
	e := newEnv(t, false)
	e.ok(ann, "c1", "/play game:sixes opponent:@bob side:first")
	accepted := e.ok(bob, "c1", "/accept")
	id := accepted.Buttons[0].ID
	if accepted.Buttons[0].Label != "Pick a move" {
		t.Fatalf("buttons %+v", accepted.Buttons)
	}
	step := e.svc.Handle(context.Background(), pickInv(t, ann, "c1", id, ""))
	e.ok(bob, "c1", "/draw")
	r := e.svc.Handle(context.Background(), pickInv(t, ann, "c1", step.Menu.ID, step.Menu.Options[0].Value))
	if r.Menu == nil || !strings.Contains(r.Text, "pick where it goes") {
		t.Fatalf("after a draw offer the picker answered %q", r.Text)
	}
	played := e.svc.Handle(context.Background(), pickInv(t, ann, "c1", r.Menu.ID, r.Menu.Options[0].Value))
	if played.Private || !strings.Contains(played.Text, "played **") {
		t.Fatalf("the pick answered %q", played.Text)
	}
	stale := e.svc.Handle(context.Background(), pickInv(t, ann, "c1", step.Menu.ID, step.Menu.Options[0].Value))
	if !stale.Private || !strings.Contains(stale.Text, "older state") {
		t.Errorf("a pick from before the move answered %q", stale.Text)
	}
}
