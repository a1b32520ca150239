package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"arbiter/engine"
)

// runEngine is `arbiter engine [GAME] [--level L] [--hash MB] [--seed S]`: Arbiter's
// engine as a program of the engine protocol, on standard input and output,
// for one game.
func runEngine(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("engine", flag.ContinueOnError)
	fs.SetOutput(stderr)
	level := fs.Int("level", 5, "strength, 1 (beginner) to 5 (full strength)")
	hash := fs.Int("hash", engine.DefaultTableMB, "transposition table size in MB (a search of a short move time uses 1 MB of it for each 20 ms)")
	seed := fs.Uint64("seed", 1, "seed of the lower levels' random choices")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(rest) > 1 || *level < 1 || *level > 5 {
		fmt.Fprintln(stderr, "usage: arbiter engine [GAME] [--level 1..5] [--hash MB] [--seed S]  (speaks docs/reference/engine-protocol.md on stdin/stdout)")
		return 2
	}
	reg := gameRegistry(stderr)
	game := ""
	if len(rest) == 1 {
		def, err := reg.Lookup(rest[0])
		if err != nil {
			fmt.Fprintf(stderr, "arbiter engine: %v\n", err)
			return 2
		}
		game = def.Name
	}
	p, err := engine.NewPlayer(fmt.Sprintf("arbiter:%d", *level), engine.PlayerOptions{Registry: reg, Seed: *seed, TableMB: *hash})
	if err != nil {
		fmt.Fprintf(stderr, "arbiter engine: %v\n", err)
		return 2
	}
	if err := engine.Serve(ctx, os.Stdin, stdout, stderr, reg, game, p); err != nil {
		fmt.Fprintf(stderr, "arbiter engine: %v\n", err)
		return 1
	}
	return 0
}
