package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"
)

// terminalWidth is the width of the terminal f is, else 0 (not a
// terminal: lines are not wrapped).
func terminalWidth(f *os.File) int {
	if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
		return w
	}
	return 0
}

// wrapText wraps the lines of text longer than width at spaces, the
// continuation indented by two; a word longer than the line stays whole.
// Width 0 wraps nothing.
func wrapText(text string, width int) string {
	if width <= 0 {
		return text
	}
	lines := strings.Split(text, "\n")
	var b strings.Builder
	for i, line := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		n, indent := 0, 0 // the line's length so far, and its indent
		for j, word := range strings.Split(line, " ") {
			w := utf8.RuneCountInString(word)
			switch {
			case j == 0:
			case n+1+w > width && n > indent:
				b.WriteString("\n  ")
				n, indent = 2, 2
			default:
				b.WriteByte(' ')
				n++
			}
			b.WriteString(word)
			n += w
		}
	}
	return b.String()
}

// commandLine is how the console was started, as the user can type it
// again: "go run ." for a binary that go run built, the program's name
// for one found on PATH (onPath), else its path as typed; with "console"
// when that was given.
func commandLine(args []string, onPath func(string) bool) string {
	if len(args) == 0 {
		return "arbiter console"
	}
	prog := args[0]
	switch {
	case strings.Contains(filepath.ToSlash(prog), "/go-build"):
		prog = "go run ."
	case !strings.Contains(prog, string(filepath.Separator)) || onPath(prog):
		prog = filepath.Base(prog)
	}
	if len(args) > 1 && args[1] == "console" {
		prog += " console"
	}
	return prog
}

// executableOnPath reports whether path is the program PATH finds by its
// name.
func executableOnPath(path string) bool {
	found, err := exec.LookPath(filepath.Base(path))
	if err != nil {
		return false
	}
	a, errA := filepath.Abs(found)
	b, errB := filepath.Abs(path)
	return errA == nil && errB == nil && a == b
}
