package cli

import (
	"bytes"
	"encoding/json"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/render"
	"arbiter/rules"
	"arbiter/rules/games"
)

// writeRandomRecord plays a seeded random game of name to its end and
// writes its record into dir, returning the path and the game.
func writeRandomRecord(t *testing.T, dir, name string) (string, rules.Game) {
	t.Helper()
	g, err := games.Registry().New(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	var list rules.MoveList
	for g.Status() == rules.Ongoing {
		g.Moves(&list)
		g.Play(list.Moves[rng.IntN(list.N)])
	}
	path := filepath.Join(dir, name+".txt")
	rec := render.Record(g, render.Options{Players: [2]string{"ann", "bob"}})
	if err := os.WriteFile(path, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, g
}

func TestAnalyseJSONHasTheContractShapeAndRepeats(t *testing.T) {
	args := []string{"analyse", "hiya", "--moves", "B3A4;E6F5;F3F4;E7E4", "--depth", "3", "--json"}
	code, out, errOut := runArgs(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Game    string           `json:"game"`
		Players []map[string]any `json:"players"`
		Moves   []map[string]any `json:"moves"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if got.Game != "hiya" || len(got.Players) != 2 || len(got.Moves) != 4 {
		t.Fatalf("game %q, %d players, %d moves: %s", got.Game, len(got.Players), len(got.Moves), out)
	}
	keys := func(m map[string]any) string {
		var k []string
		for key := range m {
			k = append(k, key)
		}
		return strings.Join(sortStrings(k), ",")
	}
	if k := keys(got.Players[0]); k != "accuracy,blunders,inaccuracies,mistakes,name" {
		t.Errorf("a player has the keys %s", k)
	}
	if got.Players[0]["name"] != "South" {
		t.Errorf("player 1 is %v, want South (the game's word, no record given)", got.Players[0]["name"])
	}
	for _, m := range got.Moves {
		want := "best,class,eval_after,eval_before,loss,move,ply"
		switch m["class"] {
		case "inaccuracy", "mistake", "blunder":
			want += ",why" // in words, for these classes only
		}
		if k := keys(m); k != want {
			t.Errorf("move %v (%v) has the keys %s, want %s", m["move"], m["class"], k, want)
		}
	}
	if got.Moves[3]["ply"] != 4.0 || got.Moves[3]["move"] != "E7E4" {
		t.Errorf("the last move is %v", got.Moves[3])
	}
	_, again, _ := runArgs(t, args...)
	if again != out {
		t.Errorf("two analyses at --depth 3 differ:\n%s\n%s", out, again)
	}
}

func sortStrings(s []string) []string {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
}

func TestAnalyseRecordWritesPlotAndPage(t *testing.T) {
	dir := t.TempDir()
	path, g := writeRandomRecord(t, dir, "hique")
	plot, page := filepath.Join(dir, "g.png"), filepath.Join(dir, "g.html")
	code, out, errOut := runArgs(t, "analyse", path, "--depth", "2", "--plot", plot, "--html", page)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "ann: accuracy ") || !strings.Contains(out, "bob: accuracy ") {
		t.Errorf("no accuracy lines for the record's players:\n%s", out)
	}
	if n := strings.Count(out, "\n") - 4; n != g.Ply() {
		t.Errorf("%d move lines for %d moves:\n%s", n, g.Ply(), out)
	}
	b, err := os.ReadFile(plot)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Errorf("--plot wrote no PNG: %v", err)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(html), `<tr class="move"`); n != g.Ply() {
		t.Errorf("the page has %d moves, the game %d", n, g.Ply())
	}
}

func TestAnalyseRejectsBadInput(t *testing.T) {
	dir := t.TempDir()
	path, _ := writeRandomRecord(t, dir, "sixes")
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("Game: sixes\n\n1. a1 a1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"analyse"}, "usage: arbiter analyse"},
		{[]string{"analyse", "chess"}, "neither a game record file nor a game"},
		{[]string{"analyse", "hiya", "--moves", "Z9Z9"}, "Z9Z9"},
		{[]string{"analyse", bad}, "record line 3"},
		{[]string{"analyse", path, "--moves", "a1 c1"}, "is a game record"},
		{[]string{"analyse", "hiya", "--depth=-3"}, "--depth"},
		{[]string{"analyse", "hiya", "--movetime", "soon"}, "positive duration"},
	} {
		code, _, errOut := runArgs(t, c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

func TestTournamentAnalyseWritesReviewsAndCSV(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	code, out, errOut := runArgs(t, "tournament", "hiya", "--player", "a=arbiter:2", "--player", "r=random",
		"--games", "2", "--movetime", "10ms", "--seed", "1", "--no-gif", "--out", dir, "--analyse", "--analyse-movetime", "10ms")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if n := strings.Count(out, "analysed "); n != 2 {
		t.Errorf("%d games analysed, want 2:\n%s", n, out)
	}
	csvText, err := os.ReadFile(filepath.Join(dir, AnalysisFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(csvText)), "\n")
	if len(lines) != 3 || lines[0] != "player,games,accuracy,inaccuracies,mistakes,blunders,opening,middle,end" {
		t.Errorf("analysis.csv:\n%s", csvText)
	}
	for _, ext := range []string{".analysis.json", ".analysis.png", ".analysis.html"} {
		files, _ := filepath.Glob(filepath.Join(dir, "games", "*"+ext))
		if len(files) != 2 {
			t.Errorf("%d files %s, want 2", len(files), ext)
		}
	}
	if code, _, errOut := runArgs(t, "tournament", "hiya", "--player", "a=random", "--player", "b=random", "--analyse"); code != 2 || !strings.Contains(errOut, "--analyse needs --out") {
		t.Errorf("--analyse without --out: exit %d, %q", code, errOut)
	}
}
