package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"arbiter/bot/discordtest"
	"arbiter/store/redistest"
)

// fakeDiscordEnv, set in a child process started by startArbiter, is the
// address of the fake Discord (bot/discordtest) that its `bot` or
// `worker` reaches instead of Discord.
const fakeDiscordEnv = "ARBITER_TEST_DISCORD"

// mainAgainst runs `arbiter bot` or `arbiter worker` (args) reaching
// Discord at addr, a fake's address: every request and websocket goes
// there, whatever its URL's host.
func mainAgainst(ctx context.Context, addr string, args []string) int {
	d := &net.Dialer{Timeout: 5 * time.Second}
	dial := func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, addr)
	}
	at := discordAt{
		client: &http.Client{Timeout: 20 * time.Second, Transport: rewriteTransport{addr: addr, base: &http.Transport{DialContext: dial}}},
		dialer: &websocket.Dialer{NetDialContext: dial, HandshakeTimeout: 5 * time.Second},
	}
	if len(args) > 0 && args[0] == "worker" {
		return runWorkerAt(ctx, args[1:], os.Stderr, at)
	}
	if len(args) > 0 && args[0] == "bot" {
		return runBotAt(ctx, args[1:], os.Stderr, at)
	}
	fmt.Fprintf(os.Stderr, "%s serves only bot and worker, not %q\n", fakeDiscordEnv, args)
	return 2
}

// rewriteTransport sends every request to addr over plain HTTP, keeping
// its host in the Host header.
type rewriteTransport struct {
	addr string
	base http.RoundTripper
}

func (t rewriteTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	out := req.Clone(req.Context())
	out.URL.Scheme, out.URL.Host = "http", t.addr
	if out.Host == "" {
		out.Host = req.URL.Host
	}
	return t.base.RoundTrip(out)
}

// classroom is a fake Discord with a guild and its people, and arbiter
// processes (the test binary as arbiter) sharing one store.
type classroom struct {
	t       *testing.T
	discord *discordtest.Server
	token   string
	env     []string // the processes' shared settings
	alice   discordtest.User
	general string
}

// newClassroom starts a fake Discord; the processes share storeEnv
// (REDIS_URL, or DATA_DIR for the embedded store).
func newClassroom(t *testing.T, storeEnv ...string) *classroom {
	const appID = "1575166017133477888"
	token := "MTU3NTE2NjAxNzEzMzQ3Nzg4OA.GShare.shared-state-bot-token-of-the-fake-000000"
	srv := discordtest.Start(t, discordtest.Options{Token: token, AppID: appID})
	c := &classroom{t: t, discord: srv, token: token, general: srv.Guild().DefaultChannelID}
	c.alice = srv.AddUser("Alice")
	c.env = append([]string{"ARBITER_TEST_AS_MAIN=1", fakeDiscordEnv + "=" + strings.TrimPrefix(srv.URL(), "http://"),
		"DISCORD_TOKEN=" + token, "DISCORD_APP_ID=" + appID, "DISCORD_PUBLIC_KEY=" + srv.PublicKeyHex(),
		"DEV_GUILD_ID=" + srv.Guild().ID, "REDIS_URL=", "LOG_LEVEL=info", "BOT_MOVE_TIME=20ms", "METRICS_ADDR=", "GAMES_DIR="}, storeEnv...)
	return c
}

// proc is one arbiter process of a classroom.
type proc struct {
	c        *classroom
	cmd      *exec.Cmd
	api      string // its API_ADDR, "127.0.0.1:PORT"
	endpoint string // its interactions endpoint, "http://ADDR"
	log      *syncBuffer
	done     chan struct{}
}

