package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"arbiter/store"
	"arbiter/term"
)

// runTerm is `arbiter term close NAME --guild G [--dir DIR]`: archive the
// server's term (grades, games and their records, ratings, vacation days
// used) into DIR/GUILD-NAME.zip (default DIR: DATA_DIR/terms), then
// clear the server's ratings and give everyone their vacation days back
// (package term). The store is the one the configuration names; the
// embedded store needs the bot stopped, as export does (/referee
// term-close does the same from Discord while it runs).
func runTerm(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	const usage = "usage: arbiter term close NAME --guild GUILD [--dir DIR]"
	fs := flag.NewFlagSet("term", flag.ContinueOnError)
	fs.SetOutput(stderr)
	guild := fs.String("guild", "", "the Discord server (guild) id, or the console's guild")
	dir := fs.String("dir", "", "write the archive in this directory (default DATA_DIR/terms)")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(rest) != 2 || rest[0] != "close" || *guild == "" {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	name := rest[1]
	if err := term.CheckName(name); err != nil {
		fmt.Fprintf(stderr, "arbiter term close: %v\n", err)
		return 2
	}
	cfg, err := loadConfig()
	if err != nil {
		fmt.Fprintf(stderr, "arbiter term close: %v\n", err)
		return 2
	}
	if *dir == "" {
		*dir = filepath.Join(cfg.DataDir, term.Dir)
	}
	log := newLogger(stderr, cfg.LogLevel)
	st, _, err := openStore(ctx, cfg, log)
	if err != nil {
		fmt.Fprintf(stderr, "arbiter term close: %v\n", err)
		return 1
	}
	defer closeStore(ctx, st, stderr, "arbiter term close")
	c := &term.Closer{Store: st, Dir: *dir, Log: log}
	done, err := c.Close(ctx, *guild, name)
	if err != nil {
		fmt.Fprintf(stderr, "arbiter term close: %v\n", err)
		if errors.Is(err, term.ErrExists) || errors.Is(err, store.ErrInvalid) {
			return 2
		}
		return 1
	}
	fmt.Fprintf(stdout, "closed term %s of guild %s: %d finished games and %d ratings archived in %s; ratings cleared, %d people's vacation days given back\n",
		name, *guild, done.Games, done.Ratings, done.File, done.Vacations)
	return 0
}
