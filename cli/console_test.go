package cli

import (
	"context"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"arbiter/internal/testkit"
	"arbiter/store/redistest"
)

// built is the arbiter binary the tests run, built once for the package's
// tests into a directory TestMain removes.
var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

// buildArbiter returns the binary, building it on first use.
func buildArbiter(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "arbiter-test-"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "arbiter")
		built.err = testkit.GoBuild(built.bin, "..")
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// TestMain runs the test binary as arbiter itself when
// ARBITER_TEST_AS_MAIN=1 (so tests can start it as a child process), else
// the tests, removing the binary they built.
func TestMain(m *testing.M) {
	if os.Getenv("ARBITER_TEST_AS_MAIN") == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		var code int
		if addr := os.Getenv(fakeDiscordEnv); addr != "" {
			code = mainAgainst(ctx, addr, os.Args[1:])
		} else {
			code = Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
		}
		stop()
		os.Exit(code)
	}
	code := m.Run()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// runConsoleBinary pipes script into `arbiter console` with env and returns the
// transcript.
func runConsoleBinary(t *testing.T, bin, script string, env ...string) string {
	t.Helper()
	cmd := exec.Command(bin, "console", "--user", "alice")
	cmd.Stdin = strings.NewReader(script)
	cmd.Env = append(os.Environ(), "DISCORD_TOKEN=", "REDIS_URL=", "BOT_MOVE_TIME=100ms", "ENGINE_WORKERS=1")
	cmd.Env = append(cmd.Env, env...)
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("console: %v\n%s", err, out)
	}
	return string(out)
}

// TestConsoleTranscript pipes a script of commands into the built binary,
// on the embedded store, and checks the transcript; a second run on the
// same data directory finds the game as it was left.
func TestConsoleTranscript(t *testing.T) {
	t.Parallel()
	bin := buildArbiter(t)
	data := t.TempDir()
	out := runConsoleBinary(t, bin, `
/play game:sixes level:1
/move a1 c1
/as bob
/move e5 e4
/as alice
/move zz
/moves from:c1
`, "DATA_DIR="+data)
	for _, want := range []string{
		"alice> /play game:sixes level:1",
		"Sixes: X (alice) against O (Arbiter, level 1)",
		"X (alice) played a1 c1.",
		"O (Arbiter, level 1) plays ",
		"You are now bob.",
		"you are not playing in this game; /board shows it",
		`cannot read "zz"`,
		"legal moves for X (alice)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("transcript lacks %q:\n%s", want, out)
		}
	}
	// The bot's move is printed before the next command is read.
	if strings.Index(out, "O (Arbiter, level 1) plays ") > strings.Index(out, "alice> /as bob") {
		t.Errorf("the bot's move came after the next command:\n%s", out)
	}
	again := runConsoleBinary(t, bin, "/board\n/resign\n/games\n", "DATA_DIR="+data)
	for _, want := range []string{"Last: O ", "X (alice) resigns.", "O (Arbiter, level 1) wins", "1 finished game;"} {
		if !strings.Contains(again, want) {
			t.Errorf("second run lacks %q:\n%s", want, again)
		}
	}
}

// TestConsoleOnRedis runs two people on one keyboard against a real Redis.
func TestConsoleOnRedis(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t, redistest.Options{TCP: true})
	bin := buildArbiter(t)
	out := runConsoleBinary(t, bin, `
/play game:hique opponent:bob
/as bob
/move 4 12 4 10
/accept
/move 4 12 4 10
/as alice
/move 4 2 4 10
/as bob
/move 6 12 6 4
`, "REDIS_URL="+srv.URL())
	for _, want := range []string{
		"alice challenges @bob to HiQUE",
		"@alice challenges you; /accept the challenge first",
		"bob accepts.",
		"it is @alice's turn, not yours",
		"Black (alice) played 4 2 4 10.",
		"White (bob) played 6 12 6 4.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("transcript lacks %q:\n%s", want, out)
		}
	}
}

// TestConsoleLimits: the console plays by the operator's limits
// (LIMIT_PERSON_GAMES), as the bot does.
func TestConsoleLimits(t *testing.T) {
	t.Parallel()
	bin := buildArbiter(t)
	script := "/channel a\n/play game:sixes level:1\n/channel b\n/play game:sixes level:1\n"
	for _, tt := range []struct {
		limit, want string
	}{
		{"1", "you already play 1 game at once"},
		{"2", "Sixes: X (alice) against O (Arbiter"},
	} {
		out := runConsoleBinary(t, bin, script, "DATA_DIR="+t.TempDir(), "LIMIT_PERSON_GAMES="+tt.limit)
		if i := strings.Index(out, "Channel: b"); i < 0 || !strings.Contains(out[i:], tt.want) {
			t.Errorf("LIMIT_PERSON_GAMES=%s: the second game's start does not say %q:\n%s", tt.limit, tt.want, out)
		}
	}
}
