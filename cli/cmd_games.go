package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	shipped "arbiter/games"
	"arbiter/rules"
	"arbiter/rules/described"
	"arbiter/rules/games"
)

// runGames is `arbiter games list` (every game Arbiter knows, GAMES_DIR's
// included) and `arbiter games check FILE [--set k=v]... [--seed S]`: it
// reads a game description, reports what is wrong at its line and column,
// and otherwise prints perft to depth 3 (less for wide games: see maxCheckLeaves) and a random game with its
// result. check exits 1 when the file has an error.
func runGames(_ context.Context, args []string, stdout, stderr io.Writer) int {
	const usage = "usage: arbiter games list | arbiter games check FILE [--set key=value]... [--seed S]"
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	switch args[0] {
	case "list":
		if len(args) > 1 {
			fmt.Fprintln(stderr, usage)
			return 2
		}
		return listGames(gameRegistry(stderr), stdout)
	case "check":
		fs := flag.NewFlagSet("games check", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var set optionFlags
		fs.Var(&set, "set", "a game option as key=value (repeatable)")
		seed := fs.Uint64("seed", 1, "the random game's seed")
		rest, err := parseInterleaved(fs, args[1:])
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, usage)
			return 0
		}
		if err != nil || len(rest) != 1 {
			if err != nil {
				fmt.Fprintf(stderr, "arbiter games check: %v\n", err)
			}
			fmt.Fprintln(stderr, usage)
			return 2
		}
		if err := checkGame(rest[0], rules.Options(set), *seed, stdout); err != nil {
			fmt.Fprintf(stderr, "arbiter games check: %v\n", err)
			return 1
		}
		return 0
	}
	fmt.Fprintf(stderr, "arbiter games: unknown command %q\n%s\n", args[0], usage)
	return 2
}

// listGames prints a table, one line a game under a heading: name, title,
// players, where it comes from, options ("-" for none), each column as
// wide as its widest cell.
func listGames(reg *rules.Registry, stdout io.Writer) int {
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "GAME\tTITLE\tPLAYERS\tFROM\tOPTIONS")
	for _, d := range reg.Definitions() {
		source := "built in"
		if g, err := d.New(defaults(d)); err == nil {
			if dg, ok := g.(interface{ Spec() *described.Spec }); ok {
				source = "described in " + dg.Spec().File
			}
		}
		var opts []string
		for _, o := range d.Options {
			opts = append(opts, o.Key+"="+o.Default)
		}
		if len(opts) == 0 {
			opts = []string{"-"}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s against %s\t%s\t%s\n", d.Name, d.Title, d.Players[0], d.Players[1], source, strings.Join(opts, " "))
	}
	if err := tw.Flush(); err != nil {
		return 1
	}
	return 0
}

// defaults returns a definition's options at their defaults.
func defaults(d rules.Definition) rules.Options {
	opts := rules.Options{}
	for _, o := range d.Options {
		opts[o.Key] = o.Default
	}
	return opts
}

// maxCheckPlies ends the random game of check: a described game that has
// not ended by then lacks an ending.
const maxCheckPlies = 10000

// maxCheckLeaves bounds check's perft: a depth is walked only while the
// one before it counted at most this many sequences (Gomoku's 50,400 at
// depth 2 would make 11 million at depth 3, each move read back).
const maxCheckLeaves = 20000

