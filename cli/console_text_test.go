package cli

import (
	"strings"
	"testing"
)

// TestWrapText wraps long lines at spaces to the width, indenting the
// rest; short lines, and a word longer than the width, stay whole.
func TestWrapText(t *testing.T) {
	text := "/play game:sixes: play the bot (level:1-5, side:first|second|random); add opponent:@someone\nshort"
	got := wrapText(text, 40)
	for _, line := range strings.Split(got, "\n") {
		if len([]rune(line)) > 40 {
			t.Errorf("a line of %d characters: %q", len([]rune(line)), line)
		}
	}
	if strings.ReplaceAll(strings.ReplaceAll(got, "\n  ", " "), "\n", "|") != strings.ReplaceAll(text, "\n", "|") {
		t.Errorf("wrapping changed the words:\n%s", got)
	}
	if got := wrapText("a "+strings.Repeat("x", 50)+" b", 20); got != "a\n  "+strings.Repeat("x", 50)+"\n  b" {
		t.Errorf("a long word: %q", got)
	}
	if wrapText(text, 0) != text {
		t.Error("width 0 wrapped")
	}
}

// TestCommandLine names the command that started the console, for its
// goodbye.
func TestCommandLine(t *testing.T) {
	never := func(string) bool { return false }
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"/tmp/go-build123/b001/exe/arbiter"}, "go run ."},
		{[]string{"./arbiter"}, "./arbiter"},
		{[]string{"./arbiter", "console", "--user", "x"}, "./arbiter console"},
		{[]string{"arbiter", "console"}, "arbiter console"},
		{[]string{"/usr/local/bin/arbiter"}, "/usr/local/bin/arbiter"},
	} {
		if got := commandLine(c.args, never); got != c.want {
			t.Errorf("%q: %q; want %q", c.args, got, c.want)
		}
	}
	if got := commandLine([]string{"/usr/local/bin/arbiter", "console"}, func(string) bool { return true }); got != "arbiter console" {
		t.Errorf("a program on PATH: %q", got)
	}
}
