package boltstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"arbiter/internal/atomicfile"
	"arbiter/store"
)

// BackupDir is where the periodic backups go, in the data directory.
const BackupDir = "backup"

// WriteBackup writes a consistent copy of the database to w while the
// store goes on serving (one read transaction: writers are not held up).
// Every write acknowledged before it was called is in the copy. sized,
// when not nil, is told the copy's size in bytes before it is written.
func (s *Bolt) WriteBackup(ctx context.Context, w io.Writer, sized func(n int64)) error {
	return s.view(ctx, "backup", func(tx *bolt.Tx) error {
		if sized != nil {
			sized(tx.Size())
		}
		_, err := tx.WriteTo(w)
		return err
	})
}

// backupName is the file name of a periodic backup taken at t; names sort
// as their times.
func backupName(t time.Time) string {
	return "arbiter-" + t.UTC().Format("20060102T150405.000Z") + ".db"
}

// rotatingBackup writes a backup into dir, named by its time, and removes
// the oldest beyond keep (keep < 1 keeps them all).
func (s *Bolt) rotatingBackup(ctx context.Context, dir string, keep int) (string, error) {
	path := filepath.Join(dir, backupName(time.Now()))
	if err := s.Backup(ctx, path); err != nil {
		return "", err
	}
	if keep < 1 {
		return path, nil
	}
	old, err := Backups(dir)
	if err != nil {
		return path, err
	}
	for len(old) > keep {
		if err := os.Remove(old[0]); err != nil {
			return path, fmt.Errorf("remove an old backup: %w", err)
		}
		old = old[1:]
	}
	return path, nil
}

// Backups lists the periodic backups in dir, oldest first.
func Backups(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if n := e.Name(); e.Type().IsRegular() && strings.HasPrefix(n, "arbiter-") && strings.HasSuffix(n, ".db") {
			out = append(out, filepath.Join(dir, n))
		}
	}
	slices.Sort(out)
	return out, nil
}

// Restore puts the backup file in place of the database of the data
// directory dir, for a store that is not running: it refuses while
// another process holds the directory (a *LockedError) and a file that is
// not a database this build reads, and keeps the database it replaces
// beside it, renamed; it returns that name ("" when there was none).
func Restore(dir, file string) (kept string, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("restore: create the data directory: %w", err)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return "", fmt.Errorf("restore: %w", err)
	}
	defer unlockDir(lock)
	if err := checkBackup(file); err != nil {
		return "", fmt.Errorf("restore: %s is not a backup this build can restore: %w", file, err)
	}
	src, err := os.Open(file)
	if err != nil {
		return "", fmt.Errorf("restore: %w", err)
	}
	defer src.Close()
	path := filepath.Join(dir, DatabaseFile)
	if _, err := os.Stat(path); err == nil {
		kept = fmt.Sprintf("%s.replaced-%s", path, time.Now().UTC().Format("20060102T150405Z"))
		if err := os.Link(path, kept); err != nil {
			return "", fmt.Errorf("restore: keep the current database: %w", err)
		}
	}
	err = atomicfile.Replace(path, func(w io.Writer) error {
		_, err := io.Copy(w, src)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("restore: %w", err)
	}
	return kept, nil
}

// checkBackup opens file read-only and checks it is an Arbiter database
// of a layout this build reads.
func checkBackup(file string) error {
	if _, err := os.Stat(file); err != nil {
		return err
	}
	if err := checkBoltFile(file); err != nil {
		return err
	}
	db, err := bolt.Open(file, 0o400, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		return err
	}
	defer db.Close()
	return db.View(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bMeta)
		if meta == nil || tx.Bucket(bGames) == nil {
			return errors.New("it has no Arbiter data in it")
		}
		if f := string(meta.Get(kFormat)); f != "1" && f != boltFormat {
			return fmt.Errorf("it has layout %s and this build reads layout %s and earlier: %w", f, boltFormat, store.ErrNewerLayout)
		}
		return nil
	})
}

// FileLayout returns the layout of the database file at path (its
// meta/format), reading it without a lock that lasts; "" for a file that
// does not exist yet.
func FileLayout(path string) (string, error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err := checkBoltFile(path); err != nil {
		return "", err
	}
	db, err := bolt.Open(path, 0o400, &bolt.Options{ReadOnly: true, Timeout: 200 * time.Millisecond})
	if err != nil {
		return "", err
	}
	defer db.Close()
	var f string
	err = db.View(func(tx *bolt.Tx) error {
		if meta := tx.Bucket(bMeta); meta != nil {
			f = string(meta.Get(kFormat))
		}
		return nil
	})
	return f, err
}
