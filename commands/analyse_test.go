package commands_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"arbiter/commands"
	"arbiter/engine"
)

// playStudents plays a game of name between ann and bob in ch with random
// moves: to its end, or plies moves and a resignation.
func (e *env) playStudents(t *testing.T, ch, name string, plies int, rng *rand.Rand) {
	t.Helper()
	e.ok(ann, ch, "/play game:"+name+" opponent:@bob")
	e.ok(bob, ch, "/accept")
	for moves := 0; ; moves++ {
		g := e.going(ch)
		if g == nil {
			return
		}
		user := ann
		if g.Players[g.State.ToMove()].UserID == bob.ID {
			user = bob
		}
		if moves == plies {
			e.ok(user, ch, "/resign")
			waitFor(t, ch+" archived", func() bool { return e.going(ch) == nil })
			return
		}
		e.ok(user, ch, "/move "+e.randomMove(ch, rng))
	}
}

// analysisPosts returns the analyses posted in ch.
func (e *env) analysisPosts(ch string) []commands.Message {
	e.posts.mu.Lock()
	defer e.posts.mu.Unlock()
	var out []commands.Message
	for _, p := range e.posts.msgs {
		if p.channel == ch && strings.HasPrefix(p.msg.Text, "**Analysis of") {
			out = append(out, p.msg)
		}
	}
	return out
}

func TestAnalyseAFinishedGameOnceAndNotOneGoingOn(t *testing.T) {
	e := newEnvWith(t, true, func(c *commands.Config) { c.AnalysisLimits = engine.Limits{Depth: 3} })
	rng := rand.New(rand.NewPCG(1, 27))
	const ch = "analyse"
	e.ok(ann, ch, "/play game:hiya opponent:@bob")
	e.refused(ann, ch, "/analyse", "still going on")
	e.ok(bob, ch, "/accept")
	e.ok(ann, ch, "/move "+e.randomMove(ch, rng))
	e.refused(bob, ch, "/analyse", "still going on")
	id := e.game(ch).ID
	e.refused(bob, ch, "/analyse game:"+id, "still going on")
	e.ok(bob, ch, "/resign")
	waitFor(t, "the game archived", func() bool { return e.going(ch) == nil })

	r := e.ok(cat, ch, "/analyse")
	if !strings.Contains(r.Text, "position 1 in line") {
		t.Errorf("/analyse: %q", r.Text)
	}
	waitFor(t, "the analysis posted", func() bool { return len(e.analysisPosts(ch)) > 0 })
	time.Sleep(200 * time.Millisecond) // time for a second post, were there one
	posted := e.analysisPosts(ch)
	if len(posted) != 1 {
		t.Fatalf("the analysis was posted %d times", len(posted))
	}
	msg := posted[0]
	if len(msg.Files) != 1 || msg.Files[0].ContentType != "image/png" || len(msg.Files[0].Data) == 0 {
		t.Errorf("the analysis came without its graph: %+v", msg.Files)
	}
	for _, want := range []string{"#" + id, "ann", "bob", "accuracy"} {
		if !strings.Contains(msg.Text, want) {
			t.Errorf("the analysis has no %q:\n%s", want, msg.Text)
		}
	}
	// Between its post and its keeping the game is still in line: asked
	// for then, it is not queued again.
	var again commands.Reply
	waitFor(t, "the analysis kept", func() bool {
		again = e.do(ann, ch, "/analyse game:"+id)
		if again.Private && !strings.Contains(again.Text, "already in line") {
			t.Fatalf("asked again: %q", again.Text)
		}
		return !again.Private
	})
	if again.Text != msg.Text || len(again.Files) != 1 {
		t.Errorf("asked again: %q, want the analysis kept", again.Text)
	}
	if n := len(e.analysisPosts(ch)); n != 1 {
		t.Errorf("asked again, the analysis was posted %d times", n)
	}
	hist := e.ok(ann, ch, "/history game:"+id)
	if !slices.ContainsFunc(hist.Buttons, func(b commands.Button) bool { return strings.HasPrefix(b.ID, "analyse:"+id+":") }) {
		t.Errorf("/history of a finished game offers no analysis: %+v", hist.Buttons)
	}
	e.refused(ann, ch, "/analyse game:999", "no finished game 999")
}

