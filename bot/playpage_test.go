package bot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image/png"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"arbiter/api"
	"arbiter/bot/discordtest"
	"arbiter/commands"
	"arbiter/rules"
	"arbiter/store"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// updatePlay rewrites the play page's golden screenshots:
// go test ./bot -run TestPlayPageByClicking -update-play
var updatePlay = flag.Bool("update-play", false, "rewrite the play page's golden screenshots in testdata/play")

// clientSecret is the fake application's OAuth2 secret.
const clientSecret = "test-client-secret"

// playSite is the play page served over a process's game flow, reaching
// the fake Discord for the Activity's token exchange.
type playSite struct {
	hs  *httptest.Server
	api *api.Server
}

// servePlayPage serves p's play page; with activity, the "Play on the
// board" button launches the Activity.
func (w *world) servePlayPage(p *proc, activity bool) *playSite {
	w.t.Helper()
	hs := httptest.NewUnstartedServer(nil) // its address first: links name it
	a := api.New(p.svc, api.Options{Log: w.log, Poll: 100 * time.Millisecond, PublicURL: "http://" + hs.Listener.Addr().String(), Now: w.srv.Now,
		Activity: api.ActivityConfig{ClientID: w.srv.AppID(), ClientSecret: clientSecret, BotToken: token, Client: w.srv.HTTPClient()}})
	hs.Config.Handler = a.Handler()
	hs.Start()
	p.svc.SetPlayPage(commands.PlayPage{Links: a, Activity: activity})
	w.t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
	})
	return &playSite{hs: hs, api: a}
}

// chrome starts Debian's chromium, headless, with a window of the given
// size. It skips the test when chromium is not installed, except under CI
// (.ci/run installs it), where it fails.
func chrome(t *testing.T, width, height int) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not installed, and CI must test the play page in a real browser (.ci/run installs it)")
		}
		t.Skip("chromium is not installed (apt-get install chromium): skipping the browser test")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.WindowSize(width, height),
		chromedp.Flag("disable-gpu", true), chromedp.Flag("font-render-hinting", "none"))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Run(ctx, chromedp.EmulateViewport(int64(width), int64(height))); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// browserHang bounds each browser action: far beyond what a starved
// chromium takes, it is reached only by a hang.
const browserHang = 2 * time.Minute

// run runs browser actions, failing the test only after browserHang.
func run(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, browserHang)
	defer cancel()
	if err := chromedp.Run(c, actions...); err != nil {
		var page, version string
		dctx, dcancel := context.WithTimeout(ctx, browserHang/4)
		defer dcancel()
		_ = chromedp.Run(dctx, chromedp.Evaluate(`document.body.innerText`, &page),
			chromedp.Evaluate(`document.getElementById("board")?.dataset.version ?? ""`, &version))
		t.Fatalf("%s: %v\nthe page (version %q) says:\n%s", what, err, version, page)
	}
}

var linkRE = regexp.MustCompile(`https?://\S+/play/link/[A-Za-z0-9_-]{43}`)

// openBoard presses "Play on the board" under the game's latest board
// as user, follows the private link in the browser and waits for the
// board.
func (w *world) openBoard(t *testing.T, ctx context.Context, userID, channel string) {
	t.Helper()
	var board discordtest.Message
	for _, m := range w.srv.Messages(channel) {
		for _, b := range m.Buttons() {
			if b.Label == "Play on the board" && !m.Deleted && !m.Ephemeral() {
				board = m
			}
		}
	}
	if board.ID == "" {
		t.Fatalf("no board with a \"Play on the board\" button in %s", channel)
	}
	m := w.press(userID, board.ID, button(t, board, "Play on the board"))
	link := linkRE.FindString(m.Content)
	if !m.Ephemeral() || link == "" {
		t.Fatalf("the button answered %q (ephemeral %v); want a private link", m.Content, m.Ephemeral())
	}
	run(t, ctx, "open the link", chromedp.Navigate(link), chromedp.Click("#open", chromedp.ByQuery),
		chromedp.WaitVisible("#board svg", chromedp.ByQuery))
}

// waitVersion waits until the page shows the game at version v or later.
func waitVersion(t *testing.T, ctx context.Context, v int64) {
	t.Helper()
	var got string
	run(t, ctx, fmt.Sprintf("the page shows version %d", v), chromedp.Poll(fmt.Sprintf(
		`(document.getElementById("board").dataset.version|0) >= %d`, v), nil, chromedp.WithPollingInterval(20*time.Millisecond)),
		chromedp.AttributeValue("#board", "data-version", &got, nil, chromedp.ByQuery))
}