// syncBuffer is a log read while it is written.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) add(line string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.b.WriteString(line + "\n")
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// freeAddr returns a loopback address free at the time of asking.
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// start runs `arbiter args...` as a child process with the classroom's
// settings and extra ones, and waits until it logged ready (a line
// matching ready). The process is killed when the test ends.
func (c *classroom) start(ready *regexp.Regexp, extra []string, args ...string) *proc {
	t := c.t
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(append([]string(nil), os.Environ()...), c.env...), extra...)
	cmd.Dir = t.TempDir()
	out, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &proc{c: c, cmd: cmd, log: &syncBuffer{}, done: make(chan struct{})}
	for _, e := range extra {
		if a, ok := strings.CutPrefix(e, "API_ADDR="); ok {
			p.api = a
		}
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	endpoint := regexp.MustCompile(`serving Discord's interactions" addr=(\S+)`)
	seen := make(chan struct{})
	var once sync.Once
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			p.log.add(line)
			if m := endpoint.FindStringSubmatch(line); m != nil {
				p.endpoint = "http://" + m[1]
			}
			if ready.MatchString(line) {
				once.Do(func() { close(seen) })
			}
		}
		_, _ = io.Copy(io.Discard, out)
		_ = cmd.Wait()
	}()
	t.Cleanup(func() { p.kill() })
	select {
	case <-seen:
	case <-p.done:
		t.Fatalf("arbiter %v stopped before it was ready:\n%s", args, p.log.String())
	case <-time.After(hangBound):
		t.Fatalf("arbiter %v not ready after %v:\n%s", args, hangBound, p.log.String())
	}
	return p
}

// startBot starts `arbiter bot --http` serving the play page at api.
func (c *classroom) startBot(api string, extra ...string) *proc {
	c.t.Helper()
	p := c.start(regexp.MustCompile(`serving Discord's interactions`),
		append([]string{"API_ADDR=" + api, "PUBLIC_URL=http://" + api}, extra...), "bot", "--http", "127.0.0.1:0")
	for end := time.Now().Add(hangBound); ; time.Sleep(20 * time.Millisecond) { // the API listens beside
		conn, err := net.Dial("tcp", api)
		if err == nil {
			conn.Close()
			return p
		}
		if time.Now().After(end) {
			c.t.Fatalf("the API at %s does not take connections after 30 s:\n%s", api, p.log.String())
		}
	}
}

// kill ends p with SIGKILL and waits until it is gone.
func (p *proc) kill() {
	if p.cmd.Process != nil {
		_ = p.cmd.Process.Signal(syscall.SIGKILL)
	}
	<-p.done
}

// command sends a slash command of alice in the general channel to p's
// interactions endpoint and returns the answer's text.
func (p *proc) command(name string, opts ...discordtest.Option) string {
	t := p.c.t
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangBound)
	defer cancel()
	ans, err := p.c.discord.PostInteraction(ctx, p.endpoint, discordtest.InteractionSpec{Type: discordtest.InteractionCommand,
		UserID: p.c.alice.ID, ChannelID: p.c.general, Name: name, Options: opts}, discordtest.Delivery{})
	if err != nil {
		t.Fatalf("/%s: %v\n%s", name, err, p.log.String())
	}
	if ans.Response == nil {
		t.Fatalf("/%s: answered %d %s", name, ans.Status, ans.Body)
	}
	text := ans.Response.Content
	if ans.Response.Type == 5 { // deferred: the answer follows
		resp, err := p.c.discord.WaitForResponse(ctx, ans.Interaction.ID)
		if err != nil {
			t.Fatalf("/%s: %v", name, err)
		}
		text = resp.Content
		for _, m := range p.c.discord.Followups(ans.Interaction.ID) {
			text += "\n" + m.Content
		}
	}
	return text
}

// boardLink starts a game of Sixes against the bot through p and returns
// a one-time link to its board.
func (p *proc) boardLink() string {
	t := p.c.t
	t.Helper()
	if text := p.command("play", discordtest.Option{Name: "game", Value: "sixes"}, discordtest.Option{Name: "level", Value: 1}); !strings.Contains(text, "Sixes") {
		t.Fatalf("/play answered %q", text)
	}
	text := p.command("board", discordtest.Option{Name: "link", Value: true})
	m := regexp.MustCompile(`http://\S+/play/link/[A-Za-z0-9_-]+`).FindString(text)
	if m == "" {
		t.Fatalf("/board link:true answered %q", text)
	}
	return m
}

// on returns link with its host replaced by api.
func on(link, api string) string {
	u, err := url.Parse(link)
	if err != nil {
		panic(err)
	}
	u.Host = api
	return u.String()
}

// pageClient is a browser's requests without a browser: no redirects
// followed, the session cookie carried by hand.
type pageClient struct {
	t      *testing.T
	cookie *http.Cookie
	game   string
}

