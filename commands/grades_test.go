package commands

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"strings"
	"testing"
	"time"

	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/open"
)

// TestGradesSumsACoursePeriod archives games in the embedded store and
// reads the grades of a period back: W/D/L, points, timeouts, forfeits,
// the period's bounds, and a row a game.
func TestGradesSumsACoursePeriod(t *testing.T) {
	ctx := context.Background()
	reg := games.Registry()
	st, err := open.Store(ctx, store.Config{DataDir: t.TempDir(), Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(ctx)
	alice := store.Player{Kind: store.Human, UserID: "100", Name: "alice"}
	bob := store.Player{Kind: store.Human, UserID: "200", Name: "bob"}
	bot := store.Player{Kind: store.Bot, Level: 3, Name: "Arbiter"}
	day := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	archive := func(n int, p1, p2 store.Player, result rules.Result, reason string, finished time.Time) {
		t.Helper()
		state, err := reg.New("sixes", nil)
		if err != nil {
			t.Fatal(err)
		}
		g := &store.Game{Channel: fmt.Sprintf("c%d", n), Guild: "g1", Name: "sixes", Options: state.Options(),
			Players: [2]store.Player{p1, p2}, State: state, Status: store.Active, Created: finished, Updated: finished}
		if err := st.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		g.Status, g.Result, g.Reason, g.Finished = store.Finished, result, reason, finished
		if err := st.Save(ctx, g); err != nil {
			t.Fatal(err)
		}
		if err := st.Archive(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	archive(1, alice, bob, rules.P1Wins, "turn limit reached", day)
	archive(2, bob, alice, rules.P1Wins, "O ran out of time", day.Add(time.Hour))
	archive(3, alice, bob, rules.Draw, "turn limit reached: a draw", day.Add(2*time.Hour))
	archive(4, bob, bot, rules.P2Wins, "X resigned", day.Add(3*time.Hour))
	archive(5, alice, bob, rules.P2Wins, "X resigned", day.AddDate(0, 2, 0)) // after the period

	rows, list, err := Grades(ctx, st, "g1", day, day.AddDate(0, 1, 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 4 {
		t.Fatalf("%d games in the period, want 4", len(list))
	}
	want := map[string]GradeRow{
		"100":   {Game: "sixes", Player: "100", Name: "alice", Games: 3, Wins: 1, Draws: 1, Losses: 1, Points: 1.5, Timeouts: 1},
		"200":   {Game: "sixes", Player: "200", Name: "bob", Games: 4, Wins: 1, Draws: 1, Losses: 2, Points: 1.5, Forfeits: 1},
		"bot:3": {Game: "sixes", Player: "bot:3", Name: "Arbiter", Games: 1, Wins: 1, Points: 1},
	}
	if len(rows) != 3 {
		t.Fatalf("rows %+v", rows)
	}
	for _, r := range rows {
		if r != want[r.Player] {
			t.Errorf("row %+v, want %+v", r, want[r.Player])
		}
	}
	var b bytes.Buffer
	if err := WriteGradesCSV(&b, rows); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(recs) != 4 || strings.Join(recs[0], ",") != "game,player,name,games,wins,draws,losses,points,timeouts,forfeits,rating" {
		t.Errorf("grades CSV %v %v", recs, err)
	}
	b.Reset()
	if err := WriteGamesCSV(&b, list); err != nil {
		t.Fatal(err)
	}
	if recs, err := csv.NewReader(&b).ReadAll(); err != nil || len(recs) != 5 || recs[1][5] != "p1" || recs[4][4] != "bot:3" {
		t.Errorf("games CSV %v %v", recs, err)
	}
}
