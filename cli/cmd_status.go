package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"arbiter/render"
	"arbiter/rules"
)

// runStatus is `arbiter status GAME [--moves "M1;M2"] [--set k=v]...`: it
// plays the moves, prints the board, the scores where the game has them
// (`score: A B`, player 1 first) and, last, `result: p1|p2|draw|ongoing
// <reason>`.
func runStatus(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var pos positionFlags
	pos.register(fs)
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(rest) != 1 {
		fmt.Fprintln(stderr, "usage: arbiter status GAME [--moves \"M1;M2;...\"] [--set key=value]...")
		return 2
	}
	g, err := pos.game(gameRegistry(stderr), rest[0])
	if err != nil {
		fmt.Fprintf(stderr, "arbiter status: %v\n", err)
		return 2
	}
	fmt.Fprint(stdout, render.Text(g, render.Options{}))
	fmt.Fprintln(stdout, statusLines(g))
	return 0
}

// statusLines returns the score line, where the game has scores, and the
// result line.
func statusLines(g rules.Game) string {
	out := g.Outcome()
	reason := out.Reason
	if out.Result == rules.Ongoing {
		reason = g.PlayerName(g.ToMove()) + " to move"
	}
	line := fmt.Sprintf("result: %s %s", out.Result, reason)
	if out.HasScores {
		line = fmt.Sprintf("score: %d %d\n%s", out.Scores[0], out.Scores[1], line)
	}
	return line
}
