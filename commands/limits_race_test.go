package commands_test

import (
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"

	"arbiter/commands"
)

// limitedProcesses is twoProcesses with both services holding limits.
func limitedProcesses(t *testing.T, backend string, limits commands.Limits) (a, b *env) {
	t.Helper()
	a, b = twoProcesses(t, backend)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg := commands.Config{RefereeRole: "referee", Limits: limits}
	a.svc = commands.New(cfg, a.st, a.reg, a.posts, log, a.clock.Now)
	b.svc = commands.New(cfg, b.st, b.reg, b.posts, log, b.clock.Now)
	return a, b
}

// all runs each line of do at once, half through each process, and
// returns how many were answered publicly (the game started or the
// challenge accepted).
func all(n int, do func(i int) commands.Reply) (accepted int, refusals []string) {
	var (
		mu    sync.Mutex
		wg    sync.WaitGroup
		start = make(chan struct{})
	)
	for i := range n {
		wg.Go(func() {
			<-start
			r := do(i)
			mu.Lock()
			defer mu.Unlock()
			if r.Private {
				refusals = append(refusals, r.Text)
			} else {
				accepted++
			}
		})
	}
	close(start)
	wg.Wait()
	return accepted, refusals
}

// Twelve /play level:5 sent at once by one person, through two processes
// sharing the store, start as many games as the limits allow and no more.
func TestLimitsHoldForPlaysSentAtOnce(t *testing.T) {
	for _, backend := range []string{"redis", "embedded"} {
		t.Run(backend, func(t *testing.T) {
			a, b := limitedProcesses(t, backend, commands.Limits{PersonGames: 2, PersonStrongBot: 1, PersonChallenges: 2})
			n, refusals := all(12, func(i int) commands.Reply {
				e := []*env{a, b}[i%2]
				return e.do(ann, fmt.Sprintf("race%d", i), "/play game:sixes level:5")
			})
			if n != 1 {
				t.Errorf("%d of 12 /play level:5 started with a limit of one at level 5; %d refused", n, len(refusals))
			}
			n, refusals = all(12, func(i int) commands.Reply {
				e := []*env{a, b}[i%2]
				return e.do(ann, fmt.Sprintf("more%d", i), "/play game:sixes level:3")
			})
			if n != 1 {
				t.Errorf("%d of 12 /play started beside one game with a limit of two games; %d refused", n, len(refusals))
			}
		})
	}
}

// /accept counts the games of the one who accepts: of six challenges
// waiting for one person, accepted at once through two processes, only as
// many as their limit of games start; the rest wait, still answerable.
func TestLimitsHoldForAccept(t *testing.T) {
	for _, backend := range []string{"redis", "embedded"} {
		t.Run(backend, func(t *testing.T) {
			a, b := limitedProcesses(t, backend, commands.Limits{PersonGames: 2, PersonStrongBot: 1, PersonChallenges: 2})
			for i := range 6 {
				challenger := commands.User{ID: fmt.Sprint(900 + i), Name: fmt.Sprintf("c%d", i)}
				a.ok(challenger, fmt.Sprintf("ch%d", i), "/play game:sixes opponent:"+bob.ID)
			}
			n, refusals := all(6, func(i int) commands.Reply {
				e := []*env{a, b}[i%2]
				return e.do(bob, fmt.Sprintf("ch%d", i), "/accept")
			})
			if n != 2 {
				t.Fatalf("%d of 6 challenges accepted with a limit of two games; refusals: %q", n, refusals)
			}
			waiting := 0
			for i := range 6 {
				if commands.FlowOf(a.game(fmt.Sprintf("ch%d", i))).Challenge {
					waiting++
				}
			}
			if waiting != 4 {
				t.Errorf("%d challenges still wait after the refusals, want 4", waiting)
			}
		})
	}
}
