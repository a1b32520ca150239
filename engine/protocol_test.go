package engine

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"arbiter/internal/testkit"
	"arbiter/rules"
	"arbiter/rules/games"
)

// TestMain lets the test binary stand in for outside programs: with
// ARBITER_TEST_PROGRAM set it plays one game over the engine protocol, well
// or in one of the ways a program goes wrong.
func TestMain(m *testing.M) {
	if mode := os.Getenv("ARBITER_TEST_PROGRAM"); mode != "" {
		os.Exit(testProgram(mode))
	}
	os.Exit(m.Run())
}

// testProgram is a program of the engine protocol: "serve" plays well (level
// 1), "slow" plays legal moves too late, and the others break on "go":
// "crash" exits with status 3, "hang" sleeps, "garbage" prints nonsense,
// "illegal" answers a move that is not legal, "quit" exits cleanly,
// "flood" prints one enormous line, and "escape" crashes like "crash" after
// starting a child outside its process group that holds its output open
// (the child's pid goes to the file ARBITER_TEST_PIDFILE names).
func testProgram(mode string) int {
	ctx := context.Background()
	switch mode {
	case "serve":
		if err := Serve(ctx, os.Stdin, os.Stdout, os.Stderr, games.Registry(), "", NewArbiter(games.Registry(), 1, 1, nil)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "slow":
		p := &slowPlayer{Player: mustPlayer("random")}
		if err := Serve(ctx, os.Stdin, os.Stdout, os.Stderr, games.Registry(), "", p); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	}
	if mode == "escape" {
		// A child that leaves the process group keeps the program's output
		// open after the program dies and after the host kills the group.
		child := exec.Command("setsid", "sleep", "600")
		child.Stdout, child.Stderr = os.Stdout, os.Stderr
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		_ = os.WriteFile(os.Getenv("ARBITER_TEST_PIDFILE"), []byte(strconv.Itoa(child.Process.Pid)), 0o600)
		mode = "crash"
	}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		switch strings.TrimSpace(sc.Text()) {
		case "isready":
			fmt.Println("ready")
		case "go":
			switch mode {
			case "crash":
				fmt.Fprintln(os.Stderr, "panic: boom")
				return 3
			case "hang":
				time.Sleep(time.Hour)
			case "garbage":
				fmt.Println("hello, I am thinking")
			case "illegal":
				fmt.Println("move nonsense")
			case "quit":
				os.Stdout.Close()
				return 0
			case "flood":
				fmt.Println(strings.Repeat("x", 10000))
			}
		}
	}
	return 0
}

func mustPlayer(spec string) Player {
	p, err := NewPlayer(spec, PlayerOptions{Registry: games.Registry(), Seed: 1})
	if err != nil {
		panic(err)
	}
	return p
}

// slowPlayer plays its player's moves half a second late.
type slowPlayer struct{ Player }

func (p *slowPlayer) Choose(ctx context.Context, g rules.Game, lim Limits) (rules.Move, Info, error) {
	time.Sleep(500 * time.Millisecond)
	return p.Player.Choose(ctx, g, lim)
}

// testProgramCommand returns the exec: command that runs this test binary
// as a program in mode.
func testProgramCommand(t *testing.T, mode string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("ARBITER_TEST_PROGRAM=%s exec '%s'", mode, self)
}

func TestProgramsThatBreakLoseWithTheReason(t *testing.T) {
	// A program that breaks otherwise than by its time has a move time only
	// a hang reaches: however slowly a busy machine starts it, it loses for
	// what it did, not on time.
	tests := []struct {
		mode, reason string
		moveTime     time.Duration
	}{
		{"crash", `crashed (exit status 3): "panic: boom"`, hang},
		{"hang", "timed out: no move within 50ms", 50 * time.Millisecond},
		{"slow", "timed out: no move within 50ms", 50 * time.Millisecond},
		{"garbage", `printed garbage: "hello, I am thinking"`, hang},
		{"illegal", `played an illegal move "nonsense"`, hang},
		{"quit", "exited before moving", hang},
		{"flood", "printed garbage", hang},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			var reasons []string
			res, err := RunMatch(context.Background(), MatchConfig{
				Registry: games.Registry(), Game: "sixes", P1: "exec:" + testProgramCommand(t, tt.mode), P2: "random",
				Games: 2, MoveTime: tt.moveTime, Seed: 1,
			}, func(r GameRecord) { reasons = append(reasons, r.Reason) })
			if err != nil {
				t.Fatal(err)
			}
			if res.Losses != 2 {
				t.Errorf("%s: %d losses of 2 (%v)", tt.mode, res.Losses, reasons)
			}
			for _, r := range reasons {
				if !strings.Contains(r, tt.reason) {
					t.Errorf("%s: reason %q, want it to say %q", tt.mode, r, tt.reason)
				}
			}
		})
	}
}

