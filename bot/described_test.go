package bot_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"arbiter/bot/discordtest"
)

// TestDescribedGamesThroughDiscord plays a whole game of each game
// described in a file through the fake Discord: Breakthrough between two
// students with emoji boards, Othello with image boards (passes
// included), Connect Four against the bot with text boards, and every
// other game in its board style (Morris' removals and Checkers' jumps
// typed; under -short a sample); /rules shows each file's own rules
// text.
func TestDescribedGamesThroughDiscord(t *testing.T) {
	w := newWorld(t, false)
	p := w.start(procOptions{gateway: true, workers: 1})
	role, err := w.srv.AddRole("", "referee", 0)
	if err != nil {
		t.Fatal(err)
	}
	ann, bob, ref := w.srv.AddUser("Ann"), w.srv.AddUser("Bob"), w.srv.AddUser("Ref", role.ID)
	rng := rand.New(rand.NewPCG(5, 6))

	for _, tc := range []struct {
		game, style, rules, piece string
		full                      bool // played in the full run only
	}{
		{"breakthrough", "emoji", "A piece moves one square straight forward", "⚪", false},
		{"othello", "image", "every outflanked disc in every direction flips", "", false},
		{"connect4", "text", "the disc falls to the lowest empty cell", "R", false},
		{"hex", "image", "Red wins by joining rank 1 to the last rank", "", false},
		{"loa", "emoji", "exactly as many squares as there are pieces", "⚫", false},
		{"amazons", "text", "then shoots an arrow from its new square", "#", false},
		{"kalah", "text", "sows its seeds one at a time", "seeds in store", false},
		{"dots", "image", "A move that completes one or two boxes", "", false},
		{"morris", "text", "Each player first places 9 pieces", "W", false},
		{"checkers", "emoji", "A man moves one square diagonally forward", "", true},
		{"konane", "text", "Black's first move removes one Black stone", "X", true},
		{"gomoku", "text", "the players take turns placing a stone", "X", true},
		{"tictactoe", "emoji", "the players take turns placing a mark", "❌", true},
		{"pentago", "image", "then turns one", "", true},
	} {
		if tc.full && testing.Short() {
			continue
		}
		rules := w.do(ann.ID, w.general, "rules", opt("game", tc.game))
		w.private(rules, tc.rules)
		ch, err := w.srv.AddChannel("", tc.game)
		if err != nil {
			t.Fatal(err)
		}
		w.public(w.do(ref.ID, ch.ID, "settings", opt("board", tc.style)))
		var last discordtest.Message
		if tc.game == "connect4" {
			last = playBot(t, w, p, ch.ID, ann, rng)
		} else {
			last = playPeople(t, w, p, ch.ID, tc.game, ann, bob, rng, tc.style)
		}
		if !strings.Contains(last.Content, "wins") && !strings.Contains(last.Content, "Draw") {
			t.Errorf("%s: the last answer does not say the result: %q", tc.game, last.Content)
		}
		if tc.piece != "" && !strings.Contains(last.Content, tc.piece) {
			t.Errorf("%s: the %s board lacks the piece %s: %q", tc.game, tc.style, tc.piece, last.Content)
		}
		if tc.style == "image" && (len(last.Attachments) != 1 || last.Attachments[0].Filename != "board.png") {
			t.Errorf("%s: the image board came as %+v", tc.game, last.Attachments)
		}
	}
	w.noViolations()
}

// playPeople plays a challenge between two students to its end with
// random moves and returns the last move's answer.
func playPeople(t *testing.T, w *world, p *proc, ch, game string, a, b discordtest.User, rng *rand.Rand, style string) discordtest.Message {
	t.Helper()
	challenge := w.public(w.do(a.ID, ch, "play", opt("game", game), opt("opponent", b.ID)))
	w.public(w.press(b.ID, challenge.ID, button(t, challenge, "Accept")))
	users := map[string]discordtest.User{a.ID: a, b.ID: b}
	var last discordtest.Message
	for moves := 0; ; moves++ {
		g := p.game(ch)
		if g == nil {
			return last
		}
		if moves > 300 {
			t.Fatalf("%s: no end after 300 moves", game)
		}
		mover := users[g.Players[g.State.ToMove()].UserID]
		last = w.public(w.do(mover.ID, ch, "move", opt("move", randomMove(t, g, rng))))
		if !strings.Contains(last.Content, "played **") {
			t.Fatalf("%s: move answer = %q", game, last.Content)
		}
		if style == "image" && len(last.Attachments) != 1 {
			t.Fatalf("%s: a move's image board came as %+v", game, last.Attachments)
		}
	}
}

// playBot plays Connect Four against the bot at level 2, the student
// first, to the end, and returns the last message of the game.
func playBot(t *testing.T, w *world, p *proc, ch string, a discordtest.User, rng *rand.Rand) discordtest.Message {
	t.Helper()
	last := w.public(w.do(a.ID, ch, "play", opt("game", "connect4"), opt("level", 2), opt("side", "first")))
	for {
		g := awaitHumanTurn(t, w, p, ch)
		if g == nil {
			break
		}
		last = w.public(w.do(a.ID, ch, "move", opt("move", randomMove(t, g, rng))))
	}
	// The game ended on the student's move or on the bot's, whose message
	// may come a little after the game is saved: wait for the one that
	// says how it ended.
	waitFor(t, "the result", func() bool {
		for _, m := range w.srv.Messages(ch) {
			if !m.Deleted && (strings.Contains(m.Content, "wins") || strings.Contains(m.Content, "Draw")) {
				last = m
				return true
			}
		}
		return false
	})
	return last
}
