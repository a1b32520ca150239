package cli

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConsoleLoggerKeepsRecordsOffTheTerminal: a warning (such as "Arbiter
// was offline", which the console says in words of its own) goes to
// console.log only; an error leaves one short line on the terminal naming
// the file, with its details in the file.
func TestConsoleLoggerKeepsRecordsOffTheTerminal(t *testing.T) {
	var term strings.Builder
	dir := t.TempDir()
	log, path, closeLog := consoleLogger(&term, dir, slog.LevelWarn)
	log.Info("an info record", "k", 1)
	log.Warn("Arbiter was offline; giving the time back to every running clock", "length", "3m")
	log.Error("a store write failed", "err", "disk full")
	closeLog()
	if path != filepath.Join(dir, consoleLogFile) {
		t.Errorf("the log is at %q", path)
	}
	if strings.Contains(term.String(), "level=") || strings.Contains(term.String(), "offline") {
		t.Errorf("a raw record reached the terminal: %q", term.String())
	}
	if want := "(arbiter: a store write failed: disk full; the details are in " + path + ")\n"; term.String() != want {
		t.Errorf("the terminal shows %q; want %q", term.String(), want)
	}
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"level=WARN msg=\"Arbiter was offline", "err=\"disk full\""} {
		if !strings.Contains(string(file), want) {
			t.Errorf("the log file lacks %q:\n%s", want, file)
		}
	}
	if strings.Contains(string(file), "an info record") {
		t.Errorf("the log file has a record below its level:\n%s", file)
	}
}
