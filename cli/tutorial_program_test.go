//go:build unix

package cli

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"arbiter/api"
	"arbiter/commands"
	"arbiter/internal/testkit"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/open"
)

// TestTutorialFirstProgram follows docs/tutorials/first-program.md: its
// shell steps run in a real shell (sh, so on Unix) with the built arbiter as ./arbiter
// (the class's address and the token being a test API server's), and its
// Discord steps go to the game flow as the student's commands. The
// student's program, behind the bridge, plays a whole game against the
// bot.
func TestTutorialFirstProgram(t *testing.T) {
	const tutorial = "../docs/tutorials/first-program.md"
	blocks := codeBlocks(t, tutorial)
	bin := buildArbiter(t)
	dir := t.TempDir()
	if err := os.Symlink(bin, filepath.Join(dir, "arbiter")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ARBITER_TOKEN", "DISCORD_TOKEN", "REDIS_URL"} {
		t.Setenv(name, "")
		os.Unsetenv(name)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := open.Store(ctx, store.Config{DataDir: t.TempDir(), Registry: games.Registry(), Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(context.WithoutCancel(ctx))
	svc := commands.New(commands.Config{Workers: 1, BotMoveTime: 50 * time.Millisecond}, st, games.Registry(), discardNotifier{}, log, nil)
	workCtx, stopWork := context.WithCancel(ctx)
	defer stopWork()
	go svc.RunWorkers(workCtx)
	apiSrv := api.New(svc, api.Options{Log: log, Poll: 100 * time.Millisecond})
	hs := httptest.NewServer(apiSrv.Handler())
	defer hs.Close()
	defer hs.CloseClientConnections()

	you := commands.User{ID: "100", Name: "alice"}
	const guild, channel = "g1", "c1"
	specs := commands.CommandSet(games.Registry().Names())
	var token string
	var bridgeOut testkit.Buffer
	steps := 0
	for _, b := range blocks {
		switch b.lang {
		case "sh":
			for _, line := range b.lines {
				steps++
				line = strings.ReplaceAll(line, "https://arbiter.example.org", hs.URL)
				if strings.Contains(line, "arb_PASTE-YOUR-TOKEN") {
					if token == "" {
						t.Fatalf("%s: %q uses the token before /token new gave it", tutorial, line)
					}
					line = strings.ReplaceAll(line, "arb_PASTE-YOUR-TOKEN", token)
				}
				cmd := exec.CommandContext(ctx, "sh", "-c", line)
				cmd.Dir = dir
				cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
				if !strings.Contains(line, " bridge ") {
					out, err := cmd.CombinedOutput()
					if err != nil {
						t.Fatalf("%s: %q: %v\n%s", tutorial, line, err, out)
					}
					continue
				}
				cmd.Stdout, cmd.Stderr = &bridgeOut, &bridgeOut
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				defer func() {
					_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
					_ = cmd.Wait()
				}()
				deadline := time.Now().Add(hangBound)
				for !apiSrv.Online(guild, you.ID) {
					if time.Now().After(deadline) {
						t.Fatalf("%s: the bridge did not connect: %s", tutorial, bridgeOut.String())
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
		case "discord":
			for _, line := range b.lines {
				steps++
				inv, err := commands.ParseLine(line, specs)
				if err != nil {
					t.Fatalf("%q: %v", line, err)
				}
				inv.Guild, inv.Channel, inv.User = guild, channel, you
				r := svc.Handle(ctx, inv)
				if inv.Command == "token" {
					token = regexp.MustCompile(`arb_[A-Za-z0-9_-]+`).FindString(r.Text)
					if token == "" {
						t.Fatalf("%q gave no token: %q", line, r.Text)
					}
				} else if r.Private {
					t.Fatalf("%q was refused: %q", line, r.Text)
				}
			}
		default:
			t.Fatalf("%s: a code block of %q: this test follows sh and discord blocks only", tutorial, b.lang)
		}
	}
	if steps < 4 {
		t.Fatalf("%s: only %d steps followed", tutorial, steps)
	}
	var sums []store.Summary
	for deadline := time.Now().Add(hangBound); len(sums) == 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the program's game against the bot did not end: %s", bridgeOut.String())
		}
		if sums, _, err = st.Archived(ctx, guild, 0, 1); err != nil {
			t.Fatal(err)
		}
	}
	if sums[0].Players[0].Kind != store.Program && sums[0].Players[1].Kind != store.Program {
		t.Errorf("the game was not the program's: %+v", sums[0].Players)
	}
	if !strings.Contains(bridgeOut.String(), "connected to "+hs.URL+" as alice (program)") {
		t.Errorf("the bridge did not say whose program it plays as:\n%s", bridgeOut.String())
	}
	if token != "" && strings.Contains(bridgeOut.String(), token) {
		t.Error("the bridge printed its token")
	}
}
