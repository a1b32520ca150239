package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/render"
	"arbiter/rules/games"
)

func TestRunMatchPrintsGamesSummaryAndJSON(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Main(context.Background(), []string{"match", "hiya", "--p1", "greedy", "--p2", "random", "--games", "4",
		"--movetime", "10ms", "--seed", "3", "--json"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 8 {
		t.Fatalf("%d lines, want a header, 4 games, a summary, the longest moves and JSON:\n%s", len(lines), out.String())
	}
	for i, l := range lines[1:5] {
		if !strings.HasPrefix(l, "game "+string(rune('1'+i))+": ") {
			t.Errorf("line %q does not report game %d", l, i+1)
		}
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(lines[7]), &res); err != nil {
		t.Fatalf("last line %q: %v", lines[7], err)
	}
	want := []string{"game", "p1", "p2", "games", "wins", "draws", "losses", "score", "elo", "elo_error"}
	if len(res) != len(want) {
		t.Errorf("JSON keys %v, want %v", res, want)
	}
	for _, k := range want {
		if _, ok := res[k]; !ok {
			t.Errorf("JSON has no %q: %s", k, lines[7])
		}
	}
	if !strings.HasPrefix(lines[7], `{"game":"hiya","p1":"greedy","p2":"random","games":4,`) {
		t.Errorf("JSON line %s", lines[7])
	}
}

func TestRunMatchRejectsBadArguments(t *testing.T) {
	for _, args := range [][]string{
		{"match"},
		{"match", "hiya", "--p1", "greedy"},
		{"match", "hiya", "--p1", "greedy", "--p2", "nobody"},
		{"match", "chess", "--p1", "greedy", "--p2", "random"},
		{"match", "hiya", "--p1", "greedy", "--p2", "random", "--games", "0"},
		{"match", "hiya", "--p1", "greedy", "--p2", "random", "--movetime", "soon"},
		{"match", "hiya", "--p1", "greedy", "--p2", "random", "--seed", "-1"},
		{"match", "sixes", "--p1", "greedy", "--p2", "random", "--set", "turns=0"},
	} {
		refusedWithMessage(t, args...)
	}
}

func TestRunMatchSPRTEndsWithTheDecision(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Main(context.Background(), []string{"match", "sixes", "--p1", "greedy", "--p2", "random",
		"--movetime", "5ms", "--seed", "1", "--sprt", "elo0=0 elo1=100"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "H1 accepted after ") || !strings.Contains(last, "Elo +") {
		t.Errorf("last line %q", last)
	}
	if code := Main(context.Background(), []string{"match", "sixes", "--p1", "greedy", "--p2", "random", "--sprt", "elo1=-3"}, &out, &errOut); code != 2 {
		t.Errorf("a bad --sprt: exit %d", code)
	}
}

// TestMatchSummaryWords: "1 game", not "1 games"; an estimate of nearly
// nothing is "+0", not "-0"; a match of one result has no estimate.
func TestMatchSummaryWords(t *testing.T) {
	if got := countOf(1, "game", "games") + ", " + countOf(2, "loss", "losses") + ", " + countOf(0, "draw", "draws"); got != "1 game, 2 losses, 0 draws" {
		t.Errorf("counts: %q", got)
	}
	if got := eloText(-0.3, 12, 3, 2, 3); got != "Elo +0 ± 12 (95%)" {
		t.Errorf("a near-zero estimate: %q", got)
	}
	if got := eloText(0, 0, 0, 1, 0); got != "Elo not estimated: every game had the same result (1 game)" {
		t.Errorf("one drawn game: %q", got)
	}
	if got := eloText(35.4, 20.2, 6, 2, 2); got != "Elo +35 ± 20 (95%)" {
		t.Errorf("an estimate: %q", got)
	}
}

// --openings random:PLIES sets each pair's opening; random:0 none; other
// forms are refused with the form to write.
func TestRunMatchOpenings(t *testing.T) {
	for _, c := range []struct {
		openings string
		plies    int
	}{{"random:2", 2}, {"random:0", 0}} {
		var out, errOut bytes.Buffer
		code := Main(context.Background(), []string{"match", "hiya", "--p1", "greedy", "--p2", "random", "--games", "2",
			"--movetime", "10ms", "--seed", "3", "--openings", c.openings}, &out, &errOut)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.openings, code, errOut.String())
		}
		for _, l := range strings.Split(out.String(), "\n") {
			if !strings.HasPrefix(l, "game ") {
				continue
			}
			_, opening, _ := strings.Cut(l, "; opening ")
			plies := 0
			if opening != "" {
				plies = len(strings.Split(opening, "; "))
			}
			if plies != c.plies {
				t.Errorf("--openings %s: %q has %d opening plies, want %d", c.openings, l, plies, c.plies)
			}
		}
	}
	for _, bad := range []string{"2", "random:x", "random:-1", "random:41", "book.txt"} {
		refusedWithMessage(t, "match", "hiya", "--p1", "greedy", "--p2", "random", "--openings", bad)
	}
}

// TestRunMatchWritesRecords: --records DIR keeps each game as a game
// record, played out or forfeited, that analyse reads back; an Upthrust
// record keeps the colours the match played with, not colours drawn again.
func TestRunMatchWritesRecords(t *testing.T) {
	for _, c := range []struct{ game, p2, reason string }{
		{"hiya", "random", "king attacked"},
		{"hiya", "exec:true", "(exec:true)"},
		{"upthrust", "random", ""},
	} {
		dir := filepath.Join(t.TempDir(), "records")
		var out, errOut bytes.Buffer
		code := Main(context.Background(), []string{"match", c.game, "--p1", "greedy", "--p2", c.p2, "--games", "2",
			"--movetime", "10ms", "--seed", "3", "--sandbox", "off", "--records", dir}, &out, &errOut)
		if code != 0 || strings.Contains(errOut.String(), "record") {
			t.Fatalf("%s: exit %d: %s", c.p2, code, errOut.String())
		}
		var lines []string
		for l := range strings.Lines(out.String()) {
			if strings.HasPrefix(l, "game ") {
				lines = append(lines, l)
			}
		}
		if len(lines) != 2 {
			t.Fatalf("%s: %d game lines, want 2:\n%s", c.p2, len(lines), out.String())
		}
		for n, line := range lines {
			text, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("game-%d.txt", n+1)))
			if err != nil {
				t.Fatal(err)
			}
			rec, err := render.ParseRecord(games.Registry(), string(text))
			if err != nil {
				t.Fatalf("%s game %d: %v\n%s", c.p2, n+1, err, text)
			}
			why := rec.Outcome.Reason
			if !strings.Contains(line, fmt.Sprintf(", %s, %d plies;", why, rec.Game.Ply())) || !strings.Contains(why, c.reason) {
				t.Errorf("%s game %d: the record (%d plies) does not match %q:\n%s", c.p2, n+1, rec.Game.Ply(), line, text)
			}
			verdict := ": draw,"
			if winner, ok := rec.Outcome.Result.Winner(); ok {
				verdict = rec.Game.PlayerName(winner) + " wins"
			}
			if !strings.Contains(line, verdict) {
				t.Errorf("%s game %d: the record's result %v is not the match's %q", c.p2, n+1, rec.Outcome.Result, line)
			}
		}
	}
	refusedWithMessage(t, "match", "hiya", "--p1", "greedy", "--p2", "random", "--records", "/dev/null/records")
}
