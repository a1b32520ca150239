package api_test

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"

	"arbiter/commands"
)

// TestClassTournamentWall: a tournament made with /tournament in Discord
// has its own wall on API_ADDR under the server's wall key
// (/wall/KEY/tournament/CHANNEL/): the page names it, and its events carry
// the standings with the players' names as the referee chose to show them
// (here, as shown in the server); a channel without a tournament has none.
func TestClassTournamentWall(t *testing.T) {
	e := newEnv(t)
	ref := func(user commands.User, sub string, opts map[string]string) commands.Reply {
		t.Helper()
		inv := commands.Invocation{Guild: guild, Channel: "tc", User: user, Command: "tournament", Sub: sub,
			Options: opts, Users: map[string]commands.User{}, ManageServer: user == carol}
		r := e.svc.Handle(context.Background(), inv)
		if r.Private {
			t.Fatalf("/tournament %s by %s refused: %s", sub, user.Name, r.Text)
		}
		return r
	}
	ref(carol, "create", map[string]string{"game": "sixes"})
	ref(alice, "join", map[string]string{})
	ref(bob, "join", map[string]string{})
	ref(carol, "start", map[string]string{})

	key := e.wall("on", "display")
	if code, page := e.body("/wall/" + key + "/tournament/tc/"); code != http.StatusOK || !strings.Contains(page, "Sixes tournament") {
		t.Fatalf("tournament wall: %d\n%.400s", code, page)
	}

	ctx, cancel := context.WithTimeout(context.Background(), streamHang)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.http.URL+"/wall/"+key+"/tournament/tc/events", nil)
	ev, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Body.Close()
	sawTable := false
	for sc := bufio.NewScanner(ev.Body); sc.Scan(); {
		if line := sc.Text(); strings.HasPrefix(line, "data:") && strings.Contains(line, "alice") && strings.Contains(line, "bob") &&
			strings.Contains(line, "standings") {
			sawTable = true
			break
		}
	}
	if !sawTable {
		t.Fatal("the wall's events never carried the standings with alice and bob")
	}

	if code, _ := e.body("/wall/" + key + "/tournament/nothing-here/"); code != http.StatusNotFound {
		t.Fatalf("a channel without a tournament: %d, want 404", code)
	}
}