// TestAnalysisOfAnotherChannelsGameIsShownOnlyToWhoAsked: a game's
// analysis asked for in another channel (which may be seen by people the
// game's channel is closed to) is answered to the one who asked only, and
// posted only in the game's own channel, once.
func TestAnalysisOfAnotherChannelsGameIsShownOnlyToWhoAsked(t *testing.T) {
	e := newEnvWith(t, true, func(c *commands.Config) { c.AnalysisLimits = engine.Limits{MoveTime: 50 * time.Millisecond} })
	rng := rand.New(rand.NewPCG(3, 27))
	e.playStudents(t, "played", "sixes", 6, rng)
	id := e.archived("played").ID
	if r := e.do(bob, "elsewhere", "/analyse game:"+id); !r.Private {
		t.Errorf("asked in another channel before it was in line, the answer is public: %q", r.Text)
	}
	// In line already: the game's own channel is added to where it is posted.
	if first := e.do(ann, "played", "/analyse"); !strings.HasPrefix(first.Text, "**Analysis of") {
		waitFor(t, "the analysis posted in its channel", func() bool { return len(e.analysisPosts("played")) > 0 })
	}
	var kept commands.Reply
	waitFor(t, "the analysis kept", func() bool {
		kept = e.do(bob, "elsewhere", "/analyse game:"+id)
		return strings.HasPrefix(kept.Text, "**Analysis of")
	})
	if !kept.Private {
		t.Errorf("the kept analysis, asked for in another channel, is public")
	}
	if r := e.ok(ann, "played", "/analyse game:"+id); !strings.HasPrefix(r.Text, "**Analysis of") {
		t.Errorf("asked again in its own channel: %q", r.Text)
	}
	if n := len(e.analysisPosts("elsewhere")); n != 0 {
		t.Errorf("the analysis was posted %d times in another channel", n)
	}
	if n := len(e.analysisPosts("played")); n > 1 {
		t.Errorf("the analysis was posted %d times in its channel", n)
	}
}

func TestAnalyseQueueIsBounded(t *testing.T) {
	// Searches far longer than the test: what is queued stays queued.
	e := newEnvWith(t, true, func(c *commands.Config) {
		c.AnalysisQueue, c.AnalysisServerShare, c.AnalysisLimits = 2, 2, engine.Limits{MoveTime: time.Hour}
	})
	rng := rand.New(rand.NewPCG(2, 27))
	for i := range 3 {
		ch := fmt.Sprintf("q%d", i)
		e.playStudents(t, ch, "sixes", 4, rng)
		r := e.do(ann, ch, "/analyse")
		switch i {
		case 0, 1:
			if r.Private || !strings.Contains(r.Text, fmt.Sprintf("position %d in line", i+1)) {
				t.Errorf("game %d: %q", i, r.Text)
			}
		case 2:
			if !r.Private || !strings.Contains(r.Text, "busy: 2 analyses are in line") {
				t.Errorf("a third game with two in line: %q", r.Text)
			}
		}
	}
	e.refused(bob, "q1", "/analyse", "already in line for analysis: position 2 in line")
}

