package faults_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"arbiter/commands"
	"arbiter/internal/testkit"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/open"
	"arbiter/store/redistest"
)

// The fault suite runs the game flow in child processes: this test binary
// run again with ARBITER_FAULT_CHILD set, so that a SIGKILL kills a real
// process with its sockets and goroutines. A child reads commands on stdin
// (one JSON line each) and answers each on stdout; its later messages go
// to the sink, which stands in for Discord's Create Message.

// line is a command sent to a child process.
type line struct {
	Channel string `json:"channel"`
	User    string `json:"user"`
	Text    string `json:"text"`
	Referee bool   `json:"referee,omitempty"`
}

// answer is a child's reply to a line.
type answer struct {
	Text    string `json:"text"`
	Private bool   `json:"private"`
}

// post is a message a child posted.
type post struct {
	Channel string `json:"channel"`
	Text    string `json:"text"`
	Key     string `json:"key"`
}

// TestFaultChild is the child process; it does nothing in a normal run.
func TestFaultChild(t *testing.T) {
	if os.Getenv("ARBITER_FAULT_CHILD") == "" {
		t.Skip("the fault suite's child process")
	}
	os.Exit(runChild())
}

// runChild runs one process of the game flow until stdin closes.
func runChild() int {
	env := func(k string, d time.Duration) time.Duration {
		v, err := time.ParseDuration(os.Getenv(k))
		if err != nil {
			return d
		}
		return v
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reg := games.Registry()
	st, err := open.Store(ctx, store.Config{RedisURL: os.Getenv("REDIS_URL"), Registry: reg, Logger: log,
		Timeout: time.Second, ClaimTimeout: env("CLAIM_TIMEOUT", 2*time.Second)})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 1
	}
	workers := 0
	fmt.Sscan(os.Getenv("WORKERS"), &workers)
	svc := commands.New(commands.Config{
		RefereeRole: "referee", TurnTime: env("TURN_TIME", time.Hour), BotMoveTime: env("BOT_MOVE_TIME", 200*time.Millisecond),
		Workers: max(workers, 1), WorkerName: os.Getenv("NAME"), ClockTick: 200 * time.Millisecond, TableMB: 4,
		TakesCommands: os.Getenv("ROLE") == "bot", OutboxGrace: time.Second,
	}, st, reg, &sinkNotifier{url: os.Getenv("SINK_URL")}, log, nil)
	var wg sync.WaitGroup
	if workers > 0 {
		wg.Go(func() { svc.RunWorkers(ctx) })
	}
	wg.Go(func() { svc.RunClock(ctx) })
	specs := commands.CommandSet(reg.Names())
	in := bufio.NewScanner(os.Stdin)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var l line
		if err := json.Unmarshal(in.Bytes(), &l); err != nil {
			continue
		}
		inv, err := commands.ParseLine(l.Text, specs)
		var r commands.Reply
		if err != nil {
			r = commands.Reply{Message: commands.Message{Text: err.Error()}, Private: true}
		} else {
			inv.Guild, inv.Channel = "guild1", l.Channel
			inv.User = commands.User{ID: l.User, Name: l.User}
			if l.Referee {
				inv.Roles = []string{"referee"}
			}
			r = svc.Handle(ctx, inv)
		}
		_ = out.Encode(answer{Text: r.Text, Private: r.Private})
	}
	cancel()
	wg.Wait()
	_ = st.Close(context.Background())
	return 0
}

// sinkNotifier posts a child's messages to the sink.
type sinkNotifier struct{ url string }

func (n *sinkNotifier) Post(ctx context.Context, channel string, msg commands.Message) error {
	body, _ := json.Marshal(post{Channel: channel, Text: msg.Text, Key: msg.Key})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("sink: %s", resp.Status)
	}
	return nil
}

// sink stands in for Discord's Create Message: it keeps the messages
// created and, as Discord's docs say of a nonce with enforce_nonce, "if
// another message was created by the same author with the same nonce,
// that message will be returned and no new message will be created". It
// can hold the posts whose text contains a pattern, never answering them,
// so that a test can kill the poster in the middle of an announcement.
type sink struct {
	mu       sync.Mutex
	created  []post
	requests int
	byKey    map[string]int // posts asked for, per key
	hold     string
	held     chan struct{}
}

func newSink() *sink { return &sink{byKey: map[string]int{}, held: make(chan struct{}, 16)} }

