package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"arbiter/engine"
	"arbiter/rules"
)

// runBench is `arbiter bench [--json]`: for each game, perft and search
// nodes per second, the depth reached in a second from the start and from a
// middle-game position, and the worst overrun of a short move time.
func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "end with the figures as one line of JSON")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	reg := gameRegistry(stderr)
	names := reg.Names()
	if len(rest) > 0 {
		names = rest
	}
	cfg := engine.DefaultBench()
	fmt.Fprintf(stdout, "%-12s %12s %12s %9s %9s %12s\n", "game", "perft n/s", "search n/s", "depth 1s", "mid 1s",
		fmt.Sprintf("overrun/%d", cfg.ShortSearches))
	rows := map[string]engine.BenchRow{}
	for _, name := range names {
		def, err := reg.Lookup(name)
		if err != nil {
			fmt.Fprintf(stderr, "arbiter bench: %v\n", err)
			return 2
		}
		opts := rules.Options{}
		if def.Name == "upthrust" {
			opts["colours"] = "gb"
		}
		g, err := reg.New(def.Name, opts)
		if err != nil {
			fmt.Fprintf(stderr, "arbiter bench: %v\n", err)
			return 1
		}
		row, err := engine.Bench(ctx, g, cfg)
		if err != nil {
			fmt.Fprintf(stderr, "arbiter bench: %s: %v\n", def.Name, err)
			return 1
		}
		rows[def.Name] = row
		fmt.Fprintf(stdout, "%-12s %12.0f %12.0f %9d %9d %+10.1fms\n", def.Name, row.PerftNPS, row.SearchNPS,
			row.Depth1s, row.Depth1sMid, row.MaxOverrunMS)
	}
	fmt.Fprintf(stdout, "(overrun: the worst time beyond the move time over %d searches of %v each; negative: always early)\n", cfg.ShortSearches, cfg.ShortTime)
	if *asJSON {
		line, err := json.Marshal(rows)
		if err != nil {
			fmt.Fprintf(stderr, "arbiter bench: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, strings.TrimSpace(string(line)))
	}
	return 0
}
