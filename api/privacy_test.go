package api_test

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"io"
	"net/http"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"arbiter/api"
	"arbiter/commands"
)

// eventStream is an open /events stream of a wall.
type eventStream struct {
	t     *testing.T
	lines chan string
	seen  strings.Builder
	close func()
}

// events opens a wall's event stream; it fails the test unless answered 200.
func (e *env) events(t *testing.T, path string) *eventStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.http.URL+path, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatalf("GET %s: %v", path, err)
	}
	if resp.StatusCode != http.StatusOK {
		cancel()
		t.Fatalf("GET %s: %s", path, resp.Status)
	}
	es := &eventStream{t: t, lines: make(chan string, 1024), close: func() { cancel(); resp.Body.Close() }}
	t.Cleanup(es.close)
	go func() {
		defer close(es.lines)
		for sc := bufio.NewScanner(resp.Body); sc.Scan(); {
			es.lines <- sc.Text()
		}
	}()
	return es
}

// streamHang bounds every wait in these tests for something to happen (an
// event, a message, an answer): far beyond what the slowest machine
// takes, it is reached only by a hang.
const streamHang = 2 * time.Minute

// until reads events until a line satisfies cond (true) or the stream
// ends or streamHang passes (false).
func (es *eventStream) until(cond func(line string) bool) bool {
	timeout := time.After(streamHang)
	for {
		select {
		case line, ok := <-es.lines:
			if !ok {
				return false
			}
			es.seen.WriteString(line + "\n")
			if cond(line) {
				return true
			}
		case <-timeout:
			return false
		}
	}
}

// ended reports whether the stream ends before streamHang passes.
func (es *eventStream) ended() bool {
	timeout := time.After(streamHang)
	for {
		select {
		case line, ok := <-es.lines:
			if !ok {
				return true
			}
			es.seen.WriteString(line + "\n")
		case <-timeout:
			return false
		}
	}
}

// boardData matches a board's image in an event, whose base64 may spell
// anything.
var boardData = regexp.MustCompile(`"board":"[^"]*"`)

func randomKey() string {
	raw := make([]byte, 32)
	_, _ = rand.Read(raw)
	return base64.RawURLEncoding.EncodeToString(raw)
}

// startGames starts alice against bob in c1 and carol against the bot
// in c2.
func (e *env) startGames(t *testing.T) {
	t.Helper()
	if r := e.do(alice, "c1", "play", "", "game", "sixes", "opponent", bob.ID); r.Private {
		t.Fatal(r.Text)
	}
	if r := e.do(bob, "c1", "accept", ""); r.Private {
		t.Fatal(r.Text)
	}
	if r := e.do(carol, "c2", "play", "", "game", "hique"); r.Private {
		t.Fatal(r.Text)
	}
}

// TestWallIsOffUntilTurnedOn: with games going on and no /wall on, every
// wall address (the guild's id, a made-up key, the old addresses) is 404
// and no byte of any answer names a player or the server.
func TestWallIsOffUntilTurnedOn(t *testing.T) {
	e := newEnv(t)
	e.startGames(t)
	key := randomKey()
	for _, path := range []string{"/wall/" + guild + "/", "/wall/" + guild + "/events", "/wall/" + guild,
		"/wall/" + key + "/", "/wall/" + key + "/events", "/wall/" + key + "/tournament/c1/",
		"/wall/" + guild + "/tournament/c1/events", "/wall/"} {
		code, body := e.body(path)
		if code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, code)
		}
		for _, secret := range []string{"alice", "bob", "carol", guild, "c1", "c2"} {
			if strings.Contains(body, secret) && !strings.Contains(path, secret) {
				t.Errorf("GET %s: the answer holds %q:\n%s", path, secret, body)
			}
		}
	}
}