// clickMove plays m on the page by clicking its cells (or its button). It
// reports whether m was then chosen among buttons.
func clickMove(t *testing.T, ctx context.Context, m boardMove, drag bool) (chosen bool) {
	t.Helper()
	cell := func(i int) string { return fmt.Sprintf(`#board rect.cell[data-i="%d"]`, i) }
	switch {
	case m.From < 0 && m.To < 0: // a pass
		run(t, ctx, "pass", chromedp.Click(`#choices button`, chromedp.ByQuery))
		return true
	case m.From < 0: // a drop: its square alone
		run(t, ctx, "drop "+m.Text, chromedp.Click(cell(m.To), chromedp.ByQuery))
	case drag:
		run(t, ctx, "drag "+m.Text, dragCells(cell(m.From), cell(m.To)))
	default:
		run(t, ctx, "click "+m.Text, chromedp.Click(cell(m.From), chromedp.ByQuery), chromedp.Click(cell(m.To), chromedp.ByQuery))
	}
	// Moves the cells alone do not tell apart are offered as buttons.
	var n int
	run(t, ctx, "choices", chromedp.Evaluate(`document.querySelectorAll("#choices:not([hidden]) button").length`, &n))
	if n > 0 {
		run(t, ctx, "choose "+m.Text, chromedp.Click(fmt.Sprintf(`//div[@id="choices"]/button[text()=%q]`, m.Text), chromedp.BySearch))
	}
	return n > 0
}

// dragCells drags the pointer from one cell to another.
func dragCells(from, to string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		var a, b []float64
		centre := `(s => { const r = document.querySelector(s).getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })(%q)`
		if err := chromedp.Evaluate(fmt.Sprintf(centre, from), &a).Do(ctx); err != nil {
			return err
		}
		if err := chromedp.Evaluate(fmt.Sprintf(centre, to), &b).Do(ctx); err != nil {
			return err
		}
		return chromedp.Run(ctx,
			chromedp.MouseEvent("mouseMoved", a[0], a[1]),
			chromedp.MouseEvent("mousePressed", a[0], a[1], chromedp.ButtonLeft),
			chromedp.MouseEvent("mouseMoved", (a[0]+b[0])/2, (a[1]+b[1])/2, chromedp.ButtonLeft),
			chromedp.MouseEvent("mouseMoved", b[0], b[1], chromedp.ButtonLeft),
			chromedp.MouseEvent("mouseReleased", b[0], b[1], chromedp.ButtonLeft))
	})
}

// boardMove is a legal move as the page's cells.
type boardMove struct {
	Text     string
	From, To int
}

// aliceMoves are the legal moves of user as the page shows them.
func pageMoves(t *testing.T, p *proc, channel, user string) (*store.Game, []boardMove) {
	t.Helper()
	g, err := p.svc.GameIn(context.Background(), channel)
	if err != nil {
		t.Fatal(err)
	}
	v, err := p.svc.PlayView(g, user)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]boardMove, len(v.Moves))
	for i, m := range v.Moves {
		out[i] = boardMove{m.Text, m.From, m.To}
	}
	return g, out
}

// playGame is one game of the browser test.
type playGame struct{ name, options string }

// endShots are the games whose board at the end is compared with a golden
// screenshot too (NAME-end-WxH.png): their start shows little of what
// they draw (Dots and Boxes' lines and owned boxes; Pentago's quarters,
// under the marks of the cells a marble can go to).
var endShots = []string{"dots", "pentago"}

// TestPlayPageByClicking plays whole games on the play page in a real
// browser, by clicking (and dragging) at a desktop and a phone size,
// against a person playing by slash commands in the fake Discord: each
// side's moves appear on the other's, and each game is played to its end
// under the rules. At the start of each game the board is compared with
// its golden screenshot and every cell and button is checked for a label.
// Under -short one short game of Sixes is played at each size; the full
// run plays, at both sizes, all four built-in games, and the games
// described in files on every kind of board: Connect Four (played by
// drops), Hex (hexagons), Kalah (pits), Nine Men's Morris (points and
// lines), Dots and Boxes (lines between dots), and the square boards of
// the other course games, whose moves the cells alone do not tell apart
// (Amazons' arrow, Pentago's turn, a Morris removal, a Checkers route)
// are chosen among the page's buttons. Sixes and HiQUE are shortened by
// their own turn limits; the others end under their rules, both sides
// choosing moves that hasten the end (see hastyMove).
func TestPlayPageByClicking(t *testing.T) {
	games := []playGame{{"sixes", "turns=12"}, {"hique", "turns=10"}, {"upthrust", "colours=gb seed=1"}, {"hiya", ""},
		{"connect4", ""},              // a described game, played by drops
		{"hex", "size=5"},             // a board of hexagons
		{"checkers", ""},              // multi-jump routes offered as choices
		{"kalah", "houses=4 seeds=2"}, // pits and stores, sown by a click
		{"konane", "size=4"},          // opening removals, then jumps
		{"morris", ""},                // points and lines; removals as choices
		{"amazons", ""},               // piece, destination, then the arrow as a choice
		{"dots", "columns=2 rows=2"},  // lines between dots, owned boxes
		{"gomoku", "columns=7 rows=7 connect=4"},
		{"tictactoe", ""},
		{"loa", ""},
		{"pentago", ""}} // the cell, then the quarter's turn as a choice
	if testing.Short() {
		games = games[:1]
	}
	for _, size := range [][2]int{{1280, 800}, {360, 740}} {
		for _, pg := range games {
			t.Run(fmt.Sprintf("%s-%dx%d", pg.name, size[0], size[1]), func(t *testing.T) {
				playByClicking(t, pg, size[0], size[1])
			})
		}
	}
}

