package tournament

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"arbiter/internal/testkit"
	"arbiter/render"
	"arbiter/rules"
	"arbiter/rules/games"
)

// fake is the fake class program of package classprog, built once.
var fake string

func TestMain(m *testing.M) {
	if dir := os.Getenv("TOURNAMENT_CHILD"); dir != "" {
		os.Exit(child(dir))
	}
	dir, err := os.MkdirTemp("", "tournament")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fake = filepath.Join(dir, "fakeclass")
	if err := testkit.GoBuild(fake, "../classprog/testdata/fakeclass"); err != nil {
		fmt.Fprintf(os.Stderr, "build the fake class program: %v\n", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// roomyMoveTime is a move time only a hung program reaches, however slowly
// a loaded machine runs the class programs: a game's result must not hang
// on the machine's speed (the resume test compares two runs' standings).
const roomyMoveTime = 2 * time.Minute

// sixPlayers is the resume test's tournament: engine levels, yardsticks and
// fake class programs (one that crashes at its third move).
func sixPlayers(fakePath, out string) Config {
	return Config{
		Registry: games.Registry(), Game: "sixes", Options: rules.Options{"turns": "8"},
		Players: []Entrant{
			{"level1", "arbiter:1"}, {"level2", "arbiter:2"}, {"greedy", "greedy"}, {"random", "random"},
			{"student", "class:" + fakePath + " -game sixes"},
			{"crashy", "class:" + fakePath + " -game sixes -mode crash -at 3"},
		},
		Format: RoundRobin, Games: 2, MoveTime: roomyMoveTime, Concurrency: 2, OpeningPlies: 2, Seed: 42,
		OutDir: out, NoGIF: true,
	}
}

// child runs the six-player tournament in dir (resuming it if asked) and
// acknowledges each game once it is saved, with a line "saved N".
func child(dir string) int {
	cfg := sixPlayers(os.Getenv("TOURNAMENT_FAKE"), dir)
	cfg.Resume = os.Getenv("TOURNAMENT_RESUME") != ""
	cfg.OnEvent = func(e Event) {
		if e.Kind == GameFinished {
			fmt.Printf("saved %d\n", e.Done)
		}
	}
	if _, err := Run(context.Background(), cfg); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestResumeAfterKill kills a tournament's process right after it
// acknowledged half of its games, resumes it, and finds the finished games
// kept (not played again) and the standings equal to those of a run never
// interrupted.
func TestResumeAfterKill(t *testing.T) {
	whole := t.TempDir()
	sum, err := Run(context.Background(), sixPlayers(fake, whole))
	if err != nil {
		t.Fatal(err)
	}
	total := len(sum.Results)
	if total != 30 {
		t.Fatalf("%d games, want 15 pairings of 2", total)
	}

	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "TOURNAMENT_CHILD="+dir, "TOURNAMENT_FAKE="+fake)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	acked := 0
	for sc.Scan() {
		if _, err := fmt.Sscanf(sc.Text(), "saved %d", &acked); err == nil && acked >= total/2 {
			_ = cmd.Process.Kill() // SIGKILL, right after the acknowledgement
			break
		}
	}
	_ = cmd.Wait()
	if acked < total/2 {
		t.Fatalf("the child acknowledged %d games before it ended", acked)
	}
	var before []GameResult
	data, err := os.ReadFile(filepath.Join(dir, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &before); err != nil {
		t.Fatal(err)
	}
	if len(before) < acked {
		t.Fatalf("results.json holds %d games, %d were acknowledged", len(before), acked)
	}

	cfg := sixPlayers(fake, dir)
	cfg.Resume = true
	resumed, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if resumed.Played != total-len(before) {
		t.Errorf("the resumed run played %d games, want %d (%d were finished)", resumed.Played, total-len(before), len(before))
	}
	for i, r := range before {
		if !reflect.DeepEqual(resumed.Results[i], r) {
			t.Errorf("game %s changed on resume", r.ID)
		}
	}
	if !reflect.DeepEqual(resumed.Standings, sum.Standings) {
		t.Errorf("standings after resume:\n%s\nuninterrupted:\n%s", FormatStandings(resumed.Standings), FormatStandings(sum.Standings))
		// Name the games that ended otherwise, to find why.
		whole := map[string]GameResult{}
		for _, r := range sum.Results {
			whole[r.ID] = r
		}
		for _, r := range resumed.Results {
			if w := whole[r.ID]; w.Winner != r.Winner || w.Reason != r.Reason {
				t.Errorf("game %s (%s vs %s): %q %q after resume, %q %q uninterrupted", r.ID, r.First, r.Second, r.Winner, r.Reason, w.Winner, w.Reason)
			}
		}
	}
	// The crashing program lost its games with the reason.
	for _, r := range sum.Results {
		if (r.First == "crashy" || r.Second == "crashy") && r.Winner == "crashy" {
			t.Errorf("crashy won %s: %s", r.ID, r.Reason)
		}
	}
	for _, name := range []string{ConfigFile, ResultsFile, StandingsFile, CrossTableFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	// Without --resume a directory with a tournament is refused.
	if _, err := Run(context.Background(), sixPlayers(fake, dir)); err == nil || !strings.Contains(err.Error(), "--resume") {
		t.Errorf("a second run into the same directory: %v", err)
	}
}

// TestFilesOfATournament: results.json, standings.csv, the cross table, a
// record and a GIF per game, and class programs' transcripts in records.
func TestFilesOfATournament(t *testing.T) {
	dir := t.TempDir()
	var events []Event
	sum, err := Run(context.Background(), Config{
		Registry: games.Registry(), Game: "sixes", Options: rules.Options{"turns": "8"},
		Players: []Entrant{{"g", "greedy"}, {"s", "class:" + fake + " -game sixes"}}, Games: 2,
		MoveTime: roomyMoveTime, Seed: 1, OutDir: dir, OnEvent: func(e Event) { events = append(events, e) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Results) != 2 || sum.Results[0].First == sum.Results[1].First {
		t.Fatalf("results %+v: want two games with the sides swapped", sum.Results)
	}
	for _, r := range sum.Results {
		rec, err := os.ReadFile(filepath.Join(dir, r.Record))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := render.ParseRecord(games.Registry(), string(rec)); err != nil {
			t.Errorf("record %s does not read back: %v", r.Record, err)
		}
		if !strings.Contains(string(rec), "# Transcript of s") || !strings.Contains(string(rec), "Computer moves the piece at") {
			t.Errorf("record %s keeps no transcript:\n%s", r.Record, rec)
		}
		if st, err := os.Stat(filepath.Join(dir, r.GIF)); err != nil || st.Size() == 0 {
			t.Errorf("GIF %s: %v", r.GIF, err)
		}
	}
	csvText, err := os.ReadFile(filepath.Join(dir, StandingsFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(csvText)), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "rank,player,spec,games,points,") {
		t.Errorf("standings.csv:\n%s", csvText)
	}
	var kinds []EventKind
	var main []Event
	moved := 0
	for _, e := range events {
		kinds = append(kinds, e.Kind)
		if e.Kind == Moved {
			moved++
			if e.Position == nil || e.Position.Ply() == 0 {
				t.Errorf("a move event without its position")
			}
			continue
		}
		main = append(main, e)
	}
	if len(main) != 5 || main[4].Kind != Finished || main[3].Done != 2 || len(main[3].Standings) != 2 || len(main[3].Cross) != 2 {
		t.Errorf("events %v", kinds)
	}
	if moved != sum.Results[0].Plies+sum.Results[1].Plies {
		t.Errorf("%d move events for %d plies", moved, sum.Results[0].Plies+sum.Results[1].Plies)
	}
}

func TestFormats(t *testing.T) {
	players := func(n int) []Entrant {
		var out []Entrant
		specs := []string{"greedy", "random", "alphabeta:1", "random", "greedy", "random", "alphabeta:1"}
		for i := range n {
			out = append(out, Entrant{Name: fmt.Sprintf("p%d", i+1), Spec: specs[i]})
		}
		return out
	}
	for _, tt := range []struct {
		format  Format
		n       int
		rounds  int
		minGame int
		maxGame int
	}{
		{RoundRobin, 5, 1, 20, 20},
		{RoundRobin, 3, 2, 12, 12},
		{Gauntlet, 4, 1, 6, 6},
		{Swiss, 5, 3, 12, 12},
		{Knockout, 5, 0, 8, 8 + 4*2*3},
	} {
		t.Run(fmt.Sprintf("%s-%d", tt.format, tt.n), func(t *testing.T) {
			sum, err := Run(context.Background(), Config{Registry: games.Registry(), Game: "sixes",
				Options: rules.Options{"turns": "10"}, Players: players(tt.n), Format: tt.format, Rounds: tt.rounds,
				MoveTime: 50 * time.Millisecond, Concurrency: 2, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			played := 0
			met := map[[2]string]int{}
			for _, r := range sum.Results {
				if !r.Bye {
					played++
					a, b := min(r.First, r.Second), max(r.First, r.Second)
					met[[2]string{a, b}]++
				}
			}
			if played < tt.minGame || played > tt.maxGame {
				t.Errorf("%d games, want %d..%d", played, tt.minGame, tt.maxGame)
			}
			if tt.format == Swiss {
				for k, v := range met {
					if v > 2 {
						t.Errorf("%v met %d times", k, v)
					}
				}
			}
			total := 0.0
			for _, s := range sum.Standings {
				total += s.Points - float64(s.Byes*2)
			}
			if total != float64(played) {
				t.Errorf("points %v for %d games", total, played)
			}
		})
	}
}

func TestRoundRobinMeetsEveryoneOnce(t *testing.T) {
	for n := 2; n <= 9; n++ {
		met := map[[2]int]int{}
		rounds := map[int]map[int]bool{}
		for _, p := range roundRobin(n, 1) {
			met[key(p.a, p.b)]++
			if rounds[p.round] == nil {
				rounds[p.round] = map[int]bool{}
			}
			if rounds[p.round][p.a] || rounds[p.round][p.b] {
				t.Errorf("n=%d: a player twice in round %d", n, p.round)
			}
			rounds[p.round][p.a], rounds[p.round][p.b] = true, true
		}
		if len(met) != n*(n-1)/2 {
			t.Errorf("n=%d: %d pairings", n, len(met))
		}
		for k, v := range met {
			if v != 1 {
				t.Errorf("n=%d: %v met %d times", n, k, v)
			}
		}
	}
}

// TestFitElo: with a 75% score over many games, the fit gives about
// 400·log10(3) = 191 Elo between the two (a little less, for the prior's
// draws), an interval that narrows with games, and a LOS near 1.
func TestFitElo(t *testing.T) {
	var games []score
	for i := range 400 {
		s := 1.0
		if i%4 == 0 {
			s = 0
		}
		games = append(games, score{0, 1, s})
	}
	r, cov := FitElo(2, games)
	diff := r[0] - r[1]
	if diff < 175 || diff > 192 || math.Abs(r[0]+r[1]) > 1e-6 {
		t.Errorf("ratings %v: difference %.1f, want about 191", r, diff)
	}
	if sd := math.Sqrt(cov[0][0]); sd < 5 || sd > 30 {
		t.Errorf("sd %.1f", sd)
	}
	st := Standings([]Entrant{{"a", "x"}, {"b", "y"}}, nil)
	if st[0].Elo != 0 || st[0].LOSNext != 0.5 {
		t.Errorf("no games: %+v", st[0])
	}
	// Perfect scores stay finite.
	r, _ = FitElo(3, []score{{0, 1, 1}, {0, 2, 1}, {1, 2, 1}})
	for _, x := range r {
		if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 1000 {
			t.Errorf("perfect scores: %v", r)
		}
	}
}