// TestWallShowsPublicGamesByInitials: once on, the wall shows the games
// of public channels only, players by initials (the default), and when a
// referee adjudicates, the result without the referee's words.
func TestWallShowsPublicGamesByInitials(t *testing.T) {
	e := newEnv(t)
	e.startGames(t)
	if r := e.do(alice, "c3", "play", "", "game", "hiya"); r.Private { // a private channel's game
		t.Fatal(r.Text)
	}
	e.aud.hide("c3")
	hidden := e.load("c3").ID
	key := e.wall("on", "")
	if code, body := e.body("/wall/" + key + "/"); code != http.StatusOK || !strings.Contains(body, "Games going on") {
		t.Fatalf("the wall's page: %d\n%.300s", code, body)
	}
	es := e.events(t, "/wall/"+key+"/events")
	if !es.until(func(l string) bool {
		return strings.Contains(l, `"players":["A. (program)"`) || strings.Contains(l, `"players":["A.","B."]`)
	}) {
		t.Fatalf("no game of alice and bob by initials on the wall:\n%s", es.seen.String())
	}
	ref := commands.Invocation{Guild: guild, Channel: "c1", User: carol, ManageServer: true, Command: "referee", Sub: "adjudicate",
		Options: map[string]string{"result": "p2", "reason": "academic misconduct case #42"}}
	if r := e.svc.Handle(context.Background(), ref); r.Private {
		t.Fatal(r.Text)
	}
	if !es.until(func(l string) bool { return strings.Contains(l, `"status":"finished"`) }) {
		t.Fatalf("the adjudicated game never showed as finished:\n%s", es.seen.String())
	}
	es.close()
	es.ended()
	seen := boardData.ReplaceAllString(es.seen.String(), `"board":"…"`)
	for _, secret := range []string{"alice", "bob", "misconduct", "#42", "carol", "Carol", `"id":"` + hidden + `"`} {
		if strings.Contains(seen, secret) {
			t.Errorf("the wall's events hold %q:\n%s", secret, seen)
		}
	}
	if !strings.Contains(seen, `"result":"B. wins"`) {
		t.Errorf("the result is not shown as \"B. wins\":\n%s", seen)
	}
}

// TestWallNamesAnonymous: names:anonymous shows seats, never a name.
func TestWallNamesAnonymous(t *testing.T) {
	e := newEnv(t)
	e.startGames(t)
	key := e.wall("on", "anonymous")
	es := e.events(t, "/wall/"+key+"/events")
	if !es.until(func(l string) bool { return strings.Contains(l, `"players":["Player 1","Player 2"]`) }) {
		t.Fatalf("no anonymous game:\n%s", es.seen.String())
	}
	if strings.Contains(boardData.ReplaceAllString(es.seen.String(), ""), "A.") {
		t.Errorf("initials shown on an anonymous wall:\n%s", es.seen.String())
	}
}

// TestWallKeyRevoked: /wall new ends the old link (404) and its open
// pages; /wall off ends the new one.
func TestWallKeyRevoked(t *testing.T) {
	e := newEnv(t)
	e.startGames(t)
	old := e.wall("on", "")
	es := e.events(t, "/wall/"+old+"/events")
	if !es.until(func(l string) bool { return strings.HasPrefix(l, "event: game") }) {
		t.Fatal("the wall shows no game")
	}
	fresh := e.wall("new", "")
	if !es.ended() {
		t.Error("a page on the replaced link still streams")
	}
	if code, _ := e.body("/wall/" + old + "/"); code != http.StatusNotFound {
		t.Errorf("the replaced link: %d, want 404", code)
	}
	if code, _ := e.body("/wall/" + fresh + "/"); code != http.StatusOK {
		t.Errorf("the new link: %d, want 200", code)
	}
	off := e.svc.Handle(context.Background(), commands.Invocation{Guild: guild, Channel: "staff", User: carol, ManageServer: true, Command: "wall", Sub: "off"})
	if !off.Private || !strings.Contains(off.Text, "off") {
		t.Fatalf("/wall off: %q", off.Text)
	}
	if code, _ := e.body("/wall/" + fresh + "/events"); code != http.StatusNotFound {
		t.Errorf("after /wall off: %d, want 404", code)
	}
	student := e.svc.Handle(context.Background(), commands.Invocation{Guild: guild, Channel: "c1", User: alice, Command: "wall", Sub: "on"})
	if !student.Private || !strings.Contains(student.Text, "only referees") {
		t.Errorf("a student's /wall on: %q", student.Text)
	}
}

// TestWallTournamentOfAnotherGuild: a guild's wall key does not open
// another guild's tournament.
func TestWallTournamentOfAnotherGuild(t *testing.T) {
	e := newEnv(t)
	for _, u := range []commands.User{carol, alice, bob} {
		sub := map[commands.User]string{carol: "create", alice: "join", bob: "join"}[u]
		inv := commands.Invocation{Guild: "g2", Channel: "g2-tc", User: u, Command: "tournament", Sub: sub,
			Options: map[string]string{}, ManageServer: u == carol}
		if sub == "create" {
			inv.Options["game"] = "sixes"
		}
		if r := e.svc.Handle(context.Background(), inv); r.Private {
			t.Fatal(r.Text)
		}
	}
	key := e.wall("on", "display")
	for _, path := range []string{"/wall/" + key + "/tournament/g2-tc/", "/wall/" + key + "/tournament/g2-tc/events"} {
		code, body := e.body(path)
		if code != http.StatusNotFound || strings.Contains(body, "alice") || strings.Contains(body, "Sixes") {
			t.Errorf("GET %s: %d\n%s", path, code, body)
		}
	}
}

