package commands_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"arbiter/commands"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/open"
	"arbiter/store/redistest"
)

// flaky stands in for a platform that fails the first fail posts (a crash
// or a network fault before the post got through) and, like Discord with
// a message nonce and enforce_nonce, shows a repeated key once.
type flaky struct {
	posts
	fail  atomic.Int32
	mu    sync.Mutex
	shown map[string]bool
}

func (f *flaky) Post(ctx context.Context, channel string, msg commands.Message) error {
	if f.fail.Add(-1) >= 0 {
		return errors.New("flaky: the post was lost")
	}
	f.mu.Lock()
	if f.shown == nil {
		f.shown = map[string]bool{}
	}
	if msg.Key != "" && f.shown[msg.Key] {
		f.mu.Unlock()
		return nil
	}
	f.shown[msg.Key] = true
	f.mu.Unlock()
	return f.posts.Post(ctx, channel, msg)
}

// faulty wraps a store with faults the tests turn on.
type faulty struct {
	store.Store
	lostAnswers  atomic.Int32 // Saves applied whose answer is then lost
	failRatings  atomic.Int32 // UpdateRatings that fail (Redis away)
	panicDue     atomic.Bool  // Due hands out games that make the clock panic
	panicForJobs atomic.Bool  // LoadForJob hands out games that make a worker panic
}

func (f *faulty) Save(ctx context.Context, g *store.Game) error {
	err := f.Store.Save(ctx, g)
	if err == nil && f.lostAnswers.Add(-1) >= 0 {
		return fmt.Errorf("save: %w (the connection broke before the answer)", store.ErrUnavailable)
	}
	return err
}

func (f *faulty) UpdateRatings(ctx context.Context, guild, game, id string, players []string, u func([]store.Rating) ([]store.Rating, error)) (bool, error) {
	if f.failRatings.Add(-1) >= 0 {
		return false, fmt.Errorf("ratings: %w", store.ErrUnavailable)
	}
	return f.Store.UpdateRatings(ctx, guild, game, id, players, u)
}

func (f *faulty) Due(ctx context.Context, now time.Time, limit int) ([]*store.Game, error) {
	due, err := f.Store.Due(ctx, now, limit)
	if f.panicDue.Load() {
		for _, g := range due {
			g.State = nil // the clock's first look at the position panics
		}
	}
	return due, err
}

func (f *faulty) LoadForJob(ctx context.Context, job *store.Job) (*store.Game, error) {
	g, err := f.Store.LoadForJob(ctx, job)
	if err == nil && f.panicForJobs.Load() {
		g.State = nil
	}
	return g, err
}

// newFaultyEnv is newEnv over a faulty store and a flaky notifier; now nil
// runs the service on the store's own clock.
func newFaultyEnv(t *testing.T, workers bool, now func() time.Time, cfg commands.Config) (*env, *faulty, *flaky) {
	t.Helper()
	srv := redistest.Start(t, redistest.Options{TCP: true})
	ctx, cancel := context.WithCancel(context.Background())
	reg := games.Registry()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	scfg := store.Config{RedisURL: srv.URL(), Registry: reg, Logger: log, ClaimTimeout: 5 * time.Second, Now: now}
	st, err := open.Store(ctx, scfg)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	f := &faulty{Store: st}
	p := &flaky{}
	if cfg.RefereeRole == "" {
		cfg.RefereeRole = "referee"
	}
	cfg.BotMoveTime, cfg.Workers, cfg.TableMB = 60*time.Millisecond, 2, 4
	svc := commands.New(cfg, f, reg, p, log, now)
	var wg sync.WaitGroup
	if workers {
		wg.Go(func() { svc.RunWorkers(ctx) })
	}
	t.Cleanup(func() {
		cancel()
		wg.Wait()
		_ = st.Close(context.Background())
	})
	return &env{t: t, srv: srv, svc: svc, st: st, posts: &p.posts, reg: reg}, f, p
}

// count returns how many posts to channel contain text.
func (p *posts) count(channel, text string) int {
	n := 0
	for _, m := range p.all(channel) {
		if strings.Contains(m, text) {
			n++
		}
	}
	return n
}

