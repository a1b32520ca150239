package cli

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/tournament"
)

// TestWallSourceFollowsATournament: the live wall's source holds the
// standings, the cross table and the games with their positions, and the
// wall is served.
func TestWallSourceFollowsATournament(t *testing.T) {
	src := newWallSource("test")
	addr, stop, err := serveWall(context.Background(), "127.0.0.1:0", src, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	_, err = tournament.Run(context.Background(), tournament.Config{
		Registry: games.Registry(), Game: "sixes", Options: rules.Options{"turns": "8"},
		Players: []tournament.Entrant{{Name: "g", Spec: "greedy"}, {Name: "r", Spec: "random"}, {Name: "a", Spec: "alphabeta:1"}},
		Games:   2, MoveTime: 2 * time.Minute, Seed: 1, OnEvent: src.event, // a time only a hang reaches: every game goes its 8 plies
	})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := src.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Table.Standings) != 3 || len(snap.Table.Cross) != 3 || snap.Table.Cross[0][1] == "" {
		t.Errorf("table %+v", snap.Table)
	}
	if len(snap.Games) != 6 {
		t.Fatalf("%d games on the wall, want 6", len(snap.Games))
	}
	for _, g := range snap.Games {
		if g.State == nil || g.State.Ply() != 8 || g.Result == "" {
			t.Errorf("game %s: ply %v, result %q", g.ID, g.State, g.Result)
		}
	}
	select {
	case <-src.Changes():
	default:
		t.Error("no change signalled")
	}
	resp, err := http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET /: %s", resp.Status)
	}
}

// TestWallOutlivesTheTournament: with --web, the wall goes on serving the
// final standings after the last game, over a real HTTP server, until the
// process is stopped; then tournament exits 0.
func TestWallOutlivesTheTournament(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, w := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- runTournament(ctx, []string{"sixes", "--player", "g=greedy", "--player", "r=random", "--games", "1", "--set", "turns=8",
			"--movetime", "2m", "--no-gif", "--out", t.TempDir(), "--web", "127.0.0.1:0"}, w, io.Discard)
		w.Close()
	}()
	addr, kept := "", false
	sc := bufio.NewScanner(r)
	for !kept && sc.Scan() {
		line := sc.Text()
		if a, ok := strings.CutPrefix(line, "live wall at http://"); ok {
			addr = strings.TrimSuffix(a, "/")
		}
		kept = strings.Contains(line, "shows the final standings until arbiter is stopped")
	}
	if addr == "" || !kept {
		t.Fatalf("the tournament ended without keeping its wall (wall at %q)", addr)
	}
	go func() { _, _ = io.Copy(io.Discard, r) }()
	resp, err := http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatalf("the wall after the tournament: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "sixes roundrobin tournament") {
		t.Errorf("the wall after the tournament: %s\n%s", resp.Status, body)
	}
	cancel()
	if c := <-code; c != 0 {
		t.Errorf("tournament stopped after its end: exit %d", c)
	}
}
