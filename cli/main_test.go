package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// runArgs runs arbiter with args and returns its exit status and output.
func runArgs(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// TestPerftCountsFromRules checks the perft counts the rules files state.
func TestPerftCountsFromRules(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"perft", "upthrust", "1"}, "8"},
		{[]string{"perft", "upthrust", "4"}, "1746"},
		{[]string{"perft", "upthrust", "4", "--set", "colours=gb"}, "1746"},
		{[]string{"perft", "hiya", "5"}, "267601"},
		{[]string{"perft", "hiya", "3", "--set", "first=north"}, "1591"},
		{[]string{"perft", "sixes", "3"}, "4448"},
		{[]string{"perft", "hique", "1"}, "25"},
		{[]string{"perft", "hique", "3"}, "16623"},
		{[]string{"perft", "--moves", "E2B5", "hiya", "1"}, "" /* checked below */},
	}
	for _, tt := range tests[:len(tests)-1] {
		code, out, errOut := runArgs(t, tt.args...)
		if code != 0 || lastLine(out) != tt.want {
			t.Errorf("%v: exit %d, last line %q (stderr %q), want %s", tt.args, code, lastLine(out), errOut, tt.want)
		}
	}
}

func TestPerftDivideAndMoves(t *testing.T) {
	code, out, _ := runArgs(t, "perft", "hiya", "2", "--divide")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 12 || !strings.Contains(out, "\nE2B5: ") || lastLine(out) != "127" {
		t.Errorf("divide output:\n%s", out)
	}
	// After a move, perft counts from the new position: a finished game has none.
	code, out, _ = runArgs(t, "perft", "sixes", "0", "--moves", "a1 c1; a5 a4")
	if code != 0 || lastLine(out) != "1" {
		t.Errorf("perft 0: exit %d, %q", code, out)
	}
	code, out, _ = runArgs(t, "perft", "sixes", "2", "--moves", "a1 c1", "--set", "turns=1")
	if code != 0 || lastLine(out) != "0" {
		t.Errorf("perft of a finished game: exit %d, %q", code, out)
	}
	code, out, _ = runArgs(t, "perft", "hique", "2", "--bench")
	if code != 0 || lastLine(out) != "587" || !strings.Contains(out, "nodes/s") {
		t.Errorf("--bench: exit %d, %q", code, out)
	}
}

func TestBadInputExitsTwo(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"perft", "chess", "2"}, `unknown game "chess"`},
		{[]string{"perft", "sixes", "x"}, "depth"},
		{[]string{"perft", "sixes"}, "usage"},
		{[]string{"perft", "sixes", "2", "--set", "edges=maybe"}, "edges must be on or off"},
		{[]string{"perft", "hique", "2", "--set", "turns=abc"}, "turns must be a whole number"},
		{[]string{"perft", "sixes", "2", "--moves", "a1 a4"}, "move 1 (a1 a4)"},
		{[]string{"status", "hiya", "--moves", "E2B5;Z9Z9"}, "move 2 (Z9Z9)"},
		{[]string{"status"}, "usage"},
		{[]string{"nosuch"}, "unknown subcommand"},
	}
	for _, tt := range tests {
		code, _, errOut := runArgs(t, tt.args...)
		if code != 2 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}

func TestStatusResultLines(t *testing.T) {
	tests := []struct {
		args      []string
		wantScore string
		wantLast  string
	}{
		{[]string{"status", "hiya"}, "", "result: ongoing South to move"},
		{[]string{"status", "sixes", "--moves", "a1 c1", "--set", "turns=1"}, "score: 8 8", "result: p1 turn limit reached: 8 pieces each, 18 moves to 16"},
		{[]string{"status", "upthrust"}, "score: 0 0", "result: ongoing Player 1 to move"},
	}
	for _, tt := range tests {
		code, out, errOut := runArgs(t, tt.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tt.args, code, errOut)
		}
		lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
		if lines[len(lines)-1] != tt.wantLast {
			t.Errorf("%v: last line %q, want %q", tt.args, lines[len(lines)-1], tt.wantLast)
		}
		if tt.wantScore != "" && lines[len(lines)-2] != tt.wantScore {
			t.Errorf("%v: score line %q, want %q", tt.args, lines[len(lines)-2], tt.wantScore)
		}
	}
}