// maxPlies bounds the browser test's games: each of them ends well
// before under hastyMove (Upthrust's pieces only climb; Hi-Ya! has no
// draws and its attacks hurt or remove a piece each).
const maxPlies = 300

// hastyMove is a legal move of g's player to move that hastens the end: one
// that ends the game if there is one, else one that hurts or removes a
// piece (rules.Game.Tactical), else any, drawn with rng.
func hastyMove(t testing.TB, g rules.Game, rng *rand.Rand) string {
	t.Helper()
	var list rules.MoveList
	g.Moves(&list)
	if list.N == 0 {
		t.Fatalf("no legal move at ply %d", g.Ply())
	}
	var tactical []rules.Move
	for _, m := range list.Slice() {
		if g.Tactical(m) {
			tactical = append(tactical, m)
		}
		g.Play(m)
		ends := g.Status() != rules.Ongoing
		g.Undo()
		if ends {
			return g.FormatMove(m)
		}
	}
	if len(tactical) > 0 {
		return g.FormatMove(tactical[rng.IntN(len(tactical))])
	}
	return g.FormatMove(list.Moves[rng.IntN(list.N)])
}

func playByClicking(t *testing.T, pg playGame, width, height int) {
	// The page is under test, not the answer's deadline (the deadline
	// tests set Discord's 3 s): a chromium starving the machine must not
	// make a slash command's first answer late.
	w := newWorldWith(t, false, discordtest.Options{Token: token, ResponseDeadline: browserHang})
	p := w.start(procOptions{gateway: true})
	w.servePlayPage(p, false)
	ann, bob := w.srv.AddUser("Ann"), w.srv.AddUser("Bob")
	ch := w.general
	opts := []discordtest.Option{opt("game", pg.name), opt("opponent", bob.ID), opt("side", "first")}
	if pg.options != "" {
		opts = append(opts, opt("options", pg.options))
	}
	w.public(w.do(ann.ID, ch, "play", opts...))
	w.public(w.do(bob.ID, ch, "accept"))

	ctx := chrome(t, width, height)
	w.openBoard(t, ctx, ann.ID, ch)
	g, _ := pageMoves(t, p, ch, ann.ID)
	id := g.ID
	waitVersion(t, ctx, g.Version)
	checkLabels(t, ctx)
	checkTextFits(t, ctx)
	screenshotBoard(t, ctx, fmt.Sprintf("%s-%dx%d", pg.name, width, height))

	rng := rand.New(rand.NewPCG(uint64(width), 7))
	var slowest time.Duration // from Bob's answer to his move on Ann's page
	plies, chosen := 0, 0
	for ; ; plies++ {
		g := p.game(ch)
		if g == nil {
			break
		}
		if plies > maxPlies {
			t.Fatalf("%s still goes on after %d plies", pg.name, plies)
		}
		text := hastyMove(t, g.State, rng)
		if g.State.ToMove() == 0 { // Ann, on the page
			waitVersion(t, ctx, g.Version)
			_, moves := pageMoves(t, p, ch, ann.ID)
			i := slices.IndexFunc(moves, func(m boardMove) bool { return m.Text == text })
			if i < 0 {
				t.Fatalf("the page does not offer the legal move %s (it offers %v)", text, moves)
			}
			m := moves[i]
			if clickMove(t, ctx, m, plies%4 == 2) {
				chosen++
			}
			waitFor(t, "Ann's move "+m.Text, func() bool {
				n := p.game(ch)
				return n == nil || n.Version > g.Version
			})
			if n := p.game(ch); n != nil && n.Moves[len(n.Moves)-1].Text != m.Text {
				t.Fatalf("recorded %q; Ann clicked %q", n.Moves[len(n.Moves)-1].Text, m.Text)
			}
			continue
		}
		// Bob, by slash command; the page shows his move.
		w.public(w.do(bob.ID, ch, "move", opt("move", text)))
		answered := time.Now()
		if n := p.game(ch); n != nil {
			waitVersion(t, ctx, n.Version)
			slowest = max(slowest, time.Since(answered))
		}
	}
	// The game ended by the rules, after the last move: not resigned, not
	// timed out.
	end, err := p.st.LoadArchived(context.Background(), w.srv.Guild().ID, id)
	if err != nil {
		t.Fatalf("the finished game: %v", err)
	}
	if end.State.Status() == rules.Ongoing || end.Result != end.State.Status() || len(end.Moves) != plies {
		t.Fatalf("the game ended %v (%s) after %d plies; the rules say %v after %d", end.Result, end.Reason, len(end.Moves), end.State.Status(), plies)
	}
	var status string
	run(t, ctx, "the result", chromedp.Poll(`document.getElementById("status").textContent.startsWith("Game over")`, nil,
		chromedp.WithPollingInterval(20*time.Millisecond)), chromedp.Text("#status", &status, chromedp.ByQuery))
	if !strings.Contains(status, end.Reason) {
		t.Errorf("the page says %q at the end; want the result %q", status, end.Reason)
	}
	checkTextFits(t, ctx)
	if slices.Contains(endShots, pg.name) {
		screenshotBoard(t, ctx, fmt.Sprintf("%s-end-%dx%d", pg.name, width, height))
	}
	t.Logf("%s ended after %d plies: %v, %s; the page says %q; Ann chose %d moves among buttons", pg.name, plies, end.Result, end.Reason, status, chosen)
	t.Logf("the slowest of Bob's moves reached Ann's page %v after Discord showed it", slowest)
	w.noViolations()
}

