package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"arbiter/commands"
)

// runExport is `arbiter export grades --guild G [--from DATE] [--to DATE]
// [--out DIR]`: a course period's grades from the archived games of the
// store the configuration names (REDIS_URL or DATA_DIR): a CSV row a player
// and game (games, W/D/L, points, timeouts, forfeits, rating) on standard
// output, or grades.csv and games.csv (a row a game) in DIR.
func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	const usage = "usage: arbiter export grades --guild GUILD [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--out DIR]"
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	guild := fs.String("guild", "", "the Discord server (guild) id, or the console's guild")
	fromText := fs.String("from", "", "the period's first day (UTC), e.g. 2026-01-12")
	toText := fs.String("to", "", "the period's last day (UTC), included")
	out := fs.String("out", "", "write grades.csv and games.csv in this directory")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(rest) != 1 || rest[0] != "grades" || *guild == "" {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	var from, to time.Time
	for _, d := range []struct {
		text string
		t    *time.Time
		end  bool
	}{{*fromText, &from, false}, {*toText, &to, true}} {
		if d.text == "" {
			continue
		}
		t, err := time.Parse(time.DateOnly, d.text)
		if err != nil {
			fmt.Fprintf(stderr, "arbiter export: %q: write a day as YYYY-MM-DD\n", d.text)
			return 2
		}
		if d.end {
			t = t.AddDate(0, 0, 1) // the last day is included
		}
		*d.t = t
	}
	cfg, err := loadConfig()
	if err != nil {
		fmt.Fprintf(stderr, "arbiter export: %v\n", err)
		return 2
	}
	st, _, err := openStore(ctx, cfg, newLogger(stderr, cfg.LogLevel))
	if err != nil {
		fmt.Fprintf(stderr, "arbiter export: %v\n", err)
		return 1
	}
	defer closeStore(ctx, st, stderr, "arbiter export")
	rows, games, err := commands.Grades(ctx, st, *guild, from, to)
	if err != nil {
		fmt.Fprintf(stderr, "arbiter export: %v\n", err)
		return 1
	}
	if *out == "" {
		if err := commands.WriteGradesCSV(stdout, rows); err != nil {
			fmt.Fprintf(stderr, "arbiter export: %v\n", err)
			return 1
		}
		return 0
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintf(stderr, "arbiter export: %v\n", err)
		return 1
	}
	for name, write := range map[string]func(io.Writer) error{
		"grades.csv": func(w io.Writer) error { return commands.WriteGradesCSV(w, rows) },
		"games.csv":  func(w io.Writer) error { return commands.WriteGamesCSV(w, games) },
	} {
		f, err := os.Create(filepath.Join(*out, name))
		if err == nil {
			err = write(f)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "arbiter export: %v\n", err)
			return 1
		}
	}
	fmt.Fprintf(stdout, "%d players, %d games: %s\n", len(rows), len(games), *out)
	return 0
}
