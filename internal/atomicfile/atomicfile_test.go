package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func write(text string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, text); return err }
}

// TestReplaceIsWholeOrNothing: a write that fails leaves the old file and
// no temporary file; one that succeeds replaces it.
func TestReplaceIsWholeOrNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := Replace(path, write("old")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := Replace(path, func(w io.Writer) error { _, _ = io.WriteString(w, "half"); return boom }); !errors.Is(err, boom) {
		t.Fatalf("a failed write returned %v", err)
	}
	assertFiles(t, dir, path, "old")
	if err := Replace(path, write("new")); err != nil {
		t.Fatal(err)
	}
	assertFiles(t, dir, path, "new")
}

// TestCreateNeverOverwrites: Create refuses a path that exists, with
// os.ErrExist, and leaves it as it was.
func TestCreateNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := Create(path, write("first")); err != nil {
		t.Fatal(err)
	}
	if err := Create(path, write("second")); !errors.Is(err, os.ErrExist) {
		t.Fatalf("a second Create returned %v, want os.ErrExist", err)
	}
	assertFiles(t, dir, path, "first")
}

// assertFiles checks that dir holds path alone, with text.
func assertFiles(t *testing.T, dir, path, text string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || string(b) != text {
		t.Fatalf("%s holds %q, %v; want %q", path, b, err, text)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d files in the folder, want the one (no temporary file left)", len(entries))
	}
}
