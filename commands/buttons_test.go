package commands_test

import (
	"context"
	"strings"
	"testing"

	"arbiter/commands"
	"arbiter/rules"
	"arbiter/store"
)

// press presses the button labelled label under msg, as user: the
// invocation the platform makes of its custom id.
func (e *env) press(user commands.User, channel string, msg commands.Message, label string) commands.Reply {
	e.t.Helper()
	for _, b := range msg.Buttons {
		if b.Label != label {
			continue
		}
		cmd, game, version, err := commands.ParseButton(b.ID)
		if err != nil {
			e.t.Fatalf("button %s: %v", b.ID, err)
		}
		inv := invocation(user, channel, cmd)
		inv.Game, inv.Version = game, version
		return e.svc.Handle(context.Background(), inv)
	}
	e.t.Fatalf("no button %q under %q (buttons %+v)", label, msg.Text, msg.Buttons)
	return commands.Reply{}
}

func labels(msg commands.Message) string {
	var out []string
	for _, b := range msg.Buttons {
		out = append(out, b.Label)
	}
	return strings.Join(out, ",")
}

// TestResignButtonAsks: the Resign button under a board asks first, in a
// message only the presser sees; Cancel changes nothing; the confirmation
// resigns. A typed /resign resigns at once.
func TestResignButtonAsks(t *testing.T) {
	e := newEnv(t, false)
	board := e.ok(ann, "rb", "/play game:sixes opponent:@bob")
	board = e.ok(bob, "rb", "/accept")
	ask := e.press(ann, "rb", board.Message, "Resign")
	if !ask.Private || !strings.Contains(ask.Text, "Resign this game of Sixes?") || labels(ask.Message) != "Resign,Cancel" {
		t.Fatalf("the Resign button: private=%v %q [%s]", ask.Private, ask.Text, labels(ask.Message))
	}
	if g := e.going("rb"); g == nil {
		t.Fatal("the Resign button resigned without asking")
	}
	if r := e.press(cat, "rb", board.Message, "Resign"); !r.Private || !strings.Contains(r.Text, "not playing in this game") {
		t.Errorf("a spectator's Resign: %q", r.Text)
	}
	if r := e.press(ann, "rb", ask.Message, "Cancel"); !r.Private || !strings.Contains(r.Text, "You play on") {
		t.Errorf("Cancel: %q", r.Text)
	}
	if g := e.going("rb"); g == nil {
		t.Fatal("Cancel resigned")
	}
	done := e.press(ann, "rb", ask.Message, "Resign")
	if done.Private || !strings.Contains(done.Text, "X (ann) resigns.") || !strings.Contains(done.Text, "O (bob) wins") {
		t.Fatalf("the confirmation: private=%v %q", done.Private, done.Text)
	}
	if labels(done.Message) != "Rematch" {
		t.Errorf("a finished game's buttons: [%s], want [Rematch]", labels(done.Message))
	}
	// A confirmation drawn for an older state of the game does nothing.
	e.ok(ann, "rb2", "/play game:sixes opponent:@bob")
	board = e.ok(bob, "rb2", "/accept")
	ask = e.press(ann, "rb2", board.Message, "Resign")
	e.ok(ann, "rb2", "/move a1 c1")
	if r := e.press(ann, "rb2", ask.Message, "Resign"); !r.Private || !strings.Contains(r.Text, "older state") {
		t.Errorf("a stale confirmation: %q", r.Text)
	}
	e.ok(bob, "rb2", "/resign") // typed: at once
	if e.going("rb2") != nil {
		t.Error("a typed /resign asked")
	}
}

// TestRematch: /rematch and the Rematch button play the last game here
// again with the sides swapped and the same options; against a person it
// is a challenge, which the other's Rematch accepts.
func TestRematch(t *testing.T) {
	e := newEnv(t, false)
	e.refused(ann, "rm", "/rematch", "no game has finished in this channel yet")
	e.ok(ann, "rm", `/play game:hique opponent:@bob time:1h options:"turns=60 rated=off"`)
	e.refused(ann, "rm", "/rematch", "a game is already going on")
	e.ok(bob, "rm", "/accept")
	end := e.ok(bob, "rm", "/resign")
	e.refused(cat, "rm", "/rematch", "only the players of the last game here")
	// bob presses Rematch: a challenge to ann, sides swapped.
	ch := e.press(bob, "rm", end.Message, "Rematch")
	if ch.Private || !strings.Contains(ch.Text, "Rematch of #") || !strings.Contains(ch.Text, "<@200> challenges <@100> to HiQUE") {
		t.Fatalf("rematch: %q", ch.Text)
	}
	// ann presses Rematch too: she accepts.
	acc := e.press(ann, "rm", end.Message, "Rematch")
	if acc.Private || !strings.Contains(acc.Text, "<@100> accepts. HiQUE: Black (bob) against White (ann)") {
		t.Fatalf("the second Rematch: %q", acc.Text)
	}
	g := e.game("rm")
	if g.Players[rules.P1].UserID != bob.ID || g.Players[rules.P2].UserID != ann.ID {
		t.Errorf("rematch seats: %s, %s; want bob first", g.Players[0].Name, g.Players[1].Name)
	}
	if g.Options["turns"] != "60" || commands.FlowOf(g).Rated || commands.FlowOf(g).TurnTime.String() != "1h0m0s" {
		t.Errorf("rematch options %v, rated %v, time %v", g.Options, commands.FlowOf(g).Rated, commands.FlowOf(g).TurnTime)
	}
	// Against the bot: the new game starts at once, the bot first.
	e.ok(ann, "rb", "/play game:sixes level:2 side:first")
	e.ok(ann, "rb", "/resign")
	r := e.ok(ann, "rb", "/rematch")
	if !strings.Contains(r.Text, "Rematch of #") || !strings.Contains(r.Text, "X (Arbiter, level 2) against O (ann)") {
		t.Errorf("rematch against the bot: %q", r.Text)
	}
	if g := e.game("rb"); g.Players[rules.P1].Kind != store.Bot || commands.FlowOf(g).Challenge {
		t.Errorf("rematch against the bot: seats %+v, challenge %v", g.Players, commands.FlowOf(g).Challenge)
	}
	// A board's Rematch pressed in another channel (where the game's own
	// channel may be unseen) announces nothing there.
	if r := e.press(bob, "elsewhere", end.Message, "Rematch"); !r.Private || !strings.Contains(r.Text, "in the channel of its game") {
		t.Errorf("Rematch pressed in another channel: %q (private %v)", r.Text, r.Private)
	}
}