func (k *sink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var p post
	if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	k.mu.Lock()
	k.requests++
	k.byKey[p.Key]++
	hold := k.hold != "" && strings.Contains(p.Text, k.hold)
	k.mu.Unlock()
	if hold {
		k.held <- struct{}{}
		<-r.Context().Done() // the poster dies waiting
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, c := range k.created {
		if p.Key != "" && c.Key == p.Key {
			return // the nonce was seen: no new message
		}
	}
	k.created = append(k.created, p)
}

// holdPosts makes the sink hold posts containing text ("" for none).
func (k *sink) holdPosts(text string) {
	k.mu.Lock()
	k.hold = text
	k.mu.Unlock()
}

// count returns how many messages created in channel contain text.
func (k *sink) count(channel, text string) int {
	k.mu.Lock()
	defer k.mu.Unlock()
	n := 0
	for _, p := range k.created {
		if p.Channel == channel && strings.Contains(p.Text, text) {
			n++
		}
	}
	return n
}

// proc is a child process of the game flow.
type proc struct {
	t       *testing.T
	name    string
	cmd     *exec.Cmd
	in      io.WriteCloser
	answers chan answer
	stderr  *testkit.Buffer
	done    chan struct{}
}

// world is a fault scenario: a redis-server with an append-only file, the
// sink, and the processes started on them.
type world struct {
	t     *testing.T
	redis *redistest.Server
	sink  *sink
	url   string
	st    store.Store   // the test's own look at the store (takes no commands)
	rdb   *redis.Client // and at its keys
	procs []*proc
}

func newWorld(t *testing.T) *world {
	t.Helper()
	if !redistest.Installed() {
		t.Skip("redis-server is not installed")
	}
	w := &world{t: t, redis: redistest.Start(t, redistest.Options{AppendOnly: true, TCP: true}), sink: newSink()}
	srv := httptest.NewServer(w.sink)
	t.Cleanup(srv.Close)
	w.url = srv.URL
	st, err := open.Store(context.Background(), store.Config{RedisURL: w.redis.URL(), Registry: games.Registry(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	w.st = st
	opt, err := redis.ParseURL(w.redis.URL())
	if err != nil {
		t.Fatal(err)
	}
	w.rdb = redis.NewClient(opt)
	t.Cleanup(func() {
		_ = w.rdb.Close()
		for _, p := range w.procs {
			p.kill()
		}
		_ = st.Close(context.Background())
	})
	return w
}

// start starts a child: role "bot" takes commands (and beats the
// heartbeat), "worker" does not; workers is its number of bot-turn
// workers (0 for none); env adds settings.
func (w *world) start(name, role string, workers int, env ...string) *proc {
	w.t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestFaultChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "ARBITER_FAULT_CHILD=1", "REDIS_URL="+w.redis.URL(), "SINK_URL="+w.url,
		"ROLE="+role, "NAME="+name, fmt.Sprintf("WORKERS=%d", workers))
	cmd.Env = append(cmd.Env, env...)
	p := &proc{t: w.t, name: name, cmd: cmd, answers: make(chan answer, 16), stderr: &testkit.Buffer{}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		w.t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		w.t.Fatal(err)
	}
	p.in = in
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var a answer
			if json.Unmarshal(sc.Bytes(), &a) == nil && sc.Bytes()[0] == '{' {
				p.answers <- a
			}
		}
		_ = cmd.Wait()
	}()
	w.procs = append(w.procs, p)
	return p
}

// do sends a command to p and returns its answer.
func (p *proc) do(channel, user, text string) answer {
	p.t.Helper()
	data, _ := json.Marshal(line{Channel: channel, User: user, Text: text, Referee: user == "cat"})
	if _, err := p.in.Write(append(data, '\n')); err != nil {
		p.t.Fatalf("%s: %s: %v", p.name, text, err)
	}
	select {
	case a := <-p.answers:
		return a
	case <-p.done:
		p.t.Fatalf("%s died answering %s", p.name, text)
	case <-time.After(30 * time.Second):
		p.t.Fatalf("%s: no answer to %s in 30 s", p.name, text)
	}
	return answer{}
}

// ok sends a command that must be answered publicly.
func (p *proc) ok(channel, user, text string) answer {
	p.t.Helper()
	a := p.do(channel, user, text)
	if a.Private {
		p.t.Fatalf("%s %s: refused: %s", user, text, a.Text)
	}
	return a
}

// kill kills p with SIGKILL and waits for it.
func (p *proc) kill() {
	if p.cmd.Process != nil {
		_ = p.cmd.Process.Signal(syscall.SIGKILL)
	}
	<-p.done
}

// game loads the game in channel (nil when there is none going on).
func (w *world) game(channel string) *store.Game {
	g, err := w.st.Load(context.Background(), channel)
	if err != nil {
		return nil
	}
	return g
}

// waitFor polls cond until it holds, failing after limit.
func waitFor(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out after %v waiting for %s", limit, what)
}
