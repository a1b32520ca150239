package api_test

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"arbiter/api"
	"arbiter/rules/described"
)

// TestTournamentWallTitlesADescribedGame: a game of GAMES_DIR (here the
// tutorial's Clobber) is shown on a tournament's wall under its file's
// title, with its board.
func TestTournamentWallTitlesADescribedGame(t *testing.T) {
	data, err := os.ReadFile("../cli/testdata/games/clobber.yaml")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := described.Load("clobber.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	g, err := spec.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	src := &tournament{changes: make(chan struct{})}
	src.t.Games = []api.LiveGame{{ID: "1", Players: [2]string{"Ada", "Alan"}, State: g, Version: 0}}
	ctx, cancel := context.WithTimeout(context.Background(), streamHang)
	defer cancel()
	srv := httptest.NewServer(api.TournamentWall(ctx, src, nil))
	defer srv.Close()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "data: ") {
			continue
		}
		if !strings.Contains(line, `"title":"Clobber"`) || !strings.Contains(line, `"board":"data:image/png;base64,`) {
			t.Fatalf("the game's event is %.300s", line)
		}
		return
	}
	t.Fatalf("no game event: %v", sc.Err())
}
