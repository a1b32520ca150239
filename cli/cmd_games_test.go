package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// run runs arbiter with args and returns its exit status and outputs.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errs bytes.Buffer
	code := Main(context.Background(), args, &out, &errs)
	return code, out.String(), errs.String()
}

// refusedWithMessage runs Main with args and fails the test unless it
// exits non-zero with a message on stderr.
func refusedWithMessage(t *testing.T, args ...string) {
	t.Helper()
	if code, _, errs := run(t, args...); code == 0 {
		t.Errorf("%v: exit 0", args)
	} else if errs == "" {
		t.Errorf("%v: exit %d without a message", args, code)
	}
}

// TestGamesCheckShipped: every shipped description passes games check with
// the published perft figures and a random game that ends.
func TestGamesCheckShipped(t *testing.T) {
	for file, perft := range map[string]string{
		"../games/breakthrough.yaml": "perft 1 22\nperft 2 484\nperft 3 11132\n",
		"../games/othello.yaml":      "perft 1 4\nperft 2 12\nperft 3 56\n",
		"../games/connect4.yaml":     "perft 1 7\nperft 2 49\nperft 3 343\n",
		"../games/tictactoe.yaml":    "perft 1 9\nperft 2 72\nperft 3 504\n",
		"../games/konane.yaml":       "perft 1 4\nperft 2 12\nperft 3 28\n",
		"../games/checkers.yaml":     "perft 1 7\nperft 2 49\nperft 3 302\n",
		"../games/loa.yaml":          "perft 1 36\nperft 2 1244\nperft 3 44952\n",
		"../games/hex.yaml":          "perft 1 121\nperft 2 14641\nperft 3 1742400\n",
		"../games/kalah.yaml":        "perft 1 6\nperft 2 35\nperft 3 185\n",
		"../games/dots.yaml":         "perft 1 24\nperft 2 552\nperft 3 12144\n",
		"../games/morris.yaml":       "perft 1 24\nperft 2 552\nperft 3 12144\n",
		// Past 20,000 sequences check goes no deeper.
		"../games/gomoku.yaml":  "perft 1 225\nperft 2 50400\nrandom",
		"../games/pentago.yaml": "perft 1 288\nperft 2 80640\nrandom",
		"../games/amazons.yaml": "perft 1 2176\nperft 2 4307152\n",
	} {
		code, out, errs := run(t, "games", "check", file)
		if code != 0 || !strings.Contains(out, perft) || !strings.Contains(out, "random game (seed 1): ") {
			t.Errorf("games check %s: exit %d\n%s%s", file, code, out, errs)
		}
	}
}

