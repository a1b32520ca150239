package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// update rewrites the console's golden transcripts:
// go test ./cli -run TestConsoleGolden -update
var update = flag.Bool("update", false, "rewrite the golden transcripts in testdata/console")

// volatile matches what changes from run to run in a transcript: deadlines
// and where attachments are saved.
var volatile = regexp.MustCompile(`until [A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2} \d\d:\d\d [A-Z]+|, \d+ bytes: saved to \S+\)`)

// TestConsoleGolden pipes each script testdata/console/NAME.script into the
// console (two people at one keyboard, on the embedded store) and compares
// the transcript with NAME.golden, deadlines masked.
func TestConsoleGolden(t *testing.T) {
	t.Parallel()
	scripts, err := filepath.Glob(filepath.Join("testdata", "console", "*.script"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	bin := buildArbiter(t)
	for _, script := range scripts {
		name := strings.TrimSuffix(filepath.Base(script), ".script")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			in, err := os.ReadFile(script)
			if err != nil {
				t.Fatal(err)
			}
			out := runConsoleBinary(t, bin, string(in), "DATA_DIR="+t.TempDir())
			got := []byte(volatile.ReplaceAllStringFunc(out, func(m string) string {
				if strings.HasPrefix(m, "until") {
					return "until DEADLINE"
				}
				return ")"
			}))
			golden := strings.TrimSuffix(script, ".script") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test ./cli -run TestConsoleGolden -update writes it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("the transcript differs from %s:\n--- got\n%s", golden, got)
			}
		})
	}
}

// TestDefaultUserName: without $USER the console's user is the login name
// the system knows, or "player"; never "you" ("you are you").
func TestDefaultUserName(t *testing.T) {
	t.Setenv("USER", "")
	if got := defaultUserName(); got == "" || got == "you" {
		t.Errorf("defaultUserName() without $USER = %q", got)
	}
	t.Setenv("USER", "ann")
	if got := defaultUserName(); got != "ann" {
		t.Errorf("defaultUserName() with USER=ann = %q", got)
	}
}
