package api_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/api"
	"arbiter/commands"
	"arbiter/internal/testkit"
	"arbiter/rules"
	"arbiter/rules/games"

	"github.com/chromedp/chromedp"
)

// browser and browse are testkit's, named short for these tests.
func browser(t *testing.T) context.Context { return testkit.Browser(t) }

func browse(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action) {
	t.Helper()
	testkit.Browse(t, ctx, what, actions...)
}

// TestWallShowsMovesLive: the guild's wall loads in a real browser with
// the games going on, and a move made through the commands appears on it
// with no reload.
func TestWallShowsMovesLive(t *testing.T) {
	e := newEnv(t)
	if r := e.do(bob, "c1", "play", "", "game", "sixes", "opponent", carol.ID); r.Private {
		t.Fatal(r.Text)
	}
	e.do(carol, "c1", "accept", "")
	if r := e.do(alice, "c2", "play", "", "game", "hique"); r.Private { // against the bot
		t.Fatal(r.Text)
	}
	g := e.load("c1")
	key := e.wall("on", "display")
	ctx := browser(t)
	card := fmt.Sprintf("#game-%s", g.ID)
	browse(t, ctx, "the wall loads with both games",
		chromedp.Navigate(e.http.URL+"/wall/"+key),
		chromedp.WaitVisible(card+` img`, chromedp.ByQuery),
		chromedp.WaitVisible(fmt.Sprintf("#game-%s", e.load("c2").ID), chromedp.ByQuery),
		chromedp.WaitVisible(`//span[@id="status" and text()="live"]`, chromedp.BySearch))
	var text string
	browse(t, ctx, "read the card", chromedp.Text(card, &text, chromedp.ByQuery))
	if !strings.Contains(text, "bob") || !strings.Contains(text, "carol") || !strings.Contains(text, "no move yet") {
		t.Errorf("the card says %q", text)
	}
	if r := e.do(bob, "c1", "move", "", "move", "a2 a3"); r.Private {
		t.Fatal(r.Text)
	}
	browse(t, ctx, "the move appears on the wall",
		chromedp.WaitVisible(card+`[data-ply="1"] img`, chromedp.ByQuery))
	browse(t, ctx, "read the card", chromedp.Text(card, &text, chromedp.ByQuery))
	if !strings.Contains(text, "a2 a3") || !strings.Contains(text, "move 1") {
		t.Errorf("after the move the card says %q", text)
	}
	var shown string
	browse(t, ctx, "read the page", chromedp.Text("body", &shown, chromedp.ByQuery))
	for _, private := range []string{alice.ID, bob.ID, carol.ID, "c1", "c2"} {
		if strings.Contains(shown, private) {
			t.Errorf("the wall shows the id %q:\n%s", private, shown)
		}
	}
}

// tournament is a TournamentSource for tests.
type tournament struct {
	mu      sync.Mutex
	t       api.Tournament
	changes chan struct{}
}

func (s *tournament) Snapshot(context.Context) (api.Tournament, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.t
	t.Games = nil
	for _, g := range s.t.Games {
		g.State = g.State.Clone()
		t.Games = append(t.Games, g)
	}
	return t, nil
}

func (s *tournament) Changes() <-chan struct{} { return s.changes }

// play plays the first legal move in game i and tells the wall.
func (s *tournament) play(i int) {
	s.mu.Lock()
	g := &s.t.Games[i]
	var list rules.MoveList
	g.State.Moves(&list)
	g.State.Play(list.Moves[0])
	g.Version++
	s.mu.Unlock()
	s.changes <- struct{}{}
}