// TestQueuedAnalysisNeverDelaysABotTurn plays bot turns while a long
// analysis is queued on the same workers: no analysis search ever runs
// while a worker has a bot turn (sampled throughout), the analysis does
// run between the turns, and the bot's answer times (from the person's
// move to the bot's, at 60 ms a move) are printed without and with the
// analysis queued.
func TestQueuedAnalysisNeverDelaysABotTurn(t *testing.T) {
	e := newEnvWith(t, true, func(c *commands.Config) { c.AnalysisLimits = engine.Limits{MoveTime: 100 * time.Millisecond} })
	rng := rand.New(rand.NewPCG(3, 27))
	e.playStudents(t, "long", "sixes", 1000, rng) // to its end: 100 plies

	turns := 6
	lateness := func(ch string) []time.Duration {
		e.ok(ann, ch, "/play game:hiya level:5 side:first")
		var late []time.Duration
		for range turns {
			if e.going(ch) == nil {
				break
			}
			start := time.Now()
			e.ok(ann, ch, "/move "+e.randomMove(ch, rng))
			waitFor(t, "the bot's move", func() bool { return e.humanToMove(ch) })
			late = append(late, time.Since(start))
			time.Sleep(100 * time.Millisecond) // the person thinks: the workers are idle

		}
		return late
	}
	before := lateness("bot-alone")

	var both, analysing, bot atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
			b, a := e.svc.WorkerLoad()
			if a > 0 && b > 0 {
				both.Add(1)
			}
			if a > 0 {
				analysing.Add(1)
			}
			if b > 0 {
				bot.Add(1)
			}
		}
	})
	if r := e.ok(ann, "long", "/analyse"); !strings.Contains(r.Text, "position 1 in line") {
		t.Fatalf("/analyse: %q", r.Text)
	}
	during := lateness("bot-with-analysis")
	close(stop)
	wg.Wait()
	waitFor(t, "the analysis posted", func() bool { return len(e.analysisPosts("long")) == 1 })

	stats := func(d []time.Duration) string {
		var sum, most time.Duration
		for _, x := range d {
			sum += x
			most = max(most, x)
		}
		return fmt.Sprintf("mean %v, max %v over %d turns", (sum / time.Duration(max(1, len(d)))).Round(time.Millisecond), most.Round(time.Millisecond), len(d))
	}
	fmt.Printf("bot's answer at 60ms a move (2 workers): alone %s; with an analysis queued %s\n", stats(before), stats(during))
	fmt.Printf("worker samples: %d with a bot turn, %d searching for the analysis, %d both\n", bot.Load(), analysing.Load(), both.Load())
	if both.Load() != 0 {
		t.Errorf("an analysis search ran while a worker had a bot turn, in %d samples", both.Load())
	}
	if analysing.Load() == 0 || bot.Load() == 0 {
		t.Errorf("the samples saw %d bot turns and %d analysis searches: the test did not overlap them", bot.Load(), analysing.Load())
	}
}

// TestAnalyseWaitsForTheTournamentRound: a tournament game is analysed
// only once its round is over, so that no one gets help during play.
func TestAnalyseWaitsForTheTournamentRound(t *testing.T) {
	e := newEnvWith(t, true, func(c *commands.Config) { c.AnalysisLimits = engine.Limits{Depth: 1} })
	const T = "tourney-analyse"
	dan, chans := e.fourPlayerTournament(T, "game:sixes time:1h")
	if len(chans) != 2 {
		t.Fatalf("round 1 games %v", chans)
	}
	e.ok(e.seatUser(chans[0], -1, dan), chans[0], "/resign")
	first := e.archived(chans[0]).ID
	e.refused(ann, chans[0], "/analyse", "round is still being played")
	e.refused(ann, T, "/analyse game:"+first, "round is still being played")
	e.ok(e.seatUser(chans[1], -1, dan), chans[1], "/resign")
	if r := e.ok(ann, chans[0], "/analyse game:"+first); !strings.Contains(r.Text, "position 1 in line") {
		t.Errorf("after the round: %q", r.Text)
	}
}

// TestAnalyseQueueShares: one person may have two analyses in line, one
// server half the queue; another server is still served when one
// server has its share.
func TestAnalyseQueueShares(t *testing.T) {
	e := newEnvWith(t, true, func(c *commands.Config) { c.AnalysisLimits = engine.Limits{MoveTime: time.Hour} })
	rng := rand.New(rand.NewPCG(4, 27))
	for i := range 5 {
		e.playStudents(t, fmt.Sprintf("s%d", i), "sixes", 2, rng)
	}
	dan, eve := commands.User{ID: "400", Name: "dan"}, commands.User{ID: "500", Name: "eve"}
	e.ok(ann, "s0", "/analyse")
	e.ok(ann, "s1", "/analyse")
	e.refused(ann, "s2", "/analyse", "you have 2 analyses in line, the most one person may")
	e.ok(bob, "s2", "/analyse")
	e.ok(dan, "s3", "/analyse")
	e.refused(eve, "s4", "/analyse", "this server has 4 analyses in line, its share of the queue")

	// Another server's game, asked for by a person of that server.
	e.doIn("guild2", ann, "o1", "/play game:sixes opponent:@bob")
	e.doIn("guild2", bob, "o1", "/accept")
	if r := e.doIn("guild2", ann, "o1", "/resign"); r.Private {
		t.Fatalf("resign in guild2: %q", r.Text)
	}
	waitFor(t, "o1 archived", func() bool { return e.going("o1") == nil })
	if r := e.doIn("guild2", eve, "o1", "/analyse"); r.Private || !strings.Contains(r.Text, "position 5 in line") {
		t.Errorf("another server's /analyse with one server at its share: %q", r.Text)
	}
}
