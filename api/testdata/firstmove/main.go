// Command firstmove is a test program for the programs' API: it speaks
// the engine protocol (docs/reference/engine-protocol.md) on stdin and
// stdout and always plays the first legal move, so that a test knows what
// it plays.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"arbiter/rules"
	"arbiter/rules/games"
)

func main() {
	reg := games.Registry()
	var name, options string
	var g rules.Game
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		word, rest, _ := strings.Cut(strings.TrimSpace(in.Text()), " ")
		switch word {
		case "game":
			name = rest
		case "options":
			options = rest
		case "isready":
			opts, err := rules.ParseOptions(options)
			if err == nil {
				g, err = reg.New(name, opts)
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, "firstmove:", err)
				os.Exit(3)
			}
			fmt.Println("ready")
		case "played":
			m, err := g.ParseMove(rest)
			if err != nil {
				fmt.Fprintln(os.Stderr, "firstmove:", err)
				os.Exit(3)
			}
			g.Play(m)
		case "go":
			var list rules.MoveList
			g.Moves(&list)
			m := list.Moves[0]
			fmt.Println("info firstmove")
			fmt.Println("move", g.FormatMove(m))
			g.Play(m)
		case "quit":
			return
		}
	}
}