// TestBoardFacesItsReader: /board and the Refresh button draw the board
// from the asker's own side when they play, else from the first player's;
// boards everyone sees are drawn from the first player's side.
func TestBoardFacesItsReader(t *testing.T) {
	e := newEnv(t, false)
	e.ok(ann, "v", "/play game:hiya opponent:@bob")
	start := e.ok(bob, "v", "/accept")
	board := func(u commands.User, line string) string {
		t.Helper()
		text := e.ok(u, "v", line).Text
		_, b, _ := strings.Cut(text, "```")
		return b
	}
	first, second := board(cat, "/board view:first"), board(cat, "/board view:second")
	if first == second {
		t.Fatal("the two views are the same board")
	}
	if got := board(bob, "/board"); got != second {
		t.Errorf("bob's /board is not from his side:\n%s", got)
	}
	if got := board(ann, "/board"); got != first {
		t.Errorf("ann's /board is not from her side:\n%s", got)
	}
	if got := board(cat, "/board"); got != first {
		t.Errorf("a spectator's /board is not from the first player's side:\n%s", got)
	}
	if _, got, _ := strings.Cut(start.Text, "```"); got != first {
		t.Errorf("the public board is not from the first player's side:\n%s", got)
	}
	refresh := e.press(bob, "v", start.Message, "Refresh")
	if _, got, _ := strings.Cut(refresh.Text, "```"); !refresh.Private || got != second {
		t.Errorf("bob's Refresh (private=%v) is not from his side:\n%s", refresh.Private, got)
	}
}

// TestTakebackInRatedGame: in a rated game between people a move is taken
// back with the opponent's consent (by /undo or the Allow takeback button
// under the request), and the takeback is kept in the game's record.
// Against the bot, a rated game has no takebacks.
func TestTakebackInRatedGame(t *testing.T) {
	e := newEnv(t, false)
	e.ok(ann, "tb", "/play game:sixes opponent:@bob")
	e.ok(bob, "tb", "/accept")
	e.ok(ann, "tb", "/move a1 c1")
	ask := e.ok(ann, "tb", "/undo")
	if !strings.Contains(ask.Text, "X (ann) asks to take back their last move. <@200>, /undo agrees") || labels(ask.Message) != "Allow takeback" {
		t.Fatalf("the request: %q [%s]", ask.Text, labels(ask.Message))
	}
	e.refused(ann, "tb", "/undo", "you have asked already")
	if r := e.press(cat, "tb", ask.Message, "Allow takeback"); !r.Private {
		t.Errorf("a spectator allowed a takeback: %q", r.Text)
	}
	done := e.press(bob, "tb", ask.Message, "Allow takeback")
	if done.Private || !strings.Contains(done.Text, "X (ann)'s last move is taken back.") {
		t.Fatalf("the consent: %q", done.Text)
	}
	g := e.game("tb")
	if len(g.Moves) != 0 || !commands.FlowOf(g).Rated {
		t.Fatalf("after the takeback: %d moves, rated %v", len(g.Moves), commands.FlowOf(g).Rated)
	}
	e.ok(ann, "tb", "/move a2 a3")
	e.ok(bob, "tb", "/resign")
	h := e.ok(ann, "tb", "/history game:"+g.ID)
	const note = "move 1: X (ann) took back a1 c1, with bob's consent"
	if !strings.Contains(h.Text, "Taken back: "+note) {
		t.Errorf("/history does not show the takeback: %q", h.Text)
	}
	if len(h.Files) == 0 || !strings.Contains(string(h.Files[0].Data), "Takeback: "+note) {
		t.Errorf("the record does not keep the takeback")
	}
	// Rated, against the bot: no takebacks.
	e.ok(ann, "tbb", "/play game:sixes level:1")
	e.refused(ann, "tbb", "/undo", "this game is rated, so moves cannot be taken back against the bot")
}