// TestBoundedInputs: an overflowing or too generous extension and overlong
// options are refused with a clear message, and change nothing.
func TestBoundedInputs(t *testing.T) {
	e := newEnv(t, false)
	e.ok(ann, "b", "/play game:hique opponent:@bob")
	e.ok(bob, "b", "/accept")
	due := e.game("b").Deadline
	e.refused(cat, "b", "/referee extend by:999999d", "too long")
	e.refused(cat, "b", "/referee extend by:31d", "at most 30d")
	if got := e.game("b").Deadline; !got.Equal(due) {
		t.Fatalf("a refused extension moved the deadline from %v to %v", due, got)
	}
	if r := e.ok(cat, "b", "/referee extend by:30d"); !strings.Contains(r.Text, "gives 30d more time") {
		t.Errorf("a 30-day extension: %q", r.Text)
	}
	e.refused(ann, "b", "/move "+strings.Repeat("4", 201), "at most 200")
	e.refused(cat, "b", "/referee adjudicate result:p1 reason:"+strings.Repeat("x", 201), "at most 200")
}

// TestOutcomeUnknown: when the store applied a move but its answer was
// lost, the player is told the outcome is unknown and shown the game as it
// is (with the move), never "nothing was changed".
func TestOutcomeUnknown(t *testing.T) {
	e, f, _ := newFaultyEnv(t, false, time.Now, commands.Config{})
	e.ok(ann, "u", "/play game:sixes opponent:@bob")
	e.ok(bob, "u", "/accept")
	f.lostAnswers.Store(1)
	r := e.do(ann, "u", "/move a1 c1")
	if !r.Private || !strings.Contains(r.Text, "unknown") || strings.Contains(r.Text, "nothing was changed") {
		t.Fatalf("reply after a lost answer: %q", r.Text)
	}
	if g := e.game("u"); len(g.Moves) != 1 || !strings.Contains(r.Text, "as it is now") {
		t.Fatalf("the move was applied (%d moves) and the reply should show the game: %q", len(g.Moves), r.Text)
	}
}

// TestTimeoutAnnouncedAndRatedOnce: a rated game lost on time whose rating
// and announcement fail right after the save (as if the process died
// there) is rated and announced by the sweep, exactly once, however often
// the sweep runs.
func TestTimeoutAnnouncedAndRatedOnce(t *testing.T) {
	e, f, p := newFaultyEnv(t, false, time.Now, commands.Config{OutboxGrace: time.Millisecond})
	e.ok(ann, "t", "/play game:hique opponent:@bob options:rated=on")
	e.ok(bob, "t", "/accept")
	ctx := context.Background()
	g := e.game("t")
	g.Deadline = time.Now().Add(-time.Second) // due now: make it so in the store
	if err := e.st.Save(ctx, g); err != nil {
		t.Fatal(err)
	}
	f.failRatings.Store(1)
	p.fail.Store(1)
	must(t, e.svc.Tick(ctx)) // saves the loss; rating and post fail
	if n := p.count("t", "did not move in time"); n != 0 {
		t.Fatalf("announced %d times though every post failed", n)
	}
	for range 4 {
		time.Sleep(20 * time.Millisecond) // past the sweep's backoff
		must(t, e.svc.Tick(ctx))          // each tick sweeps
	}
	if n := p.count("t", "did not move in time"); n != 1 {
		t.Fatalf("the loss on time was announced %d times, want 1", n)
	}
	r, err := e.st.Ratings(ctx, "guild1", "hique", ann.ID, bob.ID)
	if err != nil || r[0].Games != 1 || r[1].Games != 1 {
		t.Fatalf("ratings after the sweep: %+v, %v; want one game each", r, err)
	}
	if a := e.archived("t"); a.Status != store.Finished || !strings.Contains(a.Reason, "ran out of time") {
		t.Fatalf("archived: %s %q", a.Status, a.Reason)
	}
	if left, err := e.st.OutboxDue(ctx, time.Now().Add(time.Hour), 10); err != nil || len(left) != 0 {
		t.Fatalf("the outbox keeps %d entries after delivery (%v)", len(left), err)
	}
}

