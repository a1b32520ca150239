package api_test

import (
	"bufio"
	"context"
	"image/png"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/commands"
)

// TestTournamentWallLinksTheAnalysisGraphs: once a class tournament's
// round is over, its wall (under the server's wall key, names shown) links
// each game's analysis graph and review page; the first request puts the
// analysis in line (202), and once the workers have made it the links
// serve the PNG and the page. On a wall showing initials there are no
// links, and the analysis addresses are the wall's 404.
func TestTournamentWallLinksTheAnalysisGraphs(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { e.svc.RunWorkers(ctx) })
	t.Cleanup(func() { cancel(); wg.Wait() })
	ref := func(user commands.User, sub string, opts map[string]string) {
		t.Helper()
		inv := commands.Invocation{Guild: guild, Channel: "ta", User: user, Command: "tournament", Sub: sub,
			Options: opts, Users: map[string]commands.User{}, ManageServer: user == carol}
		if r := e.svc.Handle(context.Background(), inv); r.Private {
			t.Fatalf("/tournament %s by %s refused: %s", sub, user.Name, r.Text)
		}
	}
	ref(carol, "create", map[string]string{"game": "sixes"})
	ref(alice, "join", map[string]string{})
	ref(bob, "join", map[string]string{})
	ref(carol, "start", map[string]string{})
	v, err := e.svc.TournamentView(context.Background(), "ta")
	if err != nil || len(v.Channels) != 1 {
		t.Fatalf("tournament view %+v, %v", v, err)
	}
	ch := v.Channels[0]
	g := e.load(ch)
	mover := alice
	if g.Players[g.State.ToMove()].UserID == bob.ID {
		mover = bob
	}
	if r := e.do(mover, ch, "resign", ""); r.Private {
		t.Fatalf("resign: %s", r.Text)
	}

	key := e.wall("on", "display")
	evctx, evcancel := context.WithTimeout(context.Background(), streamHang)
	defer evcancel()
	req, _ := http.NewRequestWithContext(evctx, http.MethodGet, e.http.URL+"/wall/"+key+"/tournament/ta/events", nil)
	ev, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Body.Close()
	link := regexp.MustCompile(`"graph":"(/wall/[^"]+/analysis/[^"]+)","page":"([^"]+)"`)
	url, pageURL := "", ""
	for sc := bufio.NewScanner(ev.Body); sc.Scan() && url == ""; {
		if m := link.FindStringSubmatch(sc.Text()); m != nil && strings.Contains(sc.Text(), `"label":"round 1: `) {
			url, pageURL = m[1], m[2]
		}
	}
	if url == "" {
		t.Fatal("the wall never linked the finished game's analysis")
	}
	resp, err := http.Get(e.http.URL + url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("first request for the graph: %d, want 202 (put in line)", resp.StatusCode)
	}
	for end := time.Now().Add(streamHang); ; time.Sleep(100 * time.Millisecond) {
		resp, err := http.Get(e.http.URL + url)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode == http.StatusOK {
			_, err := png.Decode(resp.Body)
			resp.Body.Close()
			if err != nil || resp.Header.Get("Content-Type") != "image/png" {
				t.Fatalf("the graph: %s, %v", resp.Header.Get("Content-Type"), err)
			}
			break
		}
		resp.Body.Close()
		if time.Now().After(end) {
			t.Fatalf("the graph never came: last status %d", resp.StatusCode)
		}
	}
	if code, page := e.body(pageURL); code != http.StatusOK || !strings.Contains(page, `<pre id="board0"`) {
		t.Errorf("the review page: %d\n%.300s", code, page)
	}
	for _, path := range []string{"/wall/" + key + "/analysis/999", "/wall/" + guild + url[strings.Index(url, "/analysis/"):]} {
		resp, err = http.Get(e.http.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, resp.StatusCode)
		}
	}
	if r := e.svc.Handle(context.Background(), commands.Invocation{Guild: guild, Channel: "staff", User: carol, ManageServer: true,
		Command: "wall", Sub: "names", Options: map[string]string{"names": "initials"}}); !r.Private {
		t.Fatalf("/wall names: %q", r.Text)
	}
	if resp, err := http.Get(e.http.URL + url); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("the analysis on a wall showing initials: %v %v, want 404", resp, err)
	} else {
		resp.Body.Close()
	}
	es := e.events(t, "/wall/"+key+"/tournament/ta/events")
	if !es.until(func(l string) bool { return strings.HasPrefix(l, "data:") && strings.Contains(l, `"standings"`) }) {
		t.Fatal("no table on the initials wall")
	}
	if strings.Contains(es.seen.String(), "reviews") || strings.Contains(es.seen.String(), "alice") {
		t.Errorf("the initials wall links the analyses or names a player:\n%s", es.seen.String())
	}
}