// TestGamesCheckRefuses: a file with an error, or one that takes a game's
// name, exits 1 with the file's line and column.
func TestGamesCheckRefuses(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("testdata/games/clobber.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct{ old, new, want string }{
		"bad.yaml":   {"  - {kind: step, directions: orthogonal, to: enemy}", "  - {kind: step, directions: sideways, to: enemy}", "bad.yaml:22:30: direction \"sideways\""},
		"taken.yaml": {"name: clobber", "name: sixes", "the name sixes is taken"},
		"loops.yaml": {"  - {checkered: true}\nmoves:\n  - {kind: step, directions: orthogonal, to: enemy}",
			"  - {player: 1, at: [1, 1]}\n  - {player: 2, at: [2, 2]}\nmoves:\n  - {kind: step, directions: orthogonal, to: empty}", "did not end in 10000 moves"},
	} {
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, []byte(strings.Replace(string(data), tc.old, tc.new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errs := run(t, "games", "check", file)
		if code != 1 || !strings.Contains(errs, tc.want) {
			t.Errorf("games check %s: exit %d, stderr %q, want 1 and %q\n%s", name, code, errs, tc.want, out)
		}
	}
}

// TestGamesCheckRefusesTooManyMoves: a game whose positions have more
// legal moves than a move list holds is refused.
func TestGamesCheckRefusesTooManyMoves(t *testing.T) {
	file := filepath.Join(t.TempDir(), "wide.yaml")
	// Four queens that shoot on an empty 19×19 board: about 17,000 moves.
	text := "name: wide\nplayers: [{name: A}, {name: B}]\nrules: r\nboard: {columns: 19, rows: 19}\n" +
		"pieces: [{name: q}]\nstart: [{player: 1, at: [[8, 8], [8, 12], [12, 8], [12, 12]]}, {player: 2, at: [[1, 1]]}]\n" +
		"moves: [{kind: slide, directions: all, shoot: {directions: all}}]\nend: [{when: no-moves, result: loss}]\n"
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "games", "check", file)
	if code != 1 || !strings.Contains(errs, "more than 4096 legal moves") {
		t.Errorf("games check: exit %d, stderr %q\n%s", code, errs, out)
	}
}

// TestGamesDir: GAMES_DIR's games are known to games list, perft and
// status; a bad file there is reported with its line and column and the
// other games still load.
func TestGamesDir(t *testing.T) {
	dir, data := clobberDir(t)
	bad := strings.Replace(data, "name: clobber", "name: broken", 1) + "score: most\n"
	if err := os.WriteFile(filepath.Join(dir, "broken.yaml"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GAMES_DIR", dir)
	code, out, errs := run(t, "games", "list")
	if code != 0 || !regexp.MustCompile(`\nclobber +Clobber +White against Black +described in `+regexp.QuoteMeta(filepath.Join(dir, "clobber.yaml"))+` +columns=5 rows=6\n`).MatchString(out) ||
		!regexp.MustCompile(`\nbreakthrough +Breakthrough +`).MatchString(out) || !strings.Contains(errs, "GAMES_DIR: "+filepath.Join(dir, "broken.yaml")+":28:8: score \"most\": write one of pieces") {
		t.Errorf("games list: exit %d\n%s%s", code, out, errs)
	}
	// games check names a file of GAMES_DIR as the start does.
	if code, _, errs := run(t, "games", "check", filepath.Join(dir, "broken.yaml")); code != 1 || !strings.Contains(errs, ": "+filepath.Join(dir, "broken.yaml")+":28:8: score") {
		t.Errorf("games check: exit %d, %s", code, errs)
	}
	if code, out, _ := run(t, "perft", "clobber", "2"); code != 0 || out != "2116\n" {
		t.Errorf("perft clobber 2: exit %d, %q", code, out)
	}
	if code, out, _ := run(t, "perft", "othello", "4", "--set", "size=6"); code != 0 || out != "244\n" {
		t.Errorf("perft othello 4 size=6: exit %d, %q", code, out)
	}
	if code, out, errs := run(t, "status", "clobber", "--moves", "a1 a2;b1 c1"); code != 0 || !strings.Contains(out, "Last: Black b1 c1, removing White's piece at c1") {
		t.Errorf("status clobber: exit %d\n%s%s", code, out, errs)
	}
}

// TestGamesListColumns: games list keeps its columns whatever the length
// of a title: each column starts at the same place on every line.
func TestGamesListColumns(t *testing.T) {
	dir, data := clobberDir(t)
	long := strings.Replace(strings.Replace(data, "name: clobber", "name: longclobber", 1), "title: Clobber", "title: Clobber on a very long board", 1)
	if err := os.WriteFile(filepath.Join(dir, "long.yaml"), []byte(long), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GAMES_DIR", dir)
	code, out, errs := run(t, "games", "list")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if code != 0 || len(lines) < 9 || !strings.Contains(out, "Clobber on a very long board") {
		t.Fatalf("games list: exit %d\n%s%s", code, out, errs)
	}
	head := lines[0]
	for _, col := range []string{"TITLE", "PLAYERS", "FROM", "OPTIONS"} {
		at := strings.Index(head, col)
		for _, line := range lines[1:] {
			if len(line) <= at || line[at-1] != ' ' || line[at] == ' ' {
				t.Errorf("column %s starts at %d, not on this line:\n%s\n%s", col, at, head, line)
			}
		}
	}
}

// TestTutorialGame: Clobber, written from the tutorial
// (docs/tutorials/write-a-game.md) alone, loads from GAMES_DIR, passes
// games check and plays a match.
func TestTutorialGame(t *testing.T) {
	code, out, errs := run(t, "games", "check", "testdata/games/clobber.yaml")
	if code != 0 || !strings.Contains(out, "perft 1 49\n") {
		t.Fatalf("games check: exit %d\n%s%s", code, out, errs)
	}
	t.Setenv("GAMES_DIR", "testdata/games")
	code, out, errs = run(t, "match", "clobber", "--p1", "arbiter:2", "--p2", "random", "--games", "2", "--movetime", "20ms", "--seed", "5")
	if code != 0 || !strings.Contains(out, "arbiter:2 vs random: 2 games, ") {
		t.Fatalf("match clobber: exit %d\n%s%s", code, out, errs)
	}
}

// TestTutorialExamples follows docs/tutorials/write-a-game.md: each YAML
// file it shows (a block starting "# NAME.yaml") passes games check with
// the figures the tutorial gives, its perft counts after a swap are what
// perft prints, and its example errors are what Arbiter says.
func TestTutorialExamples(t *testing.T) {
	doc, err := os.ReadFile("../docs/tutorials/write-a-game.md")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string]string{}
	for _, block := range strings.Split(string(doc), "```yaml\n")[1:] {
		body, _, _ := strings.Cut(block, "```")
		first, _, _ := strings.Cut(body, "\n")
		name := strings.TrimPrefix(first, "# ")
		files[name] = body
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]string{
		"noughts.yaml":  "noughts: Noughts and Crosses, X against O\nperft 1 9\nperft 2 72\nperft 3 504\nrandom game (seed 1): 8 moves, O wins: O made 3 in a row\nmoves: c2; b2; a2; a1; b1; c1; b3; a3\n",
		"hexapawn.yaml": "hexapawn: Hexapawn, White against Black, options size=3\nperft 1 3\n",
	} {
		code, out, errs := run(t, "games", "check", filepath.Join(dir, name))
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("games check %s: exit %d, want %q\n%s%s", name, code, want, out, errs)
		}
	}
	if code, out, errs := run(t, "games", "check", filepath.Join(dir, "hexapawn.yaml"), "--set", "size=5"); code != 0 {
		t.Errorf("games check hexapawn.yaml --set size=5: exit %d\n%s%s", code, out, errs)
	}
	minihex := "minihex: Mini Hex, Red against Blue, options size=5 swap=on\nperft 1 25\nperft 2 625\nperft 3 14400\nrandom game (seed 1): 23 moves, Red wins: Red joined their edges\nmoves: e3; d5; b3; b2; c2; a3; e4; a2; b1; e2; a5; d1; a1; d4; d3; a4; b5; e5; c5; e1; b4; c4; c1\n"
	if code, out, errs := run(t, "games", "check", filepath.Join(dir, "minihex.yaml")); code != 0 || !strings.Contains(out, minihex) || !strings.Contains(string(doc), "$ arbiter games check minihex.yaml\n"+minihex) {
		t.Errorf("games check minihex.yaml: exit %d, want %q (also in the tutorial)\n%s%s", code, minihex, out, errs)
	}
	swapOff := "minihex: Mini Hex, Red against Blue, options size=5 swap=off\nperft 1 25\nperft 2 600\nperft 3 13800\n"
	if code, out, errs := run(t, "games", "check", filepath.Join(dir, "minihex.yaml"), "--set", "swap=off"); code != 0 || !strings.Contains(out, swapOff) || !strings.Contains(string(doc), swapOff) {
		t.Errorf("games check minihex.yaml --set swap=off: exit %d, want %q (also in the tutorial)\n%s%s", code, swapOff, out, errs)
	}
	t.Setenv("GAMES_DIR", dir)
	if code, out, errs := run(t, "perft", "minihex", "1", "--moves", "b1;swap"); code != 0 || out != "24\n" || !strings.Contains(string(doc), "--moves \"b1;swap\"\n24\n") {
		t.Errorf("perft minihex 1 after b1;swap: exit %d, %q, want \"24\\n\" (also in the tutorial)\n%s", code, out, errs)
	}
	noSwap := "arbiter perft: move 2 (swap): there is no swap in Mini Hex with these options: write a square such as c3"
	if code, _, errs := run(t, "perft", "minihex", "1", "--moves", "b1;swap", "--set", "swap=off"); code == 0 || !strings.Contains(errs, noSwap) || !strings.Contains(string(doc), noSwap) {
		t.Errorf("perft minihex with swap off: exit %d, stderr %q, want %q (also in the tutorial)", code, errs, noSwap)
	}
	bad := filepath.Join(dir, "noughts.yaml")
	if err := os.WriteFile(bad, []byte(strings.Replace(files["noughts.yaml"], "kind: place", "kind: put", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := run(t, "games", "check", bad)
	want := `noughts.yaml:17:12: kind "put": write one of place, drop, step, slide, jump, remove`
	if code != 1 || !strings.Contains(errs, want) || !strings.Contains(string(doc), want) {
		t.Errorf("the tutorial's error: exit %d, stderr %q, want %q (also in the tutorial)", code, errs, want)
	}
}

// clobberDir returns a new directory holding testdata's clobber.yaml, a
// GAMES_DIR, and that file's text.
func clobberDir(t *testing.T) (dir, clobber string) {
	t.Helper()
	dir = t.TempDir()
	data, err := os.ReadFile("testdata/games/clobber.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "clobber.yaml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, string(data)
}
