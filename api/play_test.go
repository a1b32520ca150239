package api_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"arbiter/commands"
)

var linkPattern = regexp.MustCompile(`/play/link/([A-Za-z0-9_-]{43})`)

// challenge starts a game of name between alice (first) and bob in
// channel and returns its id.
func (e *env) challenge(channel, name string) string {
	e.t.Helper()
	if r := e.do(alice, channel, "play", "", "game", name, "opponent", bob.ID, "side", "first"); r.Private {
		e.t.Fatalf("/play: %s", r.Text)
	}
	if r := e.do(bob, channel, "accept", ""); r.Private {
		e.t.Fatalf("/accept: %s", r.Text)
	}
	return e.load(channel).ID
}

// boardLink is user's /board link:true in channel: the link's path.
func (e *env) boardLink(user commands.User, channel string) string {
	e.t.Helper()
	r := e.do(user, channel, "board", "", "link", "true")
	m := linkPattern.FindStringSubmatch(r.Text)
	if m == nil || !r.Private {
		e.t.Fatalf("/board link:true answered %q (private %v); want a private link", r.Text, r.Private)
	}
	return m[0]
}

// pageClient is a cookie-keeping client that does not follow redirects.
type pageClient struct {
	e      *env
	client *http.Client
	csrf   string
}

