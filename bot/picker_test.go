package bot_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"arbiter/bot/discordtest"
)

// choose picks value from the select menu customID of a message and
// returns the message that answers it.
func (w *world) choose(userID, messageID, customID, value string) discordtest.Message {
	w.t.Helper()
	in, err := w.srv.ChooseOption(userID, messageID, customID, value)
	if err != nil {
		w.t.Fatalf("choose %q in %s: %v", value, customID, err)
	}
	return w.answerTo(in)
}

// pickMove plays a random legal move of the player to move through the
// picker under board: the Pick a move button, then the private steps, each
// a select menu shown in place of the step before, until the move is
// played publicly.
func (w *world) pickMove(userID string, board discordtest.Message, rng *rand.Rand) discordtest.Message {
	w.t.Helper()
	step := w.press(userID, board.ID, button(w.t, board, "Pick a move"))
	for picks := 0; step.Ephemeral(); picks++ {
		sels := step.Selects()
		if len(sels) != 1 || picks == 3 {
			w.t.Fatalf("picker step %d: %q with selects %+v", picks, step.Content, sels)
		}
		o := sels[0].Options[rng.IntN(len(sels[0].Options))]
		if o.Description == "" {
			w.t.Fatalf("option %q has no description", o.Label)
		}
		next := w.choose(userID, step.ID, sels[0].CustomID, o.Value)
		if next.Ephemeral() && next.ID != step.ID {
			w.t.Fatalf("the picker's step %d is a new message, not the step it was picked from", picks+1)
		}
		step = next
	}
	return step
}

// TestPickerPlaysWholeGames: a whole game of each game (Amazons takes
// three picks a move: amazon, destination, arrow) is played with the
// picker only, but for one move typed (under -short the four course
// games and Amazons); the picker's steps are
// private, the move public; the opponent pressing Pick a move is told it
// is not their turn; a pick made on a stale board is refused with the
// board as it is now.
func TestPickerPlaysWholeGames(t *testing.T) {
	games := []struct{ game, options string }{
		{"hique", "turns=8"}, {"upthrust", ""}, {"hiya", ""}, {"sixes", "turns=8"}, {"amazons", ""},
		{"checkers", ""}, {"kalah", ""}, {"konane", ""}, {"morris", ""}, {"hex", "size=7"}, {"dots", ""},
		{"gomoku", "columns=9 rows=9"}, {"tictactoe", ""}, {"loa", ""}, {"pentago", ""},
	}
	if testing.Short() {
		games = games[:5]
	}
	for _, c := range games {
		t.Run(c.game, func(t *testing.T) {
			w := newWorld(t, false)
			p := w.start(procOptions{gateway: true})
			ann, bob := w.srv.AddUser("Ann"), w.srv.AddUser("Bob")
			ch := w.general
			rng := rand.New(rand.NewPCG(7, uint64(len(c.game))))
			opts := []discordtest.Option{opt("game", c.game), opt("opponent", bob.ID)}
			if c.options != "" {
				opts = append(opts, opt("options", c.options))
			}
			challenge := w.public(w.do(ann.ID, ch, "play", opts...))
			board := w.public(w.press(bob.ID, challenge.ID, button(t, challenge, "Accept")))
			users := map[string]string{ann.ID: ann.ID, bob.ID: bob.ID}
			for moves := 0; ; moves++ {
				g := p.game(ch)
				if g == nil {
					break
				}
				if moves > 300 {
					t.Fatal("no end after 300 moves")
				}
				mover := users[g.Players[g.State.ToMove()].UserID]
				if moves == 1 {
					other := users[g.Players[g.State.ToMove().Other()].UserID]
					w.private(w.press(other, board.ID, button(t, board, "Pick a move")), "not yours")
				}
				if moves == 2 {
					// A step left open while the move is typed instead is
					// stale: its pick is refused, privately, with the board.
					step := w.press(mover, board.ID, button(t, board, "Pick a move"))
					w.private(step, "Your move as")
					board = w.public(w.do(mover, ch, "move", opt("move", randomMove(t, g, rng))))
					sel := step.Selects()[0]
					stale := w.choose(mover, step.ID, sel.CustomID, sel.Options[0].Value)
					w.private(stale, "older state of the game")
					if !strings.Contains(stale.Content, "```") {
						t.Errorf("stale pick answered without the board: %q", stale.Content)
					}
					continue
				}
				board = w.public(w.pickMove(mover, board, rng))
				if !strings.Contains(board.Content, "played **") {
					t.Fatalf("picked move answered %q", board.Content)
				}
			}
			t.Logf("%s: the game ended: %s", c.game, board.Content[:strings.Index(board.Content, "\n")])
			if !strings.Contains(board.Content, "wins") && !strings.Contains(board.Content, "Draw") {
				t.Errorf("the last move's answer does not say the result: %q", board.Content)
			}
			w.noViolations()
		})
	}
}

// TestDeadlinesAsTimestamps: in Discord a deadline is written in
// Discord's timestamp markup, date and time then relative, so that each
// reader sees it in their own time zone; the markup reaches the channel
// as text.
func TestDeadlinesAsTimestamps(t *testing.T) {
	w := newWorld(t, false)
	p := w.start(procOptions{gateway: true})
	ann, bob := w.srv.AddUser("Ann"), w.srv.AddUser("Bob")
	challenge := w.public(w.do(ann.ID, w.general, "play", opt("game", "sixes"), opt("opponent", bob.ID)))
	accepted := w.public(w.press(bob.ID, challenge.ID, button(t, challenge, "Accept")))
	g := p.game(w.general)
	u := g.Deadline.Unix()
	want := fmt.Sprintf("(until <t:%d:f> (<t:%d:R>))", u, u)
	if !strings.Contains(accepted.Content, want) {
		t.Errorf("the turn note %q lacks %q", accepted.Content, want)
	}
	if strings.Contains(accepted.Content, "UTC") {
		t.Errorf("the turn note still writes UTC: %q", accepted.Content)
	}
	w.noViolations()
}