// TestMadeUpWallPathsKeepMemoryFlat: 10,000 requests for made-up walls
// open no wall and leave the heap where it was; the real wall still
// answers.
func TestMadeUpWallPathsKeepMemoryFlat(t *testing.T) {
	e := newEnv(t)
	e.startGames(t)
	key := e.wall("on", "")
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	client := &http.Client{}
	get := func(path string) int {
		resp, err := client.Get(e.http.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	const n = 10000
	for i := range 200 { // warm up the server's pools
		get("/wall/" + randomKey() + "/events?" + string(rune('a'+i%26)))
	}
	before := heap()
	for i := range n {
		path := "/wall/" + randomKey() + "/events"
		if i%2 == 1 {
			path = "/wall/x" + randomKey()[:10] + "/"
		}
		if code := get(path); code != http.StatusNotFound {
			t.Fatalf("GET %s: %d, want 404", path, code)
		}
	}
	after := heap()
	t.Logf("heap %d bytes before and %d after %d made-up wall requests", before, after, n)
	if live := e.api.LiveWalls(); live != 0 {
		t.Errorf("%d walls live after made-up requests; want 0", live)
	}
	if after > before+4<<20 {
		t.Errorf("the heap grew from %d to %d bytes over %d made-up walls", before, after, n)
	}
	es := e.events(t, "/wall/"+key+"/events")
	if !es.until(func(l string) bool { return strings.HasPrefix(l, "event: game") }) {
		t.Fatal("the real wall shows no game after the made-up requests")
	}
}

// TestWallStreamOutlivesReadTimeout: a wall's page, served with a 1 s
// read timeout, still gets a move made 1.5 s after it opened.
func TestWallStreamOutlivesReadTimeout(t *testing.T) {
	e := newEnv(t)
	e.startGames(t)
	key := e.wall("on", "")
	es := e.events(t, "/wall/"+key+"/events")
	if !es.until(func(l string) bool { return strings.HasPrefix(l, "event: game") }) {
		t.Fatal("the wall shows no game")
	}
	time.Sleep(1500 * time.Millisecond)
	if r := e.do(alice, "c1", "move", "", "move", "a2 a3"); r.Private {
		t.Fatal(r.Text)
	}
	if !es.until(func(l string) bool { return strings.Contains(l, `"ply":1`) }) {
		t.Fatalf("the move made after the read timeout never reached the page:\n%s", boardData.ReplaceAllString(es.seen.String(), ""))
	}
}

// TestWallCaps: one page too many on a wall, and one watched wall too
// many on the server, are refused saying why; a wall nobody watches any
// more makes room.
func TestWallCaps(t *testing.T) {
	e := newEnvWith(t, nil, func(o *api.Options) { o.MaxWalls, o.MaxViewers = 2, 1 })
	k1, k2, k3 := e.wallIn("g1", "on", ""), e.wallIn("g2", "on", ""), e.wallIn("g3", "on", "")
	first := e.events(t, "/wall/"+k1+"/events")
	if code, body := e.body("/wall/" + k1 + "/events"); code != http.StatusServiceUnavailable || !strings.Contains(body, "too many screens") {
		t.Errorf("a second page on a one-page wall: %d %q", code, body)
	}
	e.events(t, "/wall/"+k2+"/events")
	if code, body := e.body("/wall/" + k3 + "/events"); code != http.StatusServiceUnavailable || !strings.Contains(body, "Too many walls are being watched") {
		t.Errorf("a third watched wall of two: %d %q", code, body)
	}
	first.close()
	first.ended()
	for end := time.Now().Add(streamHang); ; time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get(e.http.URL + "/wall/" + k3 + "/events")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the third wall never got the place of the one nobody watches: %s", resp.Status)
		}
	}
}

// TestWallNamesChangeReachesOpenPages: /wall names closes the streams
// open on the wall, whose pages reconnect to the new names.
func TestWallNamesChangeReachesOpenPages(t *testing.T) {
	e := newEnv(t)
	e.startGames(t)
	key := e.wall("on", "")
	es := e.events(t, "/wall/"+key+"/events")
	if !es.until(func(l string) bool { return strings.Contains(l, `"A.","B."`) }) {
		t.Fatal("no game by initials")
	}
	r := e.svc.Handle(context.Background(), commands.Invocation{Guild: guild, Channel: "staff", User: carol, ManageServer: true, Command: "wall", Sub: "names",
		Options: map[string]string{"names": "display"}})
	if !r.Private || !strings.Contains(r.Text, "by their names") {
		t.Fatalf("/wall names: %q", r.Text)
	}
	if !es.ended() {
		t.Fatal("the open stream went on with the old names")
	}
	again := e.events(t, "/wall/"+key+"/events")
	if !again.until(func(l string) bool { return strings.Contains(l, `"alice","bob"`) }) {
		t.Fatalf("the reconnected page does not show display names:\n%s", boardData.ReplaceAllString(again.seen.String(), ""))
	}
}
