package review

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"arbiter/internal/testkit"
)

// TestPageStepsThroughTheGameInABrowser: the review page in a real
// browser shows the start, its graph loads, the arrow keys step through
// the boards one ply at a time and a click on a move shows its board.
func TestPageStepsThroughTheGameInABrowser(t *testing.T) {
	g, rep := randomGame(t, "hique")
	var page bytes.Buffer
	if err := Page(&page, g, rep); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page.Bytes())
	}))
	defer hs.Close()
	ctx := testkit.Browser(t)
	var shown []string
	visible := `[...document.querySelectorAll("pre.board")].filter(p => !p.hidden).map(p => p.id)`
	var graphWidth int
	testkit.Browse(t, ctx, "load the page",
		chromedp.Navigate(hs.URL),
		chromedp.WaitVisible(`#board0`, chromedp.ByQuery),
		chromedp.Poll(`document.images[0].complete && document.images[0].naturalWidth > 0`, nil),
		chromedp.Evaluate(`document.images[0].naturalWidth`, &graphWidth),
		chromedp.Evaluate(visible, &shown))
	if len(shown) != 1 || shown[0] != "board0" || graphWidth < 300 {
		t.Fatalf("at the start: boards %v shown, graph %d px wide", shown, graphWidth)
	}
	testkit.Browse(t, ctx, "step twice",
		chromedp.KeyEvent(kb.ArrowRight),
		chromedp.KeyEvent(kb.ArrowRight),
		chromedp.Evaluate(visible, &shown))
	if len(shown) != 1 || shown[0] != "board2" {
		t.Errorf("after two steps: boards %v shown, want board2", shown)
	}
	var current string
	testkit.Browse(t, ctx, "click move 5",
		chromedp.Click(`tr.move[data-ply="5"]`, chromedp.ByQuery),
		chromedp.Evaluate(visible, &shown),
		chromedp.Evaluate(`document.querySelector("tr.current").dataset.ply`, &current))
	if len(shown) != 1 || shown[0] != "board5" || current != "5" {
		t.Errorf("after a click on move 5: boards %v shown, row %q marked", shown, current)
	}
}