// TestClockPanicSetAside: a game whose handling panics does not stop the
// clock; after 3 failures it is set aside as a dead letter, paused, and
// its channel told once; other games go on being handled.
func TestClockPanicSetAside(t *testing.T) {
	e, f, p := newFaultyEnv(t, false, time.Now, commands.Config{})
	ctx := context.Background()
	e.ok(ann, "p", "/play game:hique opponent:@bob")
	e.ok(bob, "p", "/accept")
	g := e.game("p")
	g.Deadline = time.Now().Add(-time.Second)
	must(t, e.st.Save(ctx, g))
	f.panicDue.Store(true)
	for range 3 {
		must(t, e.svc.Tick(ctx))
	}
	g = e.game("p")
	if !commands.FlowOf(g).Paused || g.Status != store.Active {
		t.Fatalf("after 3 panics: paused %v, status %s; want a paused game", commands.FlowOf(g).Paused, g.Status)
	}
	if n := p.count("p", "referee can `/referee resume`"); n != 1 {
		t.Fatalf("the channel was told %d times, want 1", n)
	}
	dl, err := e.st.DeadLetters(ctx, 10)
	if err != nil || len(dl) != 1 || !strings.Contains(dl[0].Failure, "panic") || dl[0].Record == "" {
		t.Fatalf("dead letters: %+v, %v", dl, err)
	}
	f.panicDue.Store(false)
	e.ok(cat, "p", "/referee resume")
	if g := e.game("p"); commands.FlowOf(g).Paused || g.Deadline.IsZero() {
		t.Fatalf("resumed game: paused %v, deadline %v", commands.FlowOf(g).Paused, g.Deadline)
	}
}

// TestWorkerPanicSetAside: a bot turn that panics is retried at once, and
// set aside after 3 failures with its game paused; the workers live on and
// play other games.
func TestWorkerPanicSetAside(t *testing.T) {
	e, f, p := newFaultyEnv(t, true, time.Now, commands.Config{})
	f.panicForJobs.Store(true)
	e.ok(ann, "w", "/play game:sixes level:1 side:second")
	waitFor(t, "the bot turn set aside", func() bool { return p.count("w", "referee can `/referee resume`") > 0 })
	if g := e.game("w"); !commands.FlowOf(g).Paused {
		t.Fatal("the game of a set-aside bot turn is not paused")
	}
	f.panicForJobs.Store(false)
	e.ok(cat, "w", "/referee resume")
	waitFor(t, "the bot's move after resume", func() bool { return e.humanToMove("w") })
	e.ok(ann, "w2", "/play game:sixes level:1 side:second")
	waitFor(t, "a bot move in another game", func() bool { return e.humanToMove("w2") })
	if n := p.count("w", "referee can `/referee resume`"); n != 1 {
		t.Fatalf("told %d times, want 1", n)
	}
}