// checkLabels checks that every cell and every shown button has a label
// a screen reader reads.
func checkLabels(t *testing.T, ctx context.Context) {
	t.Helper()
	var unlabelled []string
	var cells int
	run(t, ctx, "labels", chromedp.Evaluate(`[...document.querySelectorAll("#board rect.cell, button")]
		.filter(e => e.tagName !== "BUTTON" || e.offsetParent !== null)
		.filter(e => !((e.getAttribute("aria-label") || e.textContent).trim()))
		.map(e => e.outerHTML)`, &unlabelled),
		chromedp.Evaluate(`document.querySelectorAll("#board rect.cell[role=button][aria-label]").length`, &cells))
	if len(unlabelled) > 0 || cells == 0 {
		t.Errorf("%d labelled cells; unlabelled: %v", cells, unlabelled)
	}
}

// checkTextFits checks that every text of the board, as the browser lays
// it out in its own font, lies within the drawing's width.
func checkTextFits(t *testing.T, ctx context.Context) {
	t.Helper()
	var outside []string
	run(t, ctx, "text widths", chromedp.Evaluate(`[...document.querySelectorAll("#board svg text")]
		.filter(e => { const b = e.getBBox(), v = e.ownerSVGElement.viewBox.baseVal; return b.x < v.x - 1 || b.x + b.width > v.x + v.width + 1 })
		.map(e => e.textContent)`, &outside))
	if len(outside) > 0 {
		t.Errorf("texts running past the board's edge: %q", outside)
	}
}

// screenshotBoard keeps the board's screenshot and the whole window's as
// test artifacts (in $ARBITER_ARTIFACTS, else the test's temporary
// folder) and compares the board's
// with testdata/play/NAME.png: at most 2% of the pixels may differ by more
// than a little (fonts and anti-aliasing differ between machines).
func screenshotBoard(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	var shot, page []byte
	run(t, ctx, "screenshot", chromedp.Screenshot("#board svg", &shot, chromedp.ByQuery), chromedp.CaptureScreenshot(&page))
	dir := os.Getenv("ARBITER_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+"-page.png"), page, 0o644); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "play", name+".png")
	if *updatePlay {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./bot -run TestPlayPageByClicking -update-play writes it)", err)
	}
	if frac, err := pixelsDiffering(shot, want); err != nil || frac > 0.02 {
		t.Errorf("%s differs from %s: %.1f%% of pixels (%v); the screenshot is in %s", name, golden, 100*frac, err, dir)
	}
}

// pixelsDiffering is the fraction of pixels whose colour differs by more
// than 48 (of 255) in a channel; images of different sizes differ wholly.
func pixelsDiffering(a, b []byte) (float64, error) {
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		return 1, err
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return 1, err
	}
	ra, rb := ia.Bounds(), ib.Bounds()
	if ra.Size() != rb.Size() {
		return 1, fmt.Errorf("size %v, want %v", ra.Size(), rb.Size())
	}
	far := func(x, y uint32) bool { return max(x, y)-min(x, y) > 48<<8 }
	diff := 0
	for y := 0; y < ra.Dy(); y++ {
		for x := 0; x < ra.Dx(); x++ {
			r1, g1, b1, _ := ia.At(ra.Min.X+x, ra.Min.Y+y).RGBA()
			r2, g2, b2, _ := ib.At(rb.Min.X+x, rb.Min.Y+y).RGBA()
			if far(r1, r2) || far(g1, g2) || far(b1, b2) {
				diff++
			}
		}
	}
	return float64(diff) / float64(ra.Dx()*ra.Dy()), nil
}

