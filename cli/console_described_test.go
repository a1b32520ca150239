package cli

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"arbiter/rules"
	"arbiter/rules/games"
)

// TestConsoleDescribedGames plays a whole game of each game described in
// a file in the console, between two people at one keyboard, with an emoji
// board on the way; each game ends with its result.
func TestConsoleDescribedGames(t *testing.T) {
	t.Parallel()
	bin := buildArbiter(t)
	reg := games.Registry()
	rng := rand.New(rand.NewPCG(8, 9))
	var script strings.Builder
	var results []string
	for _, name := range []string{"breakthrough", "othello", "connect4"} {
		g, err := reg.New(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&script, "/as alice\n/play game:%s opponent:bob\n/as bob\n/accept\n", name)
		var list rules.MoveList
		for {
			g.Moves(&list)
			if list.N == 0 {
				break
			}
			m := list.Moves[rng.IntN(list.N)]
			who := map[rules.Player]string{rules.P1: "alice", rules.P2: "bob"}[g.ToMove()]
			fmt.Fprintf(&script, "/as %s\n/move %s\n", who, g.FormatMove(m))
			if g.Ply() == 4 {
				script.WriteString("/board style:emoji\n")
			}
			g.Play(m)
		}
		out := g.Outcome()
		result := "Draw"
		if w, ok := out.Result.Winner(); ok {
			result = fmt.Sprintf("%s (%s) wins", g.PlayerName(w), map[rules.Player]string{rules.P1: "alice", rules.P2: "bob"}[w])
		}
		results = append(results, result+": "+out.Reason)
	}
	transcript := runConsoleBinary(t, bin, script.String(), "DATA_DIR="+t.TempDir())
	for _, want := range append(results, "White (alice) played ", "Black (alice) played ", "Red (alice) played ", "⚪", "🟩", "🔴") {
		if !strings.Contains(transcript, want) {
			t.Errorf("transcript lacks %q:\n%s", want, transcript)
		}
	}
	if strings.Contains(transcript, "(only you)") {
		t.Errorf("a move was refused:\n%s", transcript)
	}
}