// do sends a request and returns its status and body.
func (b *pageClient) do(method, u string) (int, string, http.Header) {
	b.t.Helper()
	req, err := http.NewRequest(method, u, nil)
	if err != nil {
		b.t.Fatal(err)
	}
	if b.cookie != nil {
		req.AddCookie(b.cookie)
	}
	client := &http.Client{Timeout: 20 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), resp.Header
}

// spend uses a one-time link, keeping the session cookie it gives.
func (b *pageClient) spend(link string) {
	b.t.Helper()
	code, body, hdr := b.do("POST", link)
	if code != http.StatusSeeOther {
		b.t.Fatalf("POST %s: %d %s", link, code, body)
	}
	for _, c := range (&http.Response{Header: hdr}).Cookies() {
		if c.Name == "arbiter_play" {
			b.cookie = c
		}
	}
	m := regexp.MustCompile(`^/play/game/([^/]+)/$`).FindStringSubmatch(hdr.Get("Location"))
	if b.cookie == nil || m == nil {
		b.t.Fatalf("POST %s: no session cookie or board (%q)", link, hdr.Get("Location"))
	}
	b.game = m[1]
}

// state reads the session's game on the process at api; its status.
func (b *pageClient) state(api string) (int, string) {
	b.t.Helper()
	code, body, _ := b.do("GET", "http://"+api+"/play/game/"+b.game+"/state")
	return code, body
}

// TestPlayLinkAndSessionAcrossProcesses: two `arbiter bot` processes on
// one redis-server. A one-time link made through A is shown and spent on
// B, and is spent for A too; the session it gave is honoured by both;
// the session survives a SIGKILL and restart of B, while A knows nothing
// of a session that was never made.
func TestPlayLinkAndSessionAcrossProcesses(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	c := newClassroom(t, "REDIS_URL="+srv.URL())
	apiA, apiB := freeAddr(t), freeAddr(t)
	a := c.startBot(apiA)
	b := c.startBot(apiB, "SHARD_ID=1", "SHARD_COUNT=2")

	link := a.boardLink()
	page := &pageClient{t: t}
	if code, body, _ := page.do("GET", on(link, apiB)); code != http.StatusOK || !strings.Contains(body, "It works once") {
		t.Fatalf("the link made through A, shown on B: %d %s", code, body)
	}
	page.spend(on(link, apiB))
	for _, api := range []string{apiA, apiB} {
		if code, body, _ := page.do("POST", on(link, api)); code != http.StatusGone {
			t.Errorf("the link spent on B, used again on %s: %d %s", api, code, body)
		}
		if code, body := page.state(api); code != http.StatusOK || !strings.Contains(body, `"status":"active"`) {
			t.Errorf("the session from B's link, on %s: %d %s", api, code, body)
		}
	}

	b.kill()
	b = c.startBot(apiB, "SHARD_ID=1", "SHARD_COUNT=2")
	if code, body := page.state(apiB); code != http.StatusOK || !strings.Contains(body, `"status":"active"`) {
		t.Errorf("the session after a SIGKILL and restart of B: %d %s", code, body)
	}
	forged := &pageClient{t: t, game: page.game, cookie: &http.Cookie{Name: "arbiter_play", Value: "never-made"}}
	if code, _ := forged.state(apiA); code != http.StatusUnauthorized {
		t.Errorf("a session never made: %d; want 401", code)
	}
}

// TestPlaySessionSurvivesRestartEmbedded: with the embedded store, a link
// made before a SIGKILL is spent after the restart, and the session it
// gave survives the next SIGKILL and restart.
func TestPlaySessionSurvivesRestartEmbedded(t *testing.T) {
	c := newClassroom(t, "DATA_DIR="+t.TempDir())
	api := freeAddr(t)
	p := c.startBot(api)
	link := p.boardLink()
	p.kill()
	p = c.startBot(api)
	page := &pageClient{t: t}
	page.spend(link)
	p.kill()
	c.startBot(api)
	if code, body := page.state(api); code != http.StatusOK || !strings.Contains(body, `"status":"active"`) {
		t.Errorf("the session after a SIGKILL and restart: %d %s", code, body)
	}
	if code, _, _ := page.do("POST", link); code != http.StatusGone {
		t.Errorf("the link spent before the restart, used again: %d", code)
	}
}