// TestPlayPageStaleClickAndKeyboard: a click on a board the opponent has
// moved on from is refused, and the board is refreshed; the board is
// played by keyboard (arrows and Enter).
func TestPlayPageStaleClickAndKeyboard(t *testing.T) {
	w := newWorldWith(t, false, discordtest.Options{Token: token})
	p := w.start(procOptions{gateway: true})
	site := w.servePlayPage(p, false)
	ann, bob := w.srv.AddUser("Ann"), w.srv.AddUser("Bob")
	ch := w.general
	w.public(w.do(ann.ID, ch, "play", opt("game", "sixes"), opt("opponent", bob.ID), opt("side", "second")))
	w.public(w.do(bob.ID, ch, "accept"))
	ctx := chrome(t, 1280, 800)
	w.openBoard(t, ctx, ann.ID, ch)

	// Keyboard: Bob (first) moves; Ann moves by arrows and Enter.
	g := p.game(ch)
	rng := rand.New(rand.NewPCG(1, 2))
	w.public(w.do(bob.ID, ch, "move", opt("move", randomMove(t, g, rng))))
	g, moves := pageMoves(t, p, ch, ann.ID)
	waitVersion(t, ctx, g.Version)
	m := moves[0]
	const cols = 6 // Sixes' board
	run(t, ctx, "focus", chromedp.Focus(fmt.Sprintf(`#board rect.cell[data-i="%d"]`, m.From), chromedp.ByQuery),
		chromedp.KeyEvent(kb.Enter))
	keys := ""
	for dc := m.To%cols - m.From%cols; dc != 0; dc -= sign(dc) {
		keys += map[int]string{1: kb.ArrowRight, -1: kb.ArrowLeft}[sign(dc)]
	}
	for dr := m.To/cols - m.From/cols; dr != 0; dr -= sign(dr) {
		keys += map[int]string{1: kb.ArrowDown, -1: kb.ArrowUp}[sign(dr)]
	}
	run(t, ctx, "keys for "+m.Text, chromedp.KeyEvent(keys), chromedp.KeyEvent(kb.Enter))
	waitFor(t, "Ann's move by keyboard", func() bool { n := p.game(ch); return n != nil && n.Version > g.Version })
	if n := p.game(ch); n.Moves[len(n.Moves)-1].Text != m.Text {
		t.Fatalf("keyboard played %q; want %q", n.Moves[len(n.Moves)-1].Text, m.Text)
	}

	// Stale: the page stops hearing of changes (its event stream is cut
	// and held), Bob moves, and Ann clicks a move of the old board.
	g = p.game(ch)
	w.public(w.do(bob.ID, ch, "move", opt("move", randomMove(t, g, rng))))
	g, moves = pageMoves(t, p, ch, ann.ID)
	waitVersion(t, ctx, g.Version)
	run(t, ctx, "hold the event stream", fetch.Enable().WithPatterns([]*fetch.RequestPattern{{URLPattern: "*/events"}}))
	site.hs.CloseClientConnections() // held from now on, the page hears of no change
	// Ann herself moves through Discord, so the page's board is one move old.
	m = moves[0]
	w.public(w.do(ann.ID, ch, "move", opt("move", m.Text)))
	w.public(w.do(bob.ID, ch, "move", opt("move", randomMove(t, p.game(ch), rng))))
	now := p.game(ch)
	clickMove(t, ctx, moves[1], false)
	var msg string
	run(t, ctx, "the refusal", chromedp.Poll(`document.getElementById("message").textContent.includes("older state")`, nil,
		chromedp.WithPollingInterval(20*time.Millisecond)), chromedp.Text("#message", &msg, chromedp.ByQuery))
	waitVersion(t, ctx, now.Version)
	if n := p.game(ch); n.Version != now.Version {
		t.Errorf("the stale click changed the game: version %d, was %d", n.Version, now.Version)
	}
	w.noViolations()
}

