package cli

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
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
	for _, name := range []string{"breakthrough", "othello", "connect4", "kalah", "dots"} {
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
	for _, want := range append(results, "White (alice) played ", "Black (alice) played ", "Red (alice) played ", "South (alice) played ", "North (bob) played ", "seeds in store", "⚪", "🟩", "🔴", "⚫") {
		if !strings.Contains(transcript, want) {
			t.Errorf("transcript lacks %q:\n%s", want, transcript)
		}
	}
	if strings.Contains(transcript, "(only you)") {
		t.Errorf("a move was refused:\n%s", transcript)
	}
}

// TestConsoleGamesDir: the console knows GAMES_DIR's games: the tutorial's
// Clobber shows its file's rules, starts against the bot and takes a move;
// a refused file is reported and the console still runs.
func TestConsoleGamesDir(t *testing.T) {
	t.Parallel()
	bin := buildArbiter(t)
	dir, _ := clobberDir(t)
	if err := os.WriteFile(filepath.Join(dir, "broken.yaml"), []byte("name: broken\nplayers: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runConsoleBinary(t, bin, "/rules game:clobber\n/play game:clobber level:1\n/move a1 b1\n",
		"DATA_DIR="+t.TempDir(), "GAMES_DIR="+dir, "LOG_LEVEL=error")
	for _, want := range []string{
		"Clobber (White against Black; the class allows 5s a move)",
		"onto an enemy stone, which is removed",
		"Clobber: White (alice) against Black (Arbiter, level 1)",
		"White (alice) played a1 b1, removing Black's piece at b1.",
		"Black (Arbiter, level 1) plays ",
		filepath.Join(dir, "broken.yaml") + `:1:1: the description needs the key "rules"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("transcript lacks %q:\n%s", want, out)
		}
	}
}
