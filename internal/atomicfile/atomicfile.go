// Package atomicfile writes files whole or not at all: a crash leaves the
// old file (or none) or the whole new one, never a mix.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Replace writes path with write: into a temporary file beside it, synced,
// then renamed over path, and the folder synced where the system allows.
func Replace(path string, write func(w io.Writer) error) error {
	return put(path, write, os.Rename)
}

// Create is Replace for a path that must not exist yet: the temporary file
// is linked as path, which fails with an error wrapping os.ErrExist when
// something is there, and then removed.
func Create(path string, write func(w io.Writer) error) error {
	return put(path, write, func(tmp, path string) error {
		if err := os.Link(tmp, path); err != nil {
			return err
		}
		return os.Remove(tmp)
	})
}

// put writes a temporary file beside path and hands it to place.
func put(path string, write func(w io.Writer) error, place func(tmp, path string) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	err = write(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = place(f.Name(), path)
	}
	if err != nil {
		_ = os.Remove(f.Name())
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("write %s: %w", path, os.ErrExist)
		}
		return err
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		_ = d.Sync() // the file is in place either way; not every system syncs folders
		_ = d.Close()
	}
	return nil
}
