package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
)

// consoleLogFile is the console's log, in DATA_DIR.
const consoleLogFile = "console.log"

// consoleLogger is the console's logger: its records go to console.log in
// dataDir, not between the prompts (what a player must know, the console
// says in words of its own); an error also leaves one short line on the
// terminal (w), its message and its "err", naming the file. When the file cannot be opened the
// records go to w. The function it returns closes the file.
func consoleLogger(w io.Writer, dataDir string, level slog.Level) (*slog.Logger, string, func()) {
	path := filepath.Join(dataDir, consoleLogFile)
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return newLogger(w, level), "", func() {}
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return newLogger(w, level), "", func() {}
	}
	h := slog.NewMultiHandler(slog.NewTextHandler(f, &slog.HandlerOptions{Level: level}), &errorNote{w: w, path: path})
	return slog.New(h), path, func() { _ = f.Close() }
}

// errorNote is a slog.Handler that writes one line for each error record:
// its message and where its details are.
type errorNote struct {
	mu   sync.Mutex
	w    io.Writer
	path string
}

func (h *errorNote) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelError }

func (h *errorNote) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	msg := r.Message
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "err" {
			msg += ": " + a.Value.String()
		}
		return true
	})
	_, err := fmt.Fprintf(h.w, "(arbiter: %s; the details are in %s)\n", msg, h.path)
	return err
}

func (h *errorNote) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *errorNote) WithGroup(string) slog.Handler      { return h }