func (e *env) client() *pageClient {
	jar, _ := cookiejar.New(nil)
	return &pageClient{e: e, client: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// do sends a request as the page's own script would (same origin).
func (b *pageClient) do(method, path, body string, hdr ...string) (int, string, http.Header) {
	b.e.t.Helper()
	req, _ := http.NewRequest(method, b.e.http.URL+path, strings.NewReader(body))
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("Origin", b.e.http.URL)
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i+1] == "" {
			req.Header.Del(hdr[i])
		} else {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	resp, err := b.client.Do(req)
	if err != nil {
		b.e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data), resp.Header
}

var csrfPattern = regexp.MustCompile(`name="arbiter-csrf" content="([^"]+)"`)

// open uses a link and loads the board page, keeping its anti-forgery token.
func (b *pageClient) open(link, game string) {
	b.e.t.Helper()
	code, _, hdr := b.do("POST", link, "")
	if code != http.StatusSeeOther || hdr.Get("Location") != "/play/game/"+game+"/" {
		b.e.t.Fatalf("using the link: %d to %q; want 303 to the game", code, hdr.Get("Location"))
	}
	cookie := hdr.Get("Set-Cookie")
	for _, want := range []string{"HttpOnly", "SameSite=Strict", "Path=/play/game/" + game + "/"} {
		if !strings.Contains(cookie, want) {
			b.e.t.Errorf("session cookie %q lacks %s", cookie, want)
		}
	}
	code, page, _ := b.do("GET", "/play/game/"+game+"/", "")
	m := csrfPattern.FindStringSubmatch(page)
	if code != http.StatusOK || m == nil {
		b.e.t.Fatalf("board page: %d %.300s", code, page)
	}
	b.csrf = m[1]
}

// state is the game as the page sees it.
func (b *pageClient) state(game string) commands.PlayView {
	b.e.t.Helper()
	code, body, _ := b.do("GET", "/play/game/"+game+"/state", "")
	var v commands.PlayView
	if code != http.StatusOK || json.Unmarshal([]byte(body), &v) != nil {
		b.e.t.Fatalf("state: %d %s", code, body)
	}
	return v
}

// act posts an action with the page's token.
func (b *pageClient) act(game, action, move string, version int64, hdr ...string) (int, map[string]any) {
	b.e.t.Helper()
	body, _ := json.Marshal(map[string]any{"action": action, "move": move, "version": version})
	code, out, _ := b.do("POST", "/play/game/"+game+"/act", string(body), append([]string{"X-Arbiter-CSRF", b.csrf, "Content-Type", "application/json"}, hdr...)...)
	var ans map[string]any
	_ = json.Unmarshal([]byte(out), &ans)
	return code, ans
}

// TestPlayPageMovesLikeASlashCommand opens alice's board through a
// one-time link, plays a move from it, and sees bob's slash-command
// answer arrive; the move is recorded and posted as /move's would be.
func TestPlayPageMovesLikeASlashCommand(t *testing.T) {
	e := newEnv(t)
	game := e.challenge("c1", "sixes")
	b := e.client()
	b.open(e.boardLink(alice, "c1"), game)
	v := b.state(game)
	if v.You != 1 || v.ToMove != 1 || len(v.Moves) == 0 || !strings.Contains(v.SVG, `class="cell"`) {
		t.Fatalf("alice's view: you %d, to move %d, %d moves", v.You, v.ToMove, len(v.Moves))
	}
	move := v.Moves[0].Text
	before := len(e.posts.msgs)
	code, ans := b.act(game, "move", move, v.Version)
	if code != http.StatusOK || ans["ok"] != true {
		t.Fatalf("move from the page: %d %v", code, ans)
	}
	g := e.load("c1")
	if len(g.Moves) != 1 || g.Moves[0].Text != move || g.Moves[0].By != alice.ID {
		t.Fatalf("recorded moves %+v; want alice's %s", g.Moves, move)
	}
	e.posts.mu.Lock()
	posted := e.posts.msgs[before:]
	e.posts.mu.Unlock()
	if len(posted) != 1 || !strings.Contains(posted[0], "c1: ") || !strings.Contains(posted[0], move) {
		t.Errorf("posted %q; want the move's message in c1", posted)
	}
	// bob answers by slash command; the page sees it.
	var list []string
	for _, m := range b.state(game).Moves {
		list = append(list, m.Text)
	}
	if len(list) != 0 {
		t.Errorf("alice is offered moves on bob's turn: %v", list)
	}
	bobMove := firstMove(t, e, "c1")
	if r := e.do(bob, "c1", "move", "", "move", bobMove); r.Private {
		t.Fatalf("bob's /move: %s", r.Text)
	}
	if v := b.state(game); v.Last != bobMove || v.ToMove != 1 || len(v.Moves) == 0 {
		t.Errorf("after bob's move the page shows last %q, to move %d", v.Last, v.ToMove)
	}
}

// TestPlayPageEvents streams the game: the state at once, then each move.
func TestPlayPageEvents(t *testing.T) {
	e := newEnv(t)
	game := e.challenge("c1", "hiya")
	b := e.client()
	b.open(e.boardLink(alice, "c1"), game)
	req, _ := http.NewRequest("GET", e.http.URL+"/play/game/"+game+"/events", nil)
	ctx, cancel := context.WithTimeout(context.Background(), streamHang)
	defer cancel()
	req = req.WithContext(ctx)
	resp, err := b.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := make(chan commands.PlayView, 8)
	go func() {
		buf := make([]byte, 1<<20)
		var text string
		for {
			n, err := resp.Body.Read(buf)
			text += string(buf[:n])
			for {
				i := strings.Index(text, "\n\n")
				if i < 0 {
					break
				}
				block := text[:i]
				text = text[i+2:]
				if data, ok := strings.CutPrefix(block, "event: game\ndata: "); ok {
					var v commands.PlayView
					if json.Unmarshal([]byte(data), &v) == nil {
						events <- v
					}
				}
			}
			if err != nil {
				close(events)
				return
			}
		}
	}()
	first := <-events
	if first.Version == 0 || first.You != 1 {
		t.Fatalf("first event %+v", first.Version)
	}
	move := first.Moves[0].Text
	if r := e.do(alice, "c1", "move", "", "move", move); r.Private {
		t.Fatalf("/move: %s", r.Text)
	}
	select {
	case v := <-events:
		if v.Last != move || v.Version <= first.Version {
			t.Errorf("event after the move: last %q version %d", v.Last, v.Version)
		}
	case <-ctx.Done():
		t.Fatal("no event after the move")
	}
}

// TestPlayPageRefusals: a link works once and for ten minutes; a
// session serves its own game only; an action from another site, without
// the page's token, or for an older state is refused; each changes
// nothing.
func TestPlayPageRefusals(t *testing.T) {
	e := newEnv(t)
	game := e.challenge("c1", "sixes")
	other := e.challenge("c2", "hique")
	link := e.boardLink(alice, "c1")

	// A cross-site use of the link is refused and does not spend it.
	b := e.client()
	if code, _, _ := b.do("POST", link, "", "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"); code != http.StatusForbidden {
		t.Errorf("cross-site use of a link: %d; want 403", code)
	}
	b.open(link, game)
	// Used twice.
	if code, page, hdr := e.client().do("POST", link, ""); code != http.StatusGone || hdr.Get("Set-Cookie") != "" || !strings.Contains(page, "used already") {
		t.Errorf("second use of a link: %d, cookie %q", code, hdr.Get("Set-Cookie"))
	}
	if code, _, _ := e.client().do("GET", link, ""); code != http.StatusGone {
		t.Errorf("page of a used link: %d; want 410", code)
	}
	// After ten minutes.
	late := e.boardLink(alice, "c1")
	if code, _, _ := e.client().do("GET", late, ""); code != http.StatusOK {
		t.Errorf("page of a fresh link: %d; want 200", code)
	}
	e.clock.Advance(10*time.Minute + time.Second)
	if code, _, hdr := e.client().do("POST", late, ""); code != http.StatusGone || hdr.Get("Set-Cookie") != "" {
		t.Errorf("link after ten minutes: %d, cookie %q", code, hdr.Get("Set-Cookie"))
	}
	// Only players get links.
	if r := e.do(carol, "c1", "board", "", "link", "true"); !r.Private || linkPattern.MatchString(r.Text) {
		t.Errorf("a spectator's /board link:true answered %q", r.Text)
	}

	v := b.state(game)
	move := v.Moves[0].Text
	unchanged := func(what string) {
		t.Helper()
		if g := e.load("c1"); g.Version != v.Version || len(g.Moves) != 0 {
			t.Errorf("%s changed the game: version %d, moves %d", what, g.Version, len(g.Moves))
		}
	}
	// The session cookie is for c1's game only (its path, and the check).
	for _, path := range []string{"/play/game/" + other + "/state", "/play/game/" + other + "/"} {
		if code, _, _ := b.do("GET", path, ""); code != http.StatusUnauthorized && code != http.StatusForbidden {
			t.Errorf("GET %s with the session of another game: %d", path, code)
		}
	}
	cookies := b.client.Jar.Cookies(mustURL(t, e.http.URL+"/play/game/"+game+"/"))
	req, _ := http.NewRequest("GET", e.http.URL+"/play/game/"+other+"/state", nil)
	for _, c := range cookies {
		req.AddCookie(c)
	}
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("the cookie of game %s sent for game %s: %v %v; want 403", game, other, resp.StatusCode, err)
	}
	if code, _ := b.act(other, "move", move, v.Version); code != http.StatusUnauthorized && code != http.StatusForbidden {
		t.Errorf("act on another game: %d", code)
	}
	// Cross-site, and without the token.
	if code, _ := b.act(game, "move", move, v.Version, "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"); code != http.StatusForbidden {
		t.Errorf("cross-site act: %d; want 403", code)
	}
	unchanged("a cross-site action")
	if code, _ := b.act(game, "move", move, v.Version, "X-Arbiter-CSRF", ""); code != http.StatusForbidden {
		t.Errorf("act without the page's token: %d; want 403", code)
	}
	if code, _ := b.act(game, "move", move, v.Version, "X-Arbiter-CSRF", "forged"); code != http.StatusForbidden {
		t.Errorf("act with a forged token: %d; want 403", code)
	}
	unchanged("an action without the page's token")
	// Stale: the page showed an older version.
	if code, ans := b.act(game, "move", move, v.Version-1); code != http.StatusOK || ans["ok"] != false {
		t.Errorf("stale act: %d %v; want a refusal", code, ans)
	}
	unchanged("a stale action")
	// Illegal and unknown actions.
	if code, ans := b.act(game, "move", "z9 z9", v.Version); code != http.StatusOK || ans["ok"] != false {
		t.Errorf("illegal move: %d %v", code, ans)
	}
	if code, _ := b.act(game, "delete", "", v.Version); code != http.StatusBadRequest {
		t.Errorf("unknown action: %d; want 400", code)
	}
	unchanged("refused actions")
	// No session at all.
	if code, _, _ := e.client().do("GET", "/play/game/"+game+"/state", ""); code != http.StatusUnauthorized {
		t.Errorf("state without a session: %d; want 401", code)
	}
}

// TestPlayPageResign resigns from the page: the
// confirmation is the page's, the resignation the flow's own.
func TestPlayPageResign(t *testing.T) {
	e := newEnv(t)
	game := e.challenge("c1", "upthrust")
	b := e.client()
	b.open(e.boardLink(bob, "c1"), game)
	v := b.state(game)
	if v.You != 2 {
		t.Fatalf("bob's seat %d; want 2", v.You)
	}
	if code, ans := b.act(game, "resign", "", v.Version); code != http.StatusOK || ans["ok"] != true {
		t.Fatalf("resign: %d %v", code, ans)
	}
	if _, err := e.st.Load(context.Background(), "c1"); err == nil {
		t.Errorf("the game is still going on after the resignation")
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestPlayPageWeight: everything the page loads (its HTML, every script,
// the vendored SDK and the style sheet), gzipped, stays under 150 KB.
func TestPlayPageWeight(t *testing.T) {
	e := newEnv(t)
	game := e.challenge("c1", "hique")
	b := e.client()
	b.open(e.boardLink(alice, "c1"), game)
	paths := []string{"/play/game/" + game + "/", "/play/game/" + game + "/state", "/play/activity/"}
	// The files the server embeds, read from its source folder (it lists
	// none of them itself).
	for _, dir := range []string{"", "vendor/"} {
		entries, err := os.ReadDir("play/assets/" + dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range entries {
			if name := f.Name(); !f.IsDir() && (strings.HasSuffix(name, ".js") || (dir == "" && strings.HasSuffix(name, ".css"))) {
				paths = append(paths, "/play/assets/"+dir+name)
			}
		}
	}
	total := 0
	for _, p := range paths {
		code, body, _ := b.do("GET", p, "")
		if code != http.StatusOK {
			t.Fatalf("GET %s: %d", p, code)
		}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		_, _ = zw.Write([]byte(body))
		_ = zw.Close()
		t.Logf("%s: %d bytes, %d gzipped", p, len(body), buf.Len())
		total += buf.Len()
	}
	if len(paths) < 8 {
		t.Fatalf("only %d files weighed: %v", len(paths), paths)
	}
	t.Logf("the play page weighs %d bytes gzipped (HiQUE's board included)", total)
	if total > 150_000 {
		t.Errorf("the play page weighs %d bytes gzipped; the budget is 150 KB", total)
	}
}

// TestPlayPageDrawAndTakeback: a draw offer and a takeback asked from the
// page are the flow's own, posted in the channel; the other player's
// page sees the offer.
func TestPlayPageDrawAndTakeback(t *testing.T) {
	e := newEnv(t)
	game := e.challenge("c1", "hiya")
	ann, bobs := e.client(), e.client()
	ann.open(e.boardLink(alice, "c1"), game)
	bobs.open(e.boardLink(bob, "c1"), game)
	v := ann.state(game)
	if code, ans := ann.act(game, "move", v.Moves[0].Text, v.Version); code != http.StatusOK || ans["ok"] != true {
		t.Fatalf("move: %d %v", code, ans)
	}
	v = ann.state(game)
	if code, ans := ann.act(game, "undo", "", v.Version); code != http.StatusOK || ans["ok"] != true || !strings.Contains(ans["text"].(string), "take back") {
		t.Fatalf("takeback asked: %d %v", code, ans)
	}
	if bv := bobs.state(game); bv.UndoOffer != 1 {
		t.Errorf("bob's page shows undo offer %d; want 1", bv.UndoOffer)
	}
	bv := bobs.state(game)
	if code, ans := bobs.act(game, "undo", "", bv.Version); code != http.StatusOK || ans["ok"] != true {
		t.Fatalf("takeback allowed: %d %v", code, ans)
	}
	if g := e.load("c1"); len(g.Moves) != 0 {
		t.Errorf("after the takeback %d moves remain", len(g.Moves))
	}
	// Hi-Ya! has no draws; Sixes has.
	if code, ans := ann.act(game, "draw", "", ann.state(game).Version); code != http.StatusOK || ans["ok"] != false {
		t.Errorf("a draw offered in Hi-Ya!: %d %v; want a refusal", code, ans)
	}
	game = e.challenge("c2", "sixes")
	ann.open(e.boardLink(alice, "c2"), game)
	bobs.open(e.boardLink(bob, "c2"), game)
	v = ann.state(game)
	if code, ans := ann.act(game, "draw", "", v.Version); code != http.StatusOK || ans["ok"] != true {
		t.Fatalf("draw offered: %d %v", code, ans)
	}
	bv = bobs.state(game)
	if bv.DrawOffer != 1 {
		t.Errorf("bob's page shows draw offer %d; want 1", bv.DrawOffer)
	}
	if code, ans := bobs.act(game, "draw", "", bv.Version); code != http.StatusOK || ans["ok"] != true {
		t.Fatalf("draw accepted: %d %v", code, ans)
	}
	if v := ann.state(game); v.Status != "finished" || !strings.Contains(v.Result, "draw") {
		t.Errorf("after the draw the page shows %q %q", v.Status, v.Result)
	}
	e.posts.mu.Lock()
	defer e.posts.mu.Unlock()
	joined := strings.Join(e.posts.msgs, "\n")
	for _, want := range []string{"asks to take back", "taken back", "offers a draw", "accepts the draw"} {
		if !strings.Contains(joined, want) {
			t.Errorf("nothing posted says %q:\n%s", want, joined)
		}
	}
}

// TestWallSpectatorWatchesReadOnly: under the wall's key a spectator
// watches a game the wall shows, with the wall's names and no moves, and
// sees its moves arrive; a game in a channel not every member views, an
// unknown key and a revoked one show nothing, and there is nothing to act
// with.
func TestWallSpectatorWatchesReadOnly(t *testing.T) {
	e := newEnv(t)
	game := e.challenge("c1", "sixes")
	hidden := e.challenge("c2", "hique")
	e.aud.hide("c2")
	key := e.wall("on", "")
	base := "/wall/" + key + "/game/" + game + "/"
	code, body := e.body(base + "state")
	var v commands.PlayView
	if code != http.StatusOK || json.Unmarshal([]byte(body), &v) != nil {
		t.Fatalf("the spectator's state: %d %.200s", code, body)
	}
	if v.You != 0 || len(v.Moves) != 0 || v.Players != [2]string{"A.", "B."} || strings.Contains(v.SVG, "alice") {
		t.Errorf("the spectator sees seat %d, %d moves, players %q", v.You, len(v.Moves), v.Players)
	}
	if code, page := e.body(base); code != http.StatusOK || !strings.Contains(page, `name="arbiter-base" content="`+base+`"`) {
		t.Errorf("the spectator's page: %d", code)
	}
	es := e.events(t, base+"events")
	if r := e.do(alice, "c1", "move", "", "move", firstMove(t, e, "c1")); r.Private {
		t.Fatalf("/move: %s", r.Text)
	}
	if !es.until(func(line string) bool { return strings.Contains(line, `"ply":1`) }) {
		t.Errorf("the spectator's stream did not show the move")
	}
	for _, path := range []string{
		"/wall/" + key + "/game/" + hidden + "/state", // a channel not every member views
		"/wall/" + randomKey() + "/game/" + game + "/state",
	} {
		if code, _ := e.body(path); code == http.StatusOK {
			t.Errorf("GET %s: %d; want a refusal", path, code)
		}
	}
	req, _ := http.NewRequest("POST", e.http.URL+base+"act", strings.NewReader(`{"action":"resign","version":1}`))
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode == http.StatusOK {
		t.Errorf("a spectator's action: %v %v; want none", resp.StatusCode, err)
	}
	e.wall("new", "")
	if code, _ := e.body(base + "state"); code == http.StatusOK {
		t.Errorf("the replaced key still shows the game")
	}
}