// TestPlayPageResignDrawTakeback clicks the page's Take back, Offer draw
// and Resign buttons in a real browser at a phone's size, each through the
// page's confirmation, against a person in the fake Discord: "No" changes
// nothing; "Yes" acts as the slash command would, the channel shows it,
// and the page shows the outcome.
func TestPlayPageResignDrawTakeback(t *testing.T) {
	w := newWorldWith(t, false, discordtest.Options{Token: token})
	p := w.start(procOptions{gateway: true})
	w.servePlayPage(p, false)
	ann, bob := w.srv.AddUser("Ann"), w.srv.AddUser("Bob")
	ch := w.general
	start := func() string {
		w.public(w.do(ann.ID, ch, "play", opt("game", "sixes"), opt("opponent", bob.ID), opt("side", "first")))
		w.public(w.do(bob.ID, ch, "accept"))
		return p.game(ch).ID
	}
	id := start()
	ctx := chrome(t, 360, 740)
	w.openBoard(t, ctx, ann.ID, ch)
	rng := rand.New(rand.NewPCG(3, 4))
	annMoves := func() {
		g, moves := pageMoves(t, p, ch, ann.ID)
		waitVersion(t, ctx, g.Version)
		clickMove(t, ctx, moves[rng.IntN(len(moves))], false)
		waitFor(t, "Ann's move", func() bool { return p.game(ch).Version > g.Version })
		waitVersion(t, ctx, p.game(ch).Version)
	}
	// saying counts the bot's public messages in the channel saying want.
	saying := func(want string) int {
		n := 0
		for _, m := range w.srv.Messages(ch) {
			if m.AuthorID == w.srv.AppID() && !m.Ephemeral() && !m.Deleted && strings.Contains(m.Content, want) {
				n++
			}
		}
		return n
	}
	// pageSays waits until the page's element id holds want.
	pageSays := func(id, want string) {
		t.Helper()
		run(t, ctx, fmt.Sprintf("#%s says %q", id, want), chromedp.Poll(fmt.Sprintf(`document.getElementById(%q).textContent.includes(%q)`, id, want), nil,
			chromedp.WithPollingInterval(20*time.Millisecond)))
	}
	// ask presses one of the page's buttons and answers its confirmation.
	// "No" changes nothing and posts nothing; "Yes" posts one message
	// saying answer in the channel, and the page says it too.
	ask := func(button, question, answer string, yes bool) {
		t.Helper()
		before, posts := p.game(ch).Version, saying(answer)
		var text string
		run(t, ctx, "press "+button, chromedp.Click("#"+button, chromedp.ByQuery), chromedp.WaitVisible("#confirm", chromedp.ByQuery),
			chromedp.Text("#confirm-text", &text, chromedp.ByQuery))
		if text != question {
			t.Errorf("%s asks %q; want %q", button, text, question)
		}
		if !yes {
			run(t, ctx, "decline "+button, chromedp.Click("#confirm-no", chromedp.ByQuery), chromedp.WaitNotVisible("#confirm", chromedp.ByQuery))
			pageSays("message", "Nothing was changed.")
			if g := p.game(ch); g == nil || g.Version != before || saying(answer) != posts {
				t.Errorf("answering No to %q changed the game or posted %q", question, answer)
			}
			return
		}
		run(t, ctx, "confirm "+button, chromedp.Click("#confirm-yes", chromedp.ByQuery), chromedp.WaitNotVisible("#confirm", chromedp.ByQuery))
		waitFor(t, fmt.Sprintf("the channel to show %q", answer), func() bool { return saying(answer) == posts+1 })
		pageSays("message", answer)
	}
	// posted waits until the channel shows a public message of the bot's
	// saying want.
	posted := func(want string) {
		t.Helper()
		waitFor(t, fmt.Sprintf("the channel to show %q", want), func() bool { return saying(want) > 0 })
	}

	// Ann takes back her move, with Bob's consent by /undo.
	annMoves()
	ask("undo", "Ask to take back your last move?", "(Ann) asks to take back their last move", false)
	ask("undo", "Ask to take back your last move?", "(Ann) asks to take back their last move", true)
	w.public(w.do(bob.ID, ch, "undo"))
	posted("last move is taken back")
	g := p.game(ch)
	waitVersion(t, ctx, g.Version)
	if len(g.Moves) != 0 {
		t.Fatalf("after the takeback %d moves remain", len(g.Moves))
	}
	pageSays("status", "Your move")

	// Bob asks by /undo to take back his; Ann allows it on the page.
	annMoves()
	w.public(w.do(bob.ID, ch, "move", opt("move", randomMove(t, p.game(ch), rng))))
	w.public(w.do(bob.ID, ch, "undo"))
	pageSays("status", "A takeback is asked for.")
	pageSays("undo", "Allow takeback")
	ask("undo", "Allow the takeback?", "(Bob)'s last move is taken back", true)
	if g := p.game(ch); len(g.Moves) != 1 {
		t.Fatalf("after Bob's takeback %d moves remain; want 1", len(g.Moves))
	}

	// Ann offers a draw on the page; Bob accepts by /draw.
	ask("draw", "Offer a draw?", "(Ann) offers a draw", false)
	ask("draw", "Offer a draw?", "(Ann) offers a draw", true)
	w.public(w.do(bob.ID, ch, "draw"))
	posted("accepts the draw")
	pageSays("status", "Game over")
	if end, err := p.st.LoadArchived(context.Background(), w.srv.Guild().ID, id); err != nil || end.Result != rules.Draw {
		t.Fatalf("after the draw the game is %+v (%v)", end, err)
	}

	// A new game: Ann resigns on the page.
	id = start()
	w.openBoard(t, ctx, ann.ID, ch)
	waitVersion(t, ctx, p.game(ch).Version)
	ask("resign", "Resign this game? The other side wins.", "(Ann) resigns", false)
	ask("resign", "Resign this game? The other side wins.", "(Ann) resigns", true)
	pageSays("status", "Game over: Bob won")
	end, err := p.st.LoadArchived(context.Background(), w.srv.Guild().ID, id)
	if err != nil || end.Result != rules.P2Wins || !strings.Contains(end.Reason, "resigned") {
		t.Fatalf("after the resignation the game is %+v (%v)", end, err)
	}
	w.noViolations()
}

