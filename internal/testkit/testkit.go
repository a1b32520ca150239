// Package testkit holds the test harness pieces that the tests of several
// packages share: a buffer safe for a process or goroutine writing while the
// test reads it, the building of a Go program the tests then run as a
// real process, and a headless chromium for pages.
//
// Invariants a change must keep: it is imported by tests only (never by the
// packages they test, so no binary carries it); it imports nothing of ours,
// so any package's tests can use it without an import cycle; its helpers fail
// the test with the tool's own output rather than skipping.
package testkit

import (
	"bytes"
	"fmt"
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
