package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"arbiter/internal/atomicfile"
	"arbiter/store"
	"arbiter/store/boltstore"
	"arbiter/term"
)

// storeUsage is `arbiter store`'s synopsis.
const storeUsage = "usage: arbiter store export FILE | store import FILE | store backup [FILE] | store restore FILE | store forget USER"

// runStore is `arbiter store VERB`:
//
//	export FILE    everything the configured store holds (games, archive,
//	               ratings, settings, queued bot turns) to a file in the
//	               export format of
//	               docs/reference/export-formats.md
//	import FILE    the same, from such a file into an empty store
//	backup [FILE]  a consistent copy of the embedded store's database,
//	               taken through the running process when one holds it
//	               (default FILE: DATA_DIR/backup/manual-TIME.db, which the
//	               rotation of the periodic backups leaves alone)
//	restore FILE   put such a copy in place of DATA_DIR/arbiter.db, keeping
//	               the database it replaces; refused while a process runs
//	               the store
//	forget USER    remove or anonymise everything the store keeps of the
//	               person with that user id (store.Store's Forget), and the
//	               term archives in DATA_DIR/terms: their games then show
//	               the former student; backups made before still hold
//	               them. The embedded store in use is asked to do it
//	               through the running process, as backup is
//
// With REDIS_URL set, export and import work on Redis, else on the
// embedded store under DATA_DIR (locked to one process: export and import
// need the bot stopped, and say so).
func runStore(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("store", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	verb, path := fs.Arg(0), fs.Arg(1)
	switch {
	case (verb == "export" || verb == "import" || verb == "restore") && fs.NArg() == 2:
	case verb == "backup" && fs.NArg() <= 2:
	case verb == "forget" && fs.NArg() == 2:
	default:
		fmt.Fprintln(stderr, storeUsage)
		return 2
	}
	cfg, err := loadConfig()
	if err != nil {
		fmt.Fprintf(stderr, "arbiter store: %v\n", err)
		return 2
	}
	if verb == "backup" || verb == "restore" {
		if cfg.RedisURL != "" {
			fmt.Fprintf(stderr, "arbiter store %s: REDIS_URL is set: Redis keeps its own copies (its RDB snapshot and append-only file); see docs/how-to/backup-restore.md\n", verb)
			return 2
		}
		if verb == "backup" {
			return storeBackup(ctx, cfg, path, stdout, stderr)
		}
		return storeRestore(cfg, path, stdout, stderr)
	}
	if verb == "forget" && cfg.RedisURL == "" {
		if locked, pid := boltstore.Locked(cfg.DataDir); locked {
			rep, archives, err := forgetThroughSocket(ctx, cfg.DataDir, path)
			if err != nil && !errors.Is(err, store.ErrInvalid) {
				err = fmt.Errorf("the store is in use by process %d, which did not forget: %w", pid, err)
			}
			return forgetAnswer(rep, archives, err, stdout, stderr)
		}
	}
	log := newLogger(stderr, cfg.LogLevel)
	st, reg, err := openStore(ctx, cfg, log)
	if err != nil {
		fmt.Fprintf(stderr, "arbiter store %s: %v\n", verb, err)
		return 1
	}
	defer closeStore(ctx, st, stderr, "arbiter store "+verb)
	if verb == "forget" {
		return storeForget(ctx, st, cfg.DataDir, path, stdout, stderr)
	}
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

// storeBackup writes a backup of the embedded store to path: through the
// running process that holds the store, or from the store opened here.
func storeBackup(ctx context.Context, cfg config, path string, stdout, stderr io.Writer) int {
	if path == "" {
		// Not named as the periodic backups, which rotate.
		path = filepath.Join(cfg.DataDir, boltstore.BackupDir, "manual-"+time.Now().UTC().Format("20060102T150405Z")+".db")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		fmt.Fprintf(stderr, "arbiter store backup: %v\n", err)
		return 1
	}
	if locked, pid := boltstore.Locked(cfg.DataDir); locked {
		n, err := backupThroughSocket(ctx, cfg.DataDir, path)
		if err != nil {
			fmt.Fprintf(stderr, "arbiter store backup: the store is in use by process %d, which did not send a backup: %v\n", pid, err)
			return 1
		}
		fmt.Fprintf(stdout, "backed up %d bytes to %s (from the running process %d)\n", n, path, pid)
		return 0
	}
	st, _, err := openStore(ctx, cfg, newLogger(stderr, cfg.LogLevel))
	if err != nil {
		fmt.Fprintf(stderr, "arbiter store backup: %v\n", err)
		return 1
	}
	defer closeStore(ctx, st, stderr, "arbiter store backup")
	b, ok := st.(*boltstore.Bolt)
	if !ok {
		fmt.Fprintf(stderr, "arbiter store backup: this store (%T) has no backup here\n", st)
		return 1
	}
	if err := b.Backup(ctx, path); err != nil {
		fmt.Fprintf(stderr, "arbiter store backup: %v\n", err)
		return 1
	}
	info, _ := os.Stat(path)
	fmt.Fprintf(stdout, "backed up %d bytes to %s\n", info.Size(), path)
	return 0
}

// storeRestore puts the backup file in place of the embedded store's
// database.
func storeRestore(cfg config, file string, stdout, stderr io.Writer) int {
	kept, err := boltstore.Restore(cfg.DataDir, file)
	if err != nil {
		fmt.Fprintf(stderr, "arbiter store restore: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "restored %s into %s\n", file, filepath.Join(cfg.DataDir, boltstore.DatabaseFile))
	if kept != "" {
		fmt.Fprintf(stdout, "the database it replaced is kept as %s\n", kept)
	}
	return 0
}

// exportFile writes the export to path, whole or not at all.
func exportFile(ctx context.Context, p store.Porter, path string) (int, error) {
	var n int
	err := atomicfile.Replace(path, func(w io.Writer) error {
		var err error
		n, err = store.Export(ctx, p, w, time.Now())
		return err
	})
	return n, err
}

// storeForget forgets the person with user id user in st and in the
// term archives under DATA_DIR/terms.
func storeForget(ctx context.Context, st store.Store, dataDir, user string, stdout, stderr io.Writer) int {
	rep, archives, err := forgetPerson(ctx, st, dataDir, user)
	return forgetAnswer(rep, archives, err, stdout, stderr)
}

// forgetAnswer reports what forgetting a person did, and returns the exit
// status.
func forgetAnswer(rep store.ForgetReport, archives int, err error, stdout, stderr io.Writer) int {
	if err != nil {
		fmt.Fprintf(stderr, "arbiter store forget: %v\n", err)
		if errors.Is(err, store.ErrInvalid) {
			return 2
		}
		return 1
	}
	if rep == (store.ForgetReport{}) && archives == 0 {
		fmt.Fprintln(stdout, "the store and the term archives hold nothing of that person")
		return 0
	}
	fmt.Fprintf(stdout, "forgotten: %d entries rewritten (their games show the former student), %d deleted (ratings, tokens, settings), %d term archives rewritten\n",
		rep.Rewritten, rep.Deleted, archives)
	fmt.Fprintln(stdout, "backups and exports made before this still hold them: see docs/explanation/security.md")
	return 0
}

// forgetPerson forgets the person with user id user in st and in the term
// archives under dataDir/terms, and returns what it changed there.
func forgetPerson(ctx context.Context, st store.Store, dataDir, user string) (store.ForgetReport, int, error) {
	sc, err := store.NewScrubber(user)
	if err != nil {
		return store.ForgetReport{}, 0, err
	}
	terms := filepath.Join(dataDir, term.Dir)
	// The names the archives and the store give the person, before the
	// store forgets them.
	if err := term.LearnArchives(terms, sc); err != nil {
		return store.ForgetReport{}, 0, fmt.Errorf("the term archives: %w", err)
	}
	if p, ok := st.(store.Porter); ok {
		if err := sc.LearnStore(ctx, p); err != nil {
			return store.ForgetReport{}, 0, err
		}
	}
	rep, err := st.Forget(ctx, user)
	if err != nil {
		return rep, 0, err
	}
	archives, err := term.ForgetArchives(terms, sc)
	if err != nil {
		return rep, archives, fmt.Errorf("the store has forgotten them, but the term archives in %s were not all rewritten: %w", terms, err)
	}
	return rep, archives, nil
}
