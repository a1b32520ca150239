package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"arbiter/store"
	"arbiter/store/boltstore"
)

// runStore is `arbiter store export FILE` and `arbiter store import FILE`:
// everything the configured store holds (games, archive, ratings, settings,
// queued bot turns) to a file in the export format of docs/reference/export-formats.md, or
// from one into an empty store. With REDIS_URL set it is Redis, else the
// embedded store under DATA_DIR (stop the bot first: the directory is
// locked to one process).
func runStore(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("store", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 2 || (fs.Arg(0) != "export" && fs.Arg(0) != "import") {
		fmt.Fprintln(stderr, "usage: arbiter store export FILE | arbiter store import FILE")
		return 2
	}
	verb, path := fs.Arg(0), fs.Arg(1)
	cfg, err := loadConfig()
	if err != nil {
		fmt.Fprintf(stderr, "arbiter store: %v\n", err)
		return 2
	}
	log := newLogger(stderr, cfg.LogLevel)
	st, reg, err := openStore(ctx, cfg, log)
	if err != nil {
		fmt.Fprintf(stderr, "arbiter store %s: %v\n", verb, err)
		return 1
	}
	defer closeStore(ctx, st, stderr, "arbiter store "+verb)
	p, ok := st.(store.Porter)
	if !ok {
		fmt.Fprintf(stderr, "arbiter store %s: this store (%T) cannot be exported or imported\n", verb, st)
		return 1
	}
	var n int
	if verb == "export" {
		n, err = exportFile(ctx, p, path)
	} else {
		n, err = store.Import(ctx, p, reg, func() (io.ReadCloser, error) { return os.Open(path) })
	}
	if err != nil {
		fmt.Fprintf(stderr, "arbiter store %s: %s: %v\n", verb, path, err)
		return 1
	}
	fmt.Fprintf(stdout, "%sed %d items %s %s\n", verb, n, map[string]string{"export": "to", "import": "from"}[verb], path)
	return 0
}

// exportFile writes the export to path, whole or not at all.
func exportFile(ctx context.Context, p store.Porter, path string) (int, error) {
	var n int
	err := boltstore.WriteFileAtomic(path, func(w io.Writer) error {
		var err error
		n, err = store.Export(ctx, p, w, time.Now())
		return err
	})
	return n, err
}
