package described_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"arbiter/rules/described"
)

// boundsGame is a playable description with holes: %BOARD% is the board's
// columns, %TITLE% its title.
const boundsGame = `name: bounds
title: %TITLE%
players: [{name: X}, {name: O}]
rules: Three in a row wins.
board:
  columns: %BOARD%
  rows: 3
pieces: [{name: mark}]
start: []
moves: [{kind: place}]
end: [{when: in-a-row, length: 3, result: win}, {when: board-full, result: draw}]
`

func boundsText(board, title string) []byte {
	return []byte(strings.NewReplacer("%BOARD%", board, "%TITLE%", title).Replace(boundsGame))
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A games folder's file is read only up to a description's bound, and
// what is not a regular file (a device, a pipe) is not read at all: each
// is refused with its name while the other games load.
func TestLoadFSReadsBoundedFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "good.yaml"), boundsText("3", "Good"), 0o600); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(dir, "huge.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(64 << 20); err != nil { // sparse: nothing on disk
		t.Fatal(err)
	}
	big.Close()
	var specs []*described.Spec
	var errs []error
	if n := allocated(func() { specs, errs = described.LoadFS(os.DirFS(dir)) }); n > 16<<20 {
		t.Fatalf("loading a folder with a 64 MiB file allocated %d MiB", n>>20)
	}
	if len(specs) != 1 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "huge.yaml") {
		t.Fatalf("loaded %d games, errors %v; want the good one and huge.yaml refused", len(specs), errs)
	}

	// A device behind a link is never read (it would never end).
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.yaml")); err != nil {
		t.Fatal(err)
	}
	specs, errs = described.LoadFS(os.DirFS(dir))
	if len(specs) != 1 || len(errs) != 2 || !strings.Contains(errs[1].Error(), "zero.yaml: not a regular file") {
		t.Errorf("loaded %d games, errors %v; want the good one, huge.yaml and zero.yaml refused", len(specs), errs)
	}
}

// An expression nested deeper than a description needs is refused at
// once, without the memory its depth would take.
func TestDeepExpressionRefused(t *testing.T) {
	const depth = 200_000
	text := boundsText(strings.Repeat("(", depth)+"3"+strings.Repeat(")", depth), "Deep")
	var err error
	if n := allocated(func() { _, err = described.Load("deep.yaml", text) }); n > 32<<20 {
		t.Errorf("reading an expression %d deep allocated %d MiB", depth, n>>20)
	}
	if err == nil || !strings.Contains(err.Error(), "nested") {
		t.Errorf("an expression %d deep: %v, want it refused as nested too deep", depth, err)
	}
	if err != nil && len(err.Error()) > 400 {
		t.Errorf("the error quotes the whole expression (%d bytes)", len(err.Error()))
	}
	if _, err := described.Load("shallow.yaml", boundsText("((((3))))", "Shallow")); err != nil {
		t.Errorf("a few parentheses: %v", err)
	}
}

// Names and titles are bounded: a long one is refused with a short error.
func TestLongNamesRefused(t *testing.T) {
	long := strings.Repeat("n", 10_000)
	for what, text := range map[string][]byte{
		"a name in an expression": boundsText(long+" - 1", "Long"),
		"a title":                 boundsText("3", long),
	} {
		_, err := described.Load("long.yaml", text)
		if err == nil {
			t.Errorf("%s of %d characters accepted", what, len(long))
			continue
		}
		if len(err.Error()) > 400 {
			t.Errorf("%s: the error quotes it whole (%d bytes)", what, len(err.Error()))
		}
	}
}