func sign(n int) int {
	if n < 0 {
		return -1
	}
	return 1
}

// TestPlayButtonLaunchesTheActivity: with an Activity, "Play on the
// board" answers LAUNCH_ACTIVITY; the page signs in with the SDK's own
// DiscordSDKMock, the server checks the code with Discord's OAuth2 and
// the instance, and the player plays by clicking. A forged or replayed
// code and an instance the user is not in are refused.
func TestPlayButtonLaunchesTheActivity(t *testing.T) {
	w := newWorldWith(t, false, discordtest.Options{Token: token, Activity: true, ClientSecret: clientSecret})
	p := w.start(procOptions{gateway: true})
	site := w.servePlayPage(p, true)
	ann, bob, cy := w.srv.AddUser("Ann"), w.srv.AddUser("Bob"), w.srv.AddUser("Cy")
	ch := w.general
	w.public(w.do(ann.ID, ch, "play", opt("game", "sixes"), opt("opponent", bob.ID), opt("side", "first")))
	board := w.public(w.do(bob.ID, ch, "accept"))
	in, err := w.srv.PressButton(ann.ID, board.ID, button(t, board, "Play on the board"))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := w.srv.WaitForResponse(w.ctx(), in.ID)
	if err != nil || resp.Type != discordtest.CallbackLaunchActivity {
		t.Fatalf("the button's answer: type %d, %v; want LAUNCH_ACTIVITY (12)", resp.Type, err)
	}
	// The SDK's mock always runs in instance 123456789012345678.
	const instance = "123456789012345678"
	if _, err := w.srv.StartActivity(instance, ch, ann.ID); err != nil {
		t.Fatal(err)
	}
	exchangeIn := func(instance, code string) (int, string) {
		body := fmt.Sprintf(`{"code":%q,"instance":%q}`, code, instance)
		r, err := http.Post(site.hs.URL+"/api/v1/activity/token", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		var ans struct{ Session string }
		_ = json.NewDecoder(r.Body).Decode(&ans)
		return r.StatusCode, ans.Session
	}
	exchange := func(code string) int {
		status, _ := exchangeIn(instance, code)
		return status
	}
	before := p.game(ch).Version
	if code := exchange("forged-code"); code != http.StatusUnauthorized {
		t.Errorf("a forged code: %d; want 401", code)
	}
	if code := exchange(w.srv.AuthorizeCode(cy.ID, "identify")); code != http.StatusForbidden {
		t.Errorf("a user not in the instance: %d; want 403", code)
	}
	used := w.srv.AuthorizeCode(ann.ID, "identify")
	if code := exchange(used); code != http.StatusOK {
		t.Fatalf("a good code: %d; want 200", code)
	}
	if code := exchange(used); code != http.StatusUnauthorized {
		t.Errorf("a replayed code: %d; want 401", code)
	}
	if code := exchange(w.srv.AuthorizeCode(ann.ID, "guilds")); code != http.StatusUnauthorized {
		t.Errorf("a code without identify: %d; want 401", code)
	}
	if v := p.game(ch).Version; v != before {
		t.Errorf("refused sign-ins changed the game: version %d, was %d", v, before)
	}

	// Cy, in another instance in the channel, watches: the board, no moves,
	// and a move of Ann's refused.
	other, err := w.srv.StartActivity("", ch, cy.ID)
	if err != nil {
		t.Fatal(err)
	}
	status, session := exchangeIn(other, w.srv.AuthorizeCode(cy.ID, "identify"))
	if status != http.StatusOK {
		t.Fatalf("a spectator's sign-in: %d", status)
	}
	g := p.game(ch)
	bearer := func(method, path, body string) (int, commands.PlayView, map[string]any) {
		req, _ := http.NewRequest(method, site.hs.URL+"/play/game/"+g.ID+"/"+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+session)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var raw map[string]any
		var v commands.PlayView
		data, _ := io.ReadAll(resp.Body)
		_ = json.Unmarshal(data, &raw)
		_ = json.Unmarshal(data, &v)
		return resp.StatusCode, v, raw
	}
	if code, v, _ := bearer("GET", "state", ""); code != http.StatusOK || v.You != 0 || len(v.Moves) != 0 || v.SVG == "" {
		t.Errorf("the spectator's view: %d, seat %d, %d moves", code, v.You, len(v.Moves))
	}
	_, legal := pageMoves(t, p, ch, ann.ID)
	if code, _, ans := bearer("POST", "act", fmt.Sprintf(`{"action":"move","move":%q,"version":%d}`, legal[0].Text, g.Version)); code != http.StatusOK || ans["ok"] != false {
		t.Errorf("a spectator's move: %d %v; want a refusal", code, ans)
	}
	if v := p.game(ch).Version; v != before {
		t.Errorf("the spectator changed the game: version %d, was %d", v, before)
	}

	// The page in the Activity, with the SDK's mock for Discord's client.
	ctx := chrome(t, 360, 740)
	code := w.srv.AuthorizeCode(ann.ID, "identify")
	run(t, ctx, "open the Activity", chromedp.Navigate(fmt.Sprintf("%s/play/activity/?mock=%s&guild_id=%s&channel_id=%s", site.hs.URL, code, w.srv.Guild().ID, ch)),
		chromedp.WaitVisible("#board svg", chromedp.ByQuery))
	g, moves := pageMoves(t, p, ch, ann.ID)
	waitVersion(t, ctx, g.Version)
	clickMove(t, ctx, moves[0], false)
	waitFor(t, "Ann's move in the Activity", func() bool { n := p.game(ch); return n != nil && n.Version > g.Version })
	if n := p.game(ch); n.Moves[len(n.Moves)-1].By != ann.ID {
		t.Errorf("the Activity's move was recorded for %q", n.Moves[len(n.Moves)-1].By)
	}
	w.noViolations()
}

// TestRegistrationKeepsTheEntryPoint: registering the commands globally
// keeps the Entry Point command that enabling Activities made, which a
// bulk overwrite would otherwise remove.
func TestRegistrationKeepsTheEntryPoint(t *testing.T) {
	w := newWorldWith(t, false, discordtest.Options{Token: token, Activity: true, ClientSecret: clientSecret})
	before, ok := w.srv.EntryPoint()
	if !ok {
		t.Fatal("enabling Activities made no Entry Point command")
	}
	w.start(procOptions{global: true})
	after, ok := w.srv.EntryPoint()
	if !ok || after.ID != before.ID || after.Handler != before.Handler || after.Name != before.Name {
		t.Errorf("after registration the Entry Point is %+v (kept %v); it was %+v", after, ok, before)
	}
	w.noViolations()
}

// TestPlayPageMoveAgainBeforeTheAnswer: a player who moves again (Kalah's
// last seed sown into her own store) clicks her next move as soon as the
// page shows the new state, even while the answer to her first move is
// still on its way: the page acts on every state it shows.
func TestPlayPageMoveAgainBeforeTheAnswer(t *testing.T) {
	w := newWorldWith(t, false, discordtest.Options{Token: token})
	p := w.start(procOptions{gateway: true})
	w.servePlayPage(p, false)
	ann, bob := w.srv.AddUser("Ann"), w.srv.AddUser("Bob")
	ch := w.general
	w.public(w.do(ann.ID, ch, "play", opt("game", "kalah"), opt("options", "houses=4 seeds=2"), opt("opponent", bob.ID), opt("side", "first")))
	w.public(w.do(bob.ID, ch, "accept"))
	ctx := chrome(t, 1280, 800)
	w.openBoard(t, ctx, ann.ID, ch)

	// The answers to the page's actions are held (their events are not).
	held := make(chan fetch.RequestID, 4)
	chromedp.ListenTarget(ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			held <- e.RequestID
		}
	})
	run(t, ctx, "hold the answers", fetch.Enable().WithPatterns([]*fetch.RequestPattern{{URLPattern: "*/act", RequestStage: fetch.RequestStageResponse}}))
	play := func(text string) {
		t.Helper()
		g, moves := pageMoves(t, p, ch, ann.ID)
		waitVersion(t, ctx, g.Version)
		i := slices.IndexFunc(moves, func(m boardMove) bool { return m.Text == text })
		if i < 0 {
			t.Fatalf("the page does not offer %s (it offers %v)", text, moves)
		}
		clickMove(t, ctx, moves[i], false)
		waitFor(t, "Ann's move "+text, func() bool { return p.game(ch).Version > g.Version })
	}
	// House 3's two seeds: one into house 4, the last into South's store.
	play("3")
	if g := p.game(ch); g.State.ToMove() != rules.P1 {
		t.Fatalf("after 3 %v is to move; want South again", g.State.ToMove())
	}
	play("4") // the answer to "3" is still held
	if n := p.game(ch); len(n.Moves) != 2 || n.Moves[1].Text != "4" {
		t.Fatalf("the moves are %v; want 3 then 4", n.Moves)
	}
	for range 2 {
		id := <-held
		run(t, ctx, "release an answer", fetch.ContinueRequest(id))
	}
	waitVersion(t, ctx, p.game(ch).Version)
	w.noViolations()
}
