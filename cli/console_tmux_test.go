package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// tmuxConsole is `arbiter console` in a real terminal: a tmux session on
// its own server socket, driven by keystrokes as a person types them and
// read from the screen as a person sees it.
type tmuxConsole struct {
	t    *testing.T
	sock string
	name string
}

// startTmuxConsole starts the console in a detached tmux session. When the
// console exits the pane says "EXITED <status>" and stays open.
func startTmuxConsole(t *testing.T, bin, dir, name string, env ...string) *tmuxConsole {
	t.Helper()
	// A socket's path must be short (about 100 bytes): not under TMPDIR's
	// test directories, which can be long.
	sockDir, err := os.MkdirTemp("/tmp", "arbiter-tmux-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(sockDir) })
	c := &tmuxConsole{t: t, sock: filepath.Join(sockDir, "sock"), name: name}
	shell := fmt.Sprintf("cd %q && env %s %q console --user alice; echo EXITED $?; sleep 600", dir, strings.Join(env, " "), bin)
	c.tmux("new-session", "-d", "-s", name, "-x", "150", "-y", "60", shell)
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", c.sock, "kill-server").Run() })
	return c
}

func (c *tmuxConsole) tmux(args ...string) string {
	c.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", c.sock}, args...)...).CombinedOutput()
	if err != nil {
		c.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// typeLine types text and Enter.
func (c *tmuxConsole) typeLine(text string) {
	c.t.Helper()
	c.tmux("send-keys", "-t", c.name, "-l", text)
	c.tmux("send-keys", "-t", c.name, "Enter")
}

// interrupt presses Ctrl-C.
func (c *tmuxConsole) interrupt() {
	c.t.Helper()
	c.tmux("send-keys", "-t", c.name, "C-c")
}

// screen is the pane's text with its whole history, trailing blank lines
// left out.
func (c *tmuxConsole) screen() string {
	c.t.Helper()
	return strings.TrimRight(c.tmux("capture-pane", "-p", "-J", "-t", c.name, "-S", "-"), "\n ")
}

// waitFor waits until the screen satisfies ok, failing with the screen
// after hangBound.
func (c *tmuxConsole) waitFor(what string, ok func(string) bool) string {
	c.t.Helper()
	var s string
	for end := time.Now().Add(hangBound); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if s = c.screen(); ok(s) {
			return s
		}
	}
	c.t.Fatalf("timed out waiting for %s; the screen:\n%s", what, s)
	return ""
}

// after returns the part of s after the last occurrence of marker.
func after(s, marker string) string {
	if i := strings.LastIndex(s, marker); i >= 0 {
		return s[i+len(marker):]
	}
	return ""
}

var firstLegalMove = regexp.MustCompile(`legal moves for X \(alice\):\n([a-f][1-6] [a-f][1-6])`)

// TestConsoleInTmux plays in the console as a person does, in a real
// terminal (tmux): a bare move and a command typed ahead while the bot
// thinks come out in order; Ctrl-C while the bot thinks stops the wait and
// shows the prompt, the bot's move shows when it comes with a prompt under
// it; a second Ctrl-C leaves with the game saved; the next start, with the
// bot to move, shows the board, then the bot's move, then a prompt.
func TestConsoleInTmux(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is not installed; .ci/run installs it")
		}
		t.Skip("tmux is not installed")
	}
	bin := buildArbiter(t)
	dir := t.TempDir()
	env := []string{"DISCORD_TOKEN=", "REDIS_URL=", "DATA_DIR=" + filepath.Join(dir, "data"), "BOT_MOVE_TIME=3s", "ENGINE_WORKERS=1", "TERM=dumb", "NO_COLOR=1"}
	c := startTmuxConsole(t, bin, dir, "first", env...)
	c.waitFor("the greeting and prompt", func(s string) bool {
		return strings.Contains(s, "Arbiter console: you are alice.") && strings.HasSuffix(s, "alice>")
	})

	// A bare move, and a command typed ahead while the bot thinks.
	c.typeLine("/play game:sixes level:5")
	c.waitFor("the game", func(s string) bool {
		return strings.HasSuffix(s, "alice>") && strings.Contains(s, "Sixes: X (alice) against O (Arbiter, level 5)")
	})
	c.typeLine("a1 c1")
	c.typeLine("/moves")
	s := c.waitFor("the typed-ahead /moves answered", func(s string) bool { return strings.Contains(s, "legal moves for X (alice)") })
	played, plays, moves := strings.Index(s, "X (alice) played a1 c1."), strings.Index(s, "O (Arbiter, level 5) plays"), strings.Index(s, "legal moves for X (alice)")
	if played < 0 || plays < played || moves < plays {
		t.Fatalf("out of order: my move at %d, the bot's at %d, the typed-ahead answer at %d:\n%s", played, plays, moves, s)
	}
	if !strings.Contains(s[plays:], "alice> /moves\n") {
		t.Errorf("the typed-ahead command is not shown at its prompt:\n%s", s)
	}
	m := firstLegalMove.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no legal move listed:\n%s", s)
	}

	// Ctrl-C while the bot thinks: the wait stops, a prompt comes back, and
	// the bot's move shows later with a prompt under it.
	c.waitFor("a prompt", func(s string) bool { return strings.HasSuffix(s, "alice>") })
	c.typeLine(m[1])
	c.waitFor("my second move", func(s string) bool { return strings.Contains(s, "X (alice) played "+m[1]) })
	c.interrupt()
	s = c.waitFor("the wait stopped", func(s string) bool {
		return strings.Contains(s, "(Stopped waiting") && strings.HasSuffix(s, "alice>")
	})
	if strings.Count(after(s, "X (alice) played "+m[1]), "O (Arbiter, level 5) plays") != 0 {
		t.Fatalf("the bot answered before Ctrl-C could stop the wait (BOT_MOVE_TIME too short?):\n%s", s)
	}
	s = c.waitFor("the bot's later move, with a prompt under it", func(s string) bool {
		rest := after(s, "(Stopped waiting")
		return strings.Contains(rest, "O (Arbiter, level 5) plays") && strings.HasSuffix(s, "alice>")
	})
	if strings.Contains(s, "context canceled") {
		t.Fatalf("a canceled context reached the user:\n%s", s)
	}

	// A third move, then Ctrl-C twice while the bot thinks: the console
	// leaves, the game saved with the bot to move.
	c.typeLine("/moves")
	s = c.waitFor("the moves", func(s string) bool {
		return strings.Count(s, "legal moves for X (alice)") == 2 && strings.HasSuffix(s, "alice>")
	})
	all := firstLegalMove.FindAllStringSubmatch(s, -1)
	third := all[len(all)-1][1]
	c.typeLine(third)
	c.waitFor("my third move", func(s string) bool { return strings.Contains(s, "X (alice) played "+third) })
	c.interrupt()
	c.waitFor("the first Ctrl-C", func(s string) bool { return strings.Contains(after(s, "played "+third), "(Stopped waiting") })
	c.interrupt()
	s = c.waitFor("the console to leave", func(s string) bool { return strings.Contains(s, "EXITED") })
	if !strings.Contains(s, "Your game is saved") || !strings.Contains(s, "EXITED 0") {
		t.Fatalf("the console did not leave cleanly with the game saved:\n%s", s)
	}
	if strings.Contains(after(s, "played "+third), "O (Arbiter, level 5) plays") {
		t.Fatalf("the bot moved before the console left (BOT_MOVE_TIME too short?):\n%s", s)
	}

	// The next start, with the bot to move: the board, the bot's move, a
	// prompt.
	c2 := startTmuxConsole(t, bin, dir, "second", env...)
	s = c2.waitFor("the bot's move after the restart, with a prompt", func(s string) bool {
		return strings.Contains(s, "O (Arbiter, level 5) plays") && strings.HasSuffix(s, "alice>")
	})
	goesOn, plays := strings.Index(s, "Your game goes on where you left it:"), strings.Index(s, "O (Arbiter, level 5) plays")
	if goesOn < 0 || plays < goesOn {
		t.Fatalf("after the restart: the board at %d, the bot's move at %d:\n%s", goesOn, plays, s)
	}
	if !strings.Contains(s[goesOn:plays], "Last: X "+third) {
		t.Fatalf("the restart's board is not the saved game:\n%s", s)
	}
}

