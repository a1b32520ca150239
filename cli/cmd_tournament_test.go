package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunTournamentPipedLinesFilesAndResume(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	args := []string{"tournament", "sixes", "--player", "g=greedy", "--player", "r=random", "--player", "a=alphabeta:1",
		"--games", "2", "--movetime", "20ms", "--seed", "4", "--openings", "random:2", "--set", "turns=10",
		"--out", dir, "--concurrency", "2", "--no-gif"}
	var out, errOut bytes.Buffer
	if code := Main(context.Background(), args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	games := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "game r") {
			games++
		}
	}
	if games != 6 || !strings.Contains(out.String(), "rank  player") {
		t.Errorf("%d game lines, want 6, and the standings:\n%s", games, out.String())
	}
	f, err := os.Open(filepath.Join(dir, "standings.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(rows) != 4 || rows[0][1] != "player" || rows[0][4] != "points" {
		t.Errorf("standings.csv: %v %v", rows, err)
	}
	for _, name := range []string{"results.json", "crosstable.txt", "tournament.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	// Resuming a finished tournament plays nothing again (the seed is read back).
	out.Reset()
	resume := append(append([]string{}, args[:len(args)-1]...), "--resume", "--no-gif")
	for i, a := range resume {
		if a == "--seed" {
			resume = append(resume[:i], resume[i+2:]...)
			break
		}
	}
	if code := Main(context.Background(), resume, &out, &errOut); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "6 games (0 played now)") {
		t.Errorf("resume:\n%s", out.String())
	}
	// Without --resume the directory is refused.
	if code := Main(context.Background(), args, &out, &errOut); code == 0 {
		t.Error("a second tournament into the same directory: exit 0")
	}
}

func TestRunTournamentRejectsBadArguments(t *testing.T) {
	for _, args := range [][]string{
		{"tournament"},
		{"tournament", "sixes", "--player", "a=greedy"},
		{"tournament", "sixes", "--player", "a=greedy", "--player", "b=nobody"},
		{"tournament", "sixes", "--player", "a=greedy", "--player", "a=random"},
		{"tournament", "chess", "--player", "a=greedy", "--player", "b=random"},
		{"tournament", "sixes", "--player", "a=greedy", "--player", "b=random", "--format", "ladder"},
		{"tournament", "sixes", "--player", "a=greedy", "--player", "b=random", "--openings", "random:x"},
		{"tournament", "sixes", "--player", "a=greedy", "--player", "b=random", "--resume"},
		{"tournament", "sixes", "--player", "noequals"},
	} {
		refusedWithMessage(t, args...)
	}
}

func TestReadOpenings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "openings.txt")
	if err := os.WriteFile(path, []byte("# Sixes openings\nf5 f4, b5 b4\n\n  e6 e4 ,a5 a4,  \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readOpenings(path)
	if err != nil || len(got) != 2 || strings.Join(got[0], "|") != "f5 f4|b5 b4" || strings.Join(got[1], "|") != "e6 e4|a5 a4" {
		t.Fatalf("readOpenings: %q, %v", got, err)
	}
	var out, errOut bytes.Buffer
	code := Main(context.Background(), []string{"tournament", "sixes", "--player", "g=greedy", "--player", "r=random",
		"--movetime", "10ms", "--seed", "1", "--set", "turns=8", "--openings", path}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if err := os.WriteFile(path, []byte("f5 f9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := Main(context.Background(), []string{"tournament", "sixes", "--player", "g=greedy", "--player", "r=random",
		"--openings", path}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "opening 1") {
		t.Errorf("an illegal opening: exit %d, %s", code, errOut.String())
	}
}