func newTournament(t *testing.T) *tournament {
	reg := games.Registry()
	names := []string{"Ada", "Grace", "Alan", "Edsger"}
	src := &tournament{changes: make(chan struct{})}
	src.t.Table = api.Table{Name: "Sixes cup, round 2",
		Standings: []api.Standing{{1, names[0], 2, 2}, {2, names[1], 1.5, 2}, {3, names[2], 0.5, 2}, {4, names[3], 0, 2}},
		Cross:     [][]string{{"", "1", "1", ""}, {"0", "", "½", "1"}, {"0", "½", "", ""}, {"", "0", "", ""}}}
	for i, pair := range [][2]string{{names[0], names[3]}, {names[1], names[2]}} {
		g, err := reg.New("sixes", rules.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for range 4 + i {
			var list rules.MoveList
			g.Moves(&list)
			g.Play(list.Moves[list.N/2])
		}
		src.t.Games = append(src.t.Games, api.LiveGame{ID: fmt.Sprint(i + 1), Players: pair, State: g, Version: int64(g.Ply())})
	}
	return src
}

type rect struct{ X, Y, W, H float64 }

// TestTournamentWallScreenshot: a tournament's wall in a real browser at
// a projector's 1920x1080: the boards on the left, the standings and
// cross table on the right, all on the first screen, large enough to
// read; a move updates its board through the page's EventSource.
func TestTournamentWallScreenshot(t *testing.T) {
	src := newTournament(t)
	wctx, stop := context.WithCancel(context.Background())
	defer stop()
	hs := httptest.NewServer(api.TournamentWall(wctx, src, nil))
	t.Cleanup(func() { hs.CloseClientConnections(); hs.Close() }) // after the browser closes
	ctx := browser(t)
	browse(t, ctx, "the tournament page loads",
		chromedp.Navigate(hs.URL+"/"),
		chromedp.WaitVisible(`#game-1 img`, chromedp.ByQuery),
		chromedp.WaitVisible(`#game-2 img`, chromedp.ByQuery),
		chromedp.WaitVisible(`#cross tbody tr:nth-child(4)`, chromedp.ByQuery),
		chromedp.Poll(`[...document.images].every(i => i.complete && i.naturalWidth > 0)`, nil, chromedp.WithPollingInterval(20*time.Millisecond)))
	var boards []rect
	var standings, cross rect
	var nameSize float64
	var shot []byte
	box := func(sel string) string {
		return `(() => { const r = document.querySelector(` + "`" + sel + "`" + `).getBoundingClientRect(); return {X: r.x, Y: r.y, W: r.width, H: r.height}; })()`
	}
	browse(t, ctx, "measure and screenshot",
		chromedp.Evaluate(`[...document.querySelectorAll(".game img")].map(i => { const r = i.getBoundingClientRect(); return {X: r.x, Y: r.y, W: r.width, H: r.height}; })`, &boards),
		chromedp.Evaluate(box("#standings"), &standings),
		chromedp.Evaluate(box("#cross"), &cross),
		chromedp.Evaluate(`parseFloat(getComputedStyle(document.querySelector("#standings td.name")).fontSize)`, &nameSize),
		chromedp.CaptureScreenshot(&shot))
	if path := os.Getenv("WALL_SCREENSHOT"); path != "" {
		_ = os.WriteFile(path, shot, 0o644)
	}
	if len(boards) != 2 {
		t.Fatalf("%d boards on the page; want 2", len(boards))
	}
	for i, b := range boards {
		switch {
		case b.W < 400 || b.H < 300:
			t.Errorf("board %d is %vx%v: too small for a projector", i+1, b.W, b.H)
		case b.X+b.W > standings.X:
			t.Errorf("board %d (%+v) overlaps the standings (%+v): boards belong on the left", i+1, b, standings)
		case b.Y < 0 || b.Y+b.H > 1080:
			t.Errorf("board %d (%+v) is not on the first screen", i+1, b)
		}
	}
	if standings.X < 1920/2 || cross.Y < standings.Y+standings.H || cross.Y+cross.H > 1080 {
		t.Errorf("standings %+v and cross table %+v: want both on the right, the cross table under the standings, on screen", standings, cross)
	}
	if nameSize < 24 {
		t.Errorf("names in the table are %vpx; want at least 24 to read from the back of a room", nameSize)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	background := img.At(5, 1075)
	for i, b := range boards {
		if distinctColours(img, b, 200) < 3 {
			t.Errorf("the screenshot shows no board where board %d is (%+v)", i+1, b)
		}
	}
	if c := img.At(int(standings.X+standings.W/2), int(standings.Y+standings.H/2)); c == background {
		t.Errorf("the screenshot shows background where the standings are")
	}
	// A move in the tournament reaches the page through its EventSource.
	before := src.t.Games[0].Version
	src.play(0)
	browse(t, ctx, "the tournament move appears",
		chromedp.WaitVisible(fmt.Sprintf(`#game-1[data-version="%d"] img`, before+1), chromedp.ByQuery))
}

// distinctColours counts the colours in r of img, up to limit.
func distinctColours(img image.Image, r rect, limit int) int {
	seen := map[[3]uint32]bool{}
	for y := int(r.Y); y < int(r.Y+r.H) && y < img.Bounds().Max.Y; y += 4 {
		for x := int(r.X); x < int(r.X+r.W) && x < img.Bounds().Max.X; x += 4 {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			seen[[3]uint32{cr >> 8, cg >> 8, cb >> 8}] = true
			if len(seen) >= limit {
				return len(seen)
			}
		}
	}
	return len(seen)
}

// TestWallPageClearsWhenTurnedOff: a page open in a real browser when a
// referee turns the wall off drops every game it showed and says the wall
// is off.
func TestWallPageClearsWhenTurnedOff(t *testing.T) {
	e := newEnv(t)
	if r := e.do(alice, "c1", "play", "", "game", "hique"); r.Private {
		t.Fatal(r.Text)
	}
	key := e.wall("on", "")
	ctx := browser(t)
	card := fmt.Sprintf("#game-%s", e.load("c1").ID)
	browse(t, ctx, "the wall loads with the game",
		chromedp.Navigate(e.http.URL+"/wall/"+key+"/"),
		chromedp.WaitVisible(card+" img", chromedp.ByQuery))
	e.svc.Handle(context.Background(), commands.Invocation{Guild: guild, Channel: "staff", User: carol, ManageServer: true, Command: "wall", Sub: "off"})
	browse(t, ctx, "the page says the wall is off",
		chromedp.WaitVisible(`//p[@id="empty" and text()="This wall is off."]`, chromedp.BySearch))
	var cards int
	browse(t, ctx, "count the cards", chromedp.Evaluate(`document.querySelectorAll(".game").length`, &cards))
	if cards != 0 {
		t.Errorf("%d games still shown after the wall was turned off", cards)
	}
}

// TestTournamentWallFitsAPhone: at a phone's 360 pixels the tournament
// wall cuts nothing: the page is no wider than the screen, and each board
// and the standings lie within it.
func TestTournamentWallFitsAPhone(t *testing.T) {
	src := newTournament(t)
	wctx, stop := context.WithCancel(context.Background())
	defer stop()
	hs := httptest.NewServer(api.TournamentWall(wctx, src, nil))
	t.Cleanup(func() { hs.CloseClientConnections(); hs.Close() })
	ctx := browser(t)
	var width, scroll float64
	var rights []float64
	browse(t, ctx, "the tournament page at 360 pixels",
		chromedp.EmulateViewport(360, 740),
		chromedp.Navigate(hs.URL+"/"),
		chromedp.WaitVisible(`#game-1 img`, chromedp.ByQuery),
		chromedp.WaitVisible(`#cross tbody tr:nth-child(4)`, chromedp.ByQuery),
		chromedp.Evaluate(`window.innerWidth`, &width),
		chromedp.Evaluate(`document.documentElement.scrollWidth`, &scroll),
		chromedp.Evaluate(`[...document.querySelectorAll(".game, #standings, #cross")].map(e => e.getBoundingClientRect().right)`, &rights))
	if scroll > width {
		t.Errorf("the page is %v pixels wide on a screen of %v: it is cut", scroll, width)
	}
	for i, r := range rights {
		if r > width {
			t.Errorf("element %d ends at %v, past the screen's %v", i, r, width)
		}
	}
}