// checkGame loads the description in file and plays it: perft to depth 3,
// or less where the last depth counted more than maxCheckLeaves (the
// moves of each depth that counts at most maxCheckLeaves must have
// distinct texts that read back as the same moves), and one random game
// to its end.
func checkGame(file string, opts rules.Options, seed uint64, stdout io.Writer) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	spec, err := described.Load(file, data)
	if err != nil {
		return err
	}
	if _, err := games.Registry().Lookup(spec.Name); err == nil {
		if own, _ := shipped.Files.ReadFile(spec.Name + described.Ext); !bytes.Equal(own, data) {
			return fmt.Errorf("%s: the name %s is taken by a game Arbiter has already: rename it", file, spec.Name)
		}
	}
	g, err := spec.Definition().New(opts)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	overflowed := func() bool {
		o, ok := described.Of(g)
		return ok && o.Overflowed()
	}
	players := spec.Players()
	header := fmt.Sprintf("%s: %s, %s against %s", spec.Name, spec.Title, players[0], players[1])
	if len(g.Options()) > 0 {
		header += ", options " + g.Options().String()
	}
	fmt.Fprintln(stdout, header)
	tooMany := fmt.Errorf("%s: a position has more than %d legal moves, more than Arbiter's move lists hold", file, rules.MaxMoves)
	for depth, last := 1, uint64(0); depth <= 3 && last <= maxCheckLeaves; depth++ {
		n := rules.Perft(g, depth)
		if overflowed() {
			return tooMany
		}
		// Every move of a depth is written and read back while they are
		// few: reading one scans its position's moves, so the thousands of
		// positions of a wide game (Amazons) would take minutes.
		if n <= maxCheckLeaves {
			if err := checkNotation(g, depth); err != nil {
				return fmt.Errorf("%s: %w", file, err)
			}
		}
		fmt.Fprintf(stdout, "perft %d %d\n", depth, n)
		last = n
	}
	rng := rand.New(rand.NewPCG(seed, 0x9A3E))
	var list rules.MoveList
	var moves []string
	for g.Ply() < maxCheckPlies {
		g.Moves(&list)
		if list.N == 0 {
			break
		}
		m := list.Moves[rng.IntN(list.N)]
		moves = append(moves, g.FormatMove(m))
		g.Play(m)
	}
	if overflowed() {
		return tooMany
	}
	out := g.Outcome()
	if out.Result == rules.Ongoing {
		return fmt.Errorf("%s: a random game did not end in %d moves: add an ending (for example when: turns)", file, maxCheckPlies)
	}
	result := "draw"
	if w, ok := out.Result.Winner(); ok {
		result = g.PlayerName(w) + " wins"
	}
	fmt.Fprintf(stdout, "random game (seed %d): %d moves, %s: %s\n", seed, len(moves), result, out.Reason)
	fmt.Fprintf(stdout, "moves: %s\n", strings.Join(moves, "; "))
	return nil
}

// checkNotation walks the positions up to depth plies from g's and checks
// that each position's moves have distinct texts, each of which ParseMove
// reads back as the same move.
func checkNotation(g rules.Game, depth int) error {
	if depth <= 1 {
		return checkTexts(g)
	}
	var list rules.MoveList
	g.Moves(&list)
	moves := append([]rules.Move(nil), list.Slice()...)
	for _, m := range moves {
		g.Play(m)
		err := checkNotation(g, depth-1)
		g.Undo()
		if err != nil {
			return err
		}
	}
	return nil
}

// checkTexts checks the moves of g's position.
func checkTexts(g rules.Game) error {
	var list rules.MoveList
	g.Moves(&list)
	seen := map[string]bool{}
	for _, m := range list.Slice() {
		text := g.FormatMove(m)
		if seen[text] {
			return fmt.Errorf("after %s two moves are both written %q: two move rules give the same move; make them differ",
				historyText(g), text)
		}
		seen[text] = true
		back, err := g.ParseMove(text)
		if err != nil || back != m {
			return fmt.Errorf("after %s the move %q does not read back: %v", historyText(g), text, err)
		}
	}
	return nil
}

// historyText writes the moves played, "the start" before the first.
func historyText(g rules.Game) string {
	if g.Ply() == 0 {
		return "the start"
	}
	c := g.Clone()
	texts := make([]string, g.Ply())
	for i := g.Ply() - 1; i >= 0; i-- {
		m := c.History()[i]
		c.Undo()
		texts[i] = c.FormatMove(m)
	}
	return strconv.Quote(strings.Join(texts, "; "))
}