// TestConsoleProgramGameWithoutBridge starts a game for the typist's
// program with no bridge connected, in a real terminal (tmux): the console
// says no program is connected and how to connect one, the prompt answers
// other commands at once, and after a restart it still does; the starter
// resigns the waiting game.
func TestConsoleProgramGameWithoutBridge(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is not installed; .ci/run installs it")
		}
		t.Skip("tmux is not installed")
	}
	bin := buildArbiter(t)
	dir := t.TempDir()
	env := []string{"DISCORD_TOKEN=", "REDIS_URL=", "API_ADDR=", "DATA_DIR=" + filepath.Join(dir, "data"), "ENGINE_WORKERS=1", "TERM=dumb", "NO_COLOR=1"}
	c := startTmuxConsole(t, bin, dir, "program", env...)
	c.waitFor("the greeting and prompt", func(s string) bool { return strings.HasSuffix(s, "alice>") })

	c.typeLine("/play game:sixes program:true")
	s := c.waitFor("the note that no program is connected, and a prompt", func(s string) bool {
		return strings.Contains(s, "No program is connected to play alice (program)") && strings.HasSuffix(s, "alice>")
	})
	for _, want := range []string{"API_ADDR=localhost:8080", "/token new", "arbiter bridge --server", "/resign"} {
		if !strings.Contains(after(s, "No program is connected"), want) {
			t.Errorf("the note does not say %q:\n%s", want, s)
		}
	}
	// The prompt answers while the game waits for the program.
	c.typeLine("/rules")
	c.waitFor("/rules answered", func(s string) bool { return strings.Contains(after(s, "alice> /rules"), "\nalice>") })
	c.typeLine("/quit")
	c.waitFor("the console to leave", func(s string) bool { return strings.Contains(s, "EXITED 0") })

	// After a restart the game still waits for the program, and the prompt
	// answers; the starter resigns it.
	c2 := startTmuxConsole(t, bin, dir, "restarted", env...)
	c2.waitFor("the saved game, the note and a prompt", func(s string) bool {
		return strings.Contains(s, "Your game goes on") && strings.Contains(s, "No program is connected") && strings.HasSuffix(s, "alice>")
	})
	c2.typeLine("/resign")
	s = c2.waitFor("the answer to /resign", func(s string) bool { return strings.Contains(after(s, "alice> /resign"), "\nalice>") })
	if !strings.Contains(after(s, "alice> /resign"), "resigns.") {
		t.Fatalf("the starter could not resign the program's game:\n%s", s)
	}
}
