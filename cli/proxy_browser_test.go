package cli

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"arbiter/bot/discordtest"
	"arbiter/internal/testkit"
	"arbiter/store/redistest"
)

// alternatingProxy is a reverse proxy (net/http/httputil) that sends
// each request of a kind (its method and the last part of its path) to
// the next of its backends in turn, the second backend first, counting
// what each served.
type alternatingProxy struct {
	backends []*httputil.ReverseProxy
	mu       sync.Mutex
	kinds    map[string]int   // requests of each kind so far
	served   []map[string]int // per backend: requests by kind ("POST act", "GET events", ...)
}

func newAlternatingProxy(addrs ...string) *alternatingProxy {
	p := &alternatingProxy{kinds: map[string]int{}}
	for _, a := range addrs {
		rp := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: "http", Host: a})
		rp.ErrorLog = log.New(io.Discard, "", 0) // streams cut at the test's end
		p.backends = append(p.backends, rp)
		p.served = append(p.served, map[string]int{})
	}
	return p
}

func (p *alternatingProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	kind := r.Method + " " + r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
	p.mu.Lock()
	p.kinds[kind]++
	i := p.kinds[kind] % len(p.backends)
	p.served[i][kind]++
	p.mu.Unlock()
	p.backends[i].ServeHTTP(w, r)
}

// count returns what backend i served of kind.
func (p *alternatingProxy) count(i int, kind string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.served[i][kind]
}

// pageState is the play page's state as its script reads it.
type pageState struct {
	Status  string `json:"status"`
	You     int    `json:"you"`
	ToMove  int    `json:"toMove"`
	Version int64  `json:"version"`
	Result  string `json:"result"`
	Moves   []struct {
		Text     string `json:"text"`
		From, To int
	} `json:"moves"`
}

// TestPlayPageBehindAProxyOfTwoProcesses: two `arbiter bot` processes on
// one redis-server behind a reverse proxy that sends each request to the
// other in turn. A person opens the board from a link and plays a whole
// game of Sixes against the bot in chromium by clicking: the link is made
// by one process and spent wherever the proxy sends it, every move is
// taken by whichever process gets it, the bot's turns by either's
// workers, and the page's event stream (held by one process) shows every
// move, those the other process saved included.
func TestPlayPageBehindAProxyOfTwoProcesses(t *testing.T) {
	ctx := testkit.Browser(t)
	srv := redistest.Start(t, redistest.Options{})
	apiA, apiB := freeAddr(t), freeAddr(t)
	proxy := newAlternatingProxy(apiA, apiB)
	front := httptest.NewServer(proxy)
	t.Cleanup(front.Close)
	c := newClassroom(t, "REDIS_URL="+srv.URL())
	a := c.startBot(apiA, "PUBLIC_URL="+front.URL)
	c.startBot(apiB, "PUBLIC_URL="+front.URL, "SHARD_ID=1", "SHARD_COUNT=2")

	if text := a.command("play", discordtest.Option{Name: "game", Value: "sixes"}, discordtest.Option{Name: "level", Value: 1},
		discordtest.Option{Name: "side", Value: "first"}, discordtest.Option{Name: "options", Value: "turns=12"}); !strings.Contains(text, "Sixes") {
		t.Fatalf("/play answered %q", text)
	}
	link := regexp.MustCompile(`http://\S+/play/link/[A-Za-z0-9_-]+`).FindString(a.command("board", discordtest.Option{Name: "link", Value: true}))
	if !strings.HasPrefix(link, front.URL+"/") {
		t.Fatalf("the link %q is not through the proxy %s", link, front.URL)
	}
	testkit.Browse(t, ctx, "open the link", chromedp.Navigate(link), chromedp.Click("#open", chromedp.ByQuery))
	testkit.Browse(t, ctx, "see the board", chromedp.WaitVisible("#board svg", chromedp.ByQuery))

	read := func() pageState {
		var st pageState
		testkit.Browse(t, ctx, "read the game", chromedp.Evaluate(
			`fetch(location.pathname + "state").then(r => r.json())`, &st, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
				return p.WithAwaitPromise(true)
			}))
		return st
	}
	shown := func(v int64) { // the page's event stream showed version v
		testkit.Browse(t, ctx, fmt.Sprintf("the page shows version %d", v), chromedp.Poll(fmt.Sprintf(
			`(document.getElementById("board").dataset.version|0) >= %d`, v), nil, chromedp.WithPollingInterval(20*time.Millisecond)))
	}
	cell := func(i int) string { return fmt.Sprintf(`#board rect.cell[data-i="%d"]`, i) }
	moves := 0
	for deadline := time.Now().Add(testkit.BrowserHang * 5); ; {
		if time.Now().After(deadline) {
			t.Fatalf("the game still goes on after %s, %d moves clicked", testkit.BrowserHang*5, moves)
		}
		st := read()
		shown(st.Version)
		if st.Status == "finished" {
			break
		}
		if st.Status != "active" || st.ToMove != st.You || len(st.Moves) == 0 {
			time.Sleep(50 * time.Millisecond) // the bot's turn, thought about in either process
			continue
		}
		m := st.Moves[moves%len(st.Moves)]
		switch {
		case m.From < 0 && m.To < 0:
			testkit.Browse(t, ctx, "pass", chromedp.Click(`#choices button`, chromedp.ByQuery))
		case m.From < 0:
			testkit.Browse(t, ctx, "drop "+m.Text, chromedp.Click(cell(m.To), chromedp.ByQuery))
		default:
			testkit.Browse(t, ctx, "click "+m.Text, chromedp.Click(cell(m.From), chromedp.ByQuery), chromedp.Click(cell(m.To), chromedp.ByQuery))
		}
		var choices int
		testkit.Browse(t, ctx, "choices", chromedp.Evaluate(`document.querySelectorAll("#choices:not([hidden]) button").length`, &choices))
		if choices > 0 {
			testkit.Browse(t, ctx, "choose "+m.Text, chromedp.Click(fmt.Sprintf(`//div[@id="choices"]/button[text()=%q]`, m.Text), chromedp.BySearch))
		}
		moves++
		shown(st.Version + 1)
	}
	var status string
	testkit.Browse(t, ctx, "the result", chromedp.Poll(`document.getElementById("status").textContent.startsWith("Game over")`, nil,
		chromedp.WithPollingInterval(20*time.Millisecond)), chromedp.Text("#status", &status, chromedp.ByQuery))
	for i, name := range []string{"A", "B"} {
		if n := proxy.count(i, "POST act"); n == 0 {
			t.Errorf("process %s took none of the %d moves clicked", name, moves)
		}
		if n := proxy.count(i, "GET state"); n == 0 {
			t.Errorf("process %s served none of the page's reads", name)
		}
	}
	t.Logf("%d moves clicked; the page says %q; moves taken by A %d, by B %d; event streams from A %d, from B %d", moves, status,
		proxy.count(0, "POST act"), proxy.count(1, "POST act"), proxy.count(0, "GET events"), proxy.count(1, "GET events"))
	if v := c.discord.Violations(); len(v) > 0 {
		t.Errorf("the processes broke Discord's rules: %v", v)
	}
}
