// Package testkit holds the test harness pieces that the tests of several
// packages share: a buffer safe for a process or goroutine writing while the
// test reads it, the building of a Go program the tests then run as a
// real process, a headless chromium for pages, and the check of a file
// generated from the code.
//
// Invariants a change must keep: it is imported by tests only (never by the
// packages they test, so no binary carries it); it imports nothing of ours,
// so any package's tests can use it without an import cycle; its helpers fail
// the test with the tool's own output rather than skipping.
package testkit

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// Buffer is a bytes.Buffer safe for concurrent use: a subcommand, a bridge
// or a logger writes it while the test reads it. The zero value is ready.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p; it never fails.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// String returns everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// GoBuild builds the Go program pkg (a directory, relative to the test's
// package directory, or an import path) into the file out, returning the
// compiler's output in the error when it fails.
func GoBuild(out, pkg string) error {
	if b, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, b)
	}
	return nil
}

// Build builds the Go program pkg (as GoBuild) into the test's temporary
// directory and returns the binary's path, failing the test if it does not
// build.
func Build(t testing.TB, pkg string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), filepath.Base(pkg))
	if err := GoBuild(bin, pkg); err != nil {
		t.Fatal(err)
	}
	return bin
}

// Generated checks that the file at path holds got, a document generated
// from the code, failing the test when it differs and saying to run
// regenerate (the command that rewrites it). With update it writes got to
// path instead.
func Generated(t testing.TB, path string, got []byte, update bool, regenerate string) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: run `%s` to write it", err, regenerate)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is out of date with the code: run `%s` and commit it", path, regenerate)
	}
}
