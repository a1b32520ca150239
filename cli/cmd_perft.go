package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"arbiter/rules"
)

// runPerft is `arbiter perft GAME DEPTH [--moves "M1;M2"] [--set k=v]...
// [--divide] [--bench]`: the number of move sequences of length DEPTH after
// the moves, as the last line. It stops, with status 1 and no count, when
// ctx ends (Ctrl-C, SIGTERM).
func runPerft(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("perft", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var pos positionFlags
	pos.register(fs)
	divide := fs.Bool("divide", false, "first print each legal move with its count")
	bench := fs.Bool("bench", false, "also print the time taken and nodes per second")
	const usage = "usage: arbiter perft GAME DEPTH [--moves \"M1;M2;...\"] [--set key=value]... [--divide] [--bench]"
	fs.SetOutput(io.Discard)
	rest, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stdout)
		fmt.Fprintln(stdout, usage)
		fs.PrintDefaults()
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "arbiter perft: %v\n%s\n", err, usage)
		return 2
	}
	if len(rest) != 2 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	depth, err := strconv.Atoi(rest[1])
	if err != nil || depth < 0 || depth > 64 {
		fmt.Fprintf(stderr, "arbiter perft: depth %q: give a whole number from 0 to 64\n", rest[1])
		return 2
	}
	g, err := pos.game(gameRegistry(stderr), rest[0])
	if err != nil {
		fmt.Fprintf(stderr, "arbiter perft: %v\n", err)
		return 2
	}
	start := time.Now()
	var total uint64
	if *divide && depth > 0 {
		moves, counts, err := rules.DivideContext(ctx, g, depth)
		if err != nil {
			fmt.Fprintf(stderr, "arbiter perft: stopped: %v\n", err)
			return 1
		}
		for i, m := range moves {
			fmt.Fprintf(stdout, "%s: %d\n", g.FormatMove(m), counts[i])
			total += counts[i]
		}
	} else {
		if total, err = rules.PerftContext(ctx, g, depth); err != nil {
			fmt.Fprintf(stderr, "arbiter perft: stopped: %v\n", err)
			return 1
		}
	}
	if *bench {
		elapsed := time.Since(start)
		fmt.Fprintf(stdout, "time: %s, %.0f nodes/s\n", elapsed.Round(time.Microsecond), float64(total)/elapsed.Seconds())
	}
	fmt.Fprintln(stdout, total)
	return 0
}

// positionFlags are the flags that set up a position: the options and the
// moves played from the start.
type positionFlags struct {
	moves string
	set   optionFlags
}

func (p *positionFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&p.moves, "moves", "", "moves to play from the start, in canonical text, separated by ;")
	fs.Var(&p.set, "set", "a game option as key=value (repeatable)")
}

// game starts the named game with the options and plays the moves. Upthrust
// uses colours=gb unless the options say otherwise, so that counts and
// positions are the same on every run.
func (p *positionFlags) game(reg *rules.Registry, name string) (rules.Game, error) {
	def, err := reg.Lookup(name)
	if err != nil {
		return nil, err
	}
	opts := rules.Options(p.set).Clone()
	if def.Name == "upthrust" && opts["colours"] == "" && opts["seed"] == "" {
		opts["colours"] = "gb"
	}
	var moves []string
	for _, m := range strings.Split(p.moves, ";") {
		if m = strings.TrimSpace(m); m != "" {
			moves = append(moves, m)
		}
	}
	return reg.Replay(def.Name, opts, moves)
}

// optionFlags collects repeated --set key=value flags.
type optionFlags rules.Options

func (o *optionFlags) String() string { return rules.Options(*o).String() }

func (o *optionFlags) Set(s string) error {
	parsed, err := rules.ParseOptions(s)
	if err != nil {
		return err
	}
	if *o == nil {
		*o = optionFlags{}
	}
	for k, v := range parsed {
		if _, dup := (*o)[k]; dup {
			return fmt.Errorf("option %s is given twice", k)
		}
		(*o)[k] = v
	}
	return nil
}

// parseInterleaved parses flags that may come before, between or after the
// positional arguments, and returns the positional ones.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	// A negative number ("-1") is an argument, not a flag: the subcommand
	// says what is wrong with it.
	if i := slices.IndexFunc(args, isNegativeNumber); i >= 0 {
		head, err := parseInterleaved(fs, args[:i])
		if err != nil {
			return nil, err
		}
		tail, err := parseInterleaved(fs, args[i+1:])
		if err != nil {
			return nil, err
		}
		return append(append(head, args[i]), tail...), nil
	}
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return positional, nil
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// isNegativeNumber reports whether arg is a number with a minus sign.
func isNegativeNumber(arg string) bool {
	_, err := strconv.ParseFloat(arg, 64)
	return len(arg) > 1 && arg[0] == '-' && err == nil
}
