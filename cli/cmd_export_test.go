package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/open"
)

func TestRunExportGrades(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	t.Setenv("DATA_DIR", data)
	t.Setenv("REDIS_URL", "")
	reg := games.Registry()
	st, err := open.Store(ctx, store.Config{DataDir: data, Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	state, _ := reg.New("hiya", nil)
	at := time.Date(2026, 2, 3, 10, 0, 0, 0, time.UTC)
	g := &store.Game{Channel: "c1", Guild: "g1", Name: "hiya", Options: state.Options(), State: state, Status: store.Active,
		Players: [2]store.Player{{Kind: store.Human, UserID: "1", Name: "ann"}, {Kind: store.Bot, Level: 2, Name: "Arbiter"}},
		Created: at, Updated: at}
	if err := st.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	g.Status, g.Result, g.Reason, g.Finished = store.Finished, rules.P1Wins, "king attacked", at
	if err := st.Save(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := st.Archive(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(ctx); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "grades")
	var stdout, stderr bytes.Buffer
	if code := Main(ctx, []string{"export", "grades", "--guild", "g1", "--from", "2026-02-01", "--to", "2026-02-03", "--out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	grades, err := os.ReadFile(filepath.Join(out, "grades.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(grades), "hiya,1,ann,1,1,0,0,1,0,0,") || !strings.Contains(string(grades), "hiya,bot:2,Arbiter,1,0,0,1,0,0,0,") {
		t.Errorf("grades.csv:\n%s", grades)
	}
	gamesCSV, err := os.ReadFile(filepath.Join(out, "games.csv"))
	if err != nil || !strings.Contains(string(gamesCSV), "king attacked") {
		t.Errorf("games.csv: %s %v", gamesCSV, err)
	}
	// The period's last day is included; the day after is not.
	stdout.Reset()
	if code := Main(ctx, []string{"export", "grades", "--guild", "g1", "--to", "2026-02-02"}, &stdout, &stderr); code != 0 || strings.Count(stdout.String(), "\n") != 1 {
		t.Errorf("exit %d, a period before the game:\n%s", code, stdout.String())
	}
	for _, args := range [][]string{{"export"}, {"export", "grades"}, {"export", "grades", "--guild", "g1", "--from", "March"}} {
		if code := Main(ctx, args, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit %d", args, code)
		}
	}
}