// TestFairClockOutage: while no process taking commands beats, nobody is
// timed out; when one beats again, every running clock gets the outage's
// time back and its channel is told once; the clock then works as ever.
// Each step waits for the store's time to pass the point it needs and
// checks the order of times, never how long the machine took.
func TestFairClockOutage(t *testing.T) {
	tick := 250 * time.Millisecond // an outage is 3 ticks without a beat
	e, _, p := newFaultyEnv(t, false, nil, commands.Config{ClockTick: tick, TurnTime: 1500 * time.Millisecond, TakesCommands: true})
	ctx := context.Background()
	e.svc.Beat(ctx)
	e.ok(ann, "f", "/play game:hique opponent:@bob")
	e.ok(bob, "f", "/accept")
	started := e.game("f")
	due := started.Deadline
	// The outage: no beat until the deadline and two ticks more have
	// passed; a worker's clock keeps ticking meanwhile.
	for hang := time.Now().Add(time.Minute); time.Now().Before(due.Add(2 * tick)); time.Sleep(tick / 2) {
		if time.Now().After(hang) {
			t.Fatal("the host's clock did not reach the deadline")
		}
		must(t, e.svc.Tick(ctx))
	}
	if g := e.game("f"); g.Status != store.Active {
		t.Fatalf("a player lost on time during an outage: %s", g.Reason)
	}
	e.svc.Beat(ctx) // the bot is back
	outs, err := e.st.Outages(ctx, time.Time{})
	if err != nil || len(outs) != 1 {
		t.Fatalf("outages %v, %v; want the one", outs, err)
	}
	o := outs[0]
	if !o.To.After(due) {
		t.Fatalf("the outage %v..%v ended before the deadline %v", o.From, o.To, due)
	}
	// The turn's part of the outage: from the turn's start (the last beat
	// came before it) to the beat that ended the outage.
	from := commands.FlowOf(started).TurnFrom
	if o.From.After(from) {
		from = o.From
	}
	want := o.To.Sub(from)
	g := e.game("f")
	if gave := g.Deadline.Sub(due); gave-want > time.Millisecond || want-gave > time.Millisecond {
		t.Fatalf("the deadline moved by %v, want the outage's %v", gave, want)
	}
	if n := p.count("f", "was offline for"); n != 1 {
		t.Fatalf("the channel was told %d times, want 1", n)
	}
	// Beats go on: the clock times out as ever, once the new deadline has
	// passed and not before.
	newDue := g.Deadline
	for hang := time.Now().Add(time.Minute); ; time.Sleep(tick / 2) {
		e.svc.Beat(ctx)
		must(t, e.svc.Tick(ctx))
		ticked := time.Now()
		if e.going("f") == nil {
			if ticked.Before(newDue) {
				t.Fatalf("timed out by a tick that ended at %v, before the given-back deadline %v", ticked, newDue)
			}
			break
		}
		if ticked.After(hang) {
			t.Fatal("the game did not time out after the given-back deadline")
		}
	}
	if n := p.count("f", "was offline for"); n != 1 {
		t.Fatalf("the channel was told %d times in all, want 1", n)
	}
}

// TestClockDeathsSetAside: a game whose handling killed the clock's
// process at every try (10 starts that never finished: a fatal error no
// recover catches) is set aside and paused at the next start; fewer
// deaths (restarts by hand) are not taken for a bug.
func TestClockDeathsSetAside(t *testing.T) {
	e, _, p := newFaultyEnv(t, false, time.Now, commands.Config{})
	ctx := context.Background()
	e.ok(ann, "x", "/play game:hique opponent:@bob")
	e.ok(bob, "x", "/accept")
	g := e.game("x")
	g.Deadline = time.Now().Add(time.Hour)
	g.RemindAt = time.Now().Add(-time.Second) // a reminder is due
	must(t, e.st.Save(ctx, g))
	key := fmt.Sprintf("clock/x/%s/%d", g.ID, g.Version)
	for range 3 { // three deaths: not a bug yet
		if _, err := e.st.Attempt(ctx, key); err != nil {
			t.Fatal(err)
		}
	}
	must(t, e.svc.Tick(ctx))
	if g := e.game("x"); commands.FlowOf(g).Paused || commands.FlowOf(g).Reminders != 1 {
		t.Fatalf("after 3 deaths: paused %v, reminders %d; want the reminder sent", commands.FlowOf(g).Paused, commands.FlowOf(g).Reminders)
	}
	g = e.game("x")
	g.RemindAt = time.Now().Add(-time.Second)
	must(t, e.st.Save(ctx, g))
	key = fmt.Sprintf("clock/x/%s/%d", g.ID, g.Version)
	for range 10 {
		if _, err := e.st.Attempt(ctx, key); err != nil {
			t.Fatal(err)
		}
	}
	must(t, e.svc.Tick(ctx))
	if g := e.game("x"); !commands.FlowOf(g).Paused {
		t.Fatal("after 10 deaths the game is not paused")
	}
	if n := p.count("x", "referee can `/referee resume`"); n != 1 {
		t.Fatalf("told %d times, want 1", n)
	}
	if dl, err := e.st.DeadLetters(ctx, 1); err != nil || len(dl) != 1 || !strings.Contains(dl[0].Failure, "died") {
		t.Fatalf("dead letters: %+v, %v", dl, err)
	}
}