// TestGraceForgivesALateProgram: MatchConfig.Grace (match's --grace) is
// the time a program may take beyond its move time: the slow program, half
// a second late each move, loses on time by default (above) and plays its
// games out with a grace of 2 s.
func TestGraceForgivesALateProgram(t *testing.T) {
	var reasons []string
	res, err := RunMatch(context.Background(), MatchConfig{
		Registry: games.Registry(), Game: "sixes", P1: "exec:" + testProgramCommand(t, "slow"), P2: "random",
		Games: 1, MoveTime: 50 * time.Millisecond, Seed: 1, Grace: 2 * time.Second,
		Options: rules.Options{"turns": "4"},
	}, func(r GameRecord) { reasons = append(reasons, r.Reason) })
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range reasons {
		if strings.Contains(r, "timed out") {
			t.Errorf("with a grace of 2 s the slow program lost: %q", r)
		}
	}
	if res.Games != 1 {
		t.Errorf("%d games, want 1", res.Games)
	}
}

// TestHostOutlastsAnEscapedChild: a program whose child left its process
// group (and so survives the kill) and holds its output open still loses at
// once, and the host does not wait for that child.
func TestHostOutlastsAnEscapedChild(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid here")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	t.Cleanup(func() {
		if b, err := os.ReadFile(pidFile); err == nil {
			if pid, err := strconv.Atoi(string(b)); err == nil {
				if proc, err := os.FindProcess(pid); err == nil {
					_ = proc.Kill()
					_, _ = proc.Wait()
				}
			}
		}
	})
	var reasons []string
	start := time.Now()
	res, err := RunMatch(context.Background(), MatchConfig{
		Registry: games.Registry(), Game: "sixes",
		P1:    fmt.Sprintf("exec:ARBITER_TEST_PIDFILE='%s' %s", pidFile, testProgramCommand(t, "escape")),
		P2:    "random",
		Games: 1, MoveTime: 50 * time.Millisecond, Seed: 1,
	}, func(r GameRecord) { reasons = append(reasons, r.Reason) })
	if err != nil {
		t.Fatal(err)
	}
	if res.Losses != 1 {
		t.Errorf("%d losses of 1 (%v)", res.Losses, reasons)
	}
	// The child sleeps ten minutes; the host gives up on it after about
	// 2 s, so only a host that waits for it reaches the hang bound.
	if el := time.Since(start); el > hang {
		t.Errorf("the match took %v: the host waited for the escaped child", el)
	}
}

func TestProtocolRoundTripInProcessProgram(t *testing.T) {
	for _, game := range games.Registry().Names() {
		var reasons []string
		res, err := RunMatch(context.Background(), MatchConfig{
			Registry: games.Registry(), Game: game, P1: "exec:" + testProgramCommand(t, "serve"), P2: "random",
			Games: 2, MoveTime: 30 * time.Millisecond, Seed: 2,
			// The round trip is tested here, not the timing
			// (TestGraceForgivesALateProgram): a loaded machine may
			// leave the program unscheduled beyond 100 ms.
			Grace: 5 * time.Second,
		}, func(r GameRecord) { reasons = append(reasons, r.Reason) })
		if err != nil {
			t.Fatal(err)
		}
		if res.Games != 2 {
			t.Fatalf("%s: %d games", game, res.Games)
		}
		for _, r := range reasons {
			if strings.Contains(r, "exec:") {
				t.Errorf("%s: the program forfeited: %s", game, r)
			}
		}
		t.Logf("%s: %+v %q", game, res, reasons)
	}
}

// TestProtocolRoundTripBinary builds arbiter and plays
// `arbiter match GAME --p1 exec:"arbiter engine GAME --level 4" --p2 random`.
// Level 4 is capped by positions visited and the move time is far above
// what the cap needs, so the games are the same on any machine: a
// time-bound level 5 may be left a ply or two on a loaded machine and lose
// to random.
func TestProtocolRoundTripBinary(t *testing.T) {
	bin := testkit.Build(t, "arbiter")
	for _, game := range games.Registry().Names() {
		cmd := exec.Command(bin, "match", game, "--p1", fmt.Sprintf("exec:%s engine %s --level 4", bin, game),
			"--p2", "random", "--games", "2", "--movetime", "5s", "--seed", "5", "--json",
			// The round trip is tested here, not the timing: a loaded
			// machine may leave the child unscheduled beyond 100 ms.
			"--grace", "5s")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", game, err, out)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		last := lines[len(lines)-1]
		want := fmt.Sprintf(`{"game":"%s","p1":"exec:%s engine %s --level 4","p2":"random","games":2,"wins":2,"draws":0,"losses":0,`, game, bin, game)
		if !strings.HasPrefix(last, want) {
			t.Errorf("%s: last line\n%s\nwant it to start\n%s\nwhole output:\n%s", game, last, want, out)
		}
	}
}
