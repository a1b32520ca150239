//go:build linux

package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hangBound bounds a wait that only a hang reaches, however busy the
// machine.
const hangBound = 2 * time.Minute

// needBox skips where no box can be made, except in CI, which installs
// bubblewrap and must run these tests.
func needBox(t *testing.T) {
	t.Helper()
	if err := New(Policy{}).Probe(context.Background()); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
}

// runIn runs script (a /bin/sh script written into dir) in a box of sb and
// returns its output and the limit it hit.
func runIn(t *testing.T, sb *Sandbox, dir, script string) (string, Reason, *Box) {
	t.Helper()
	prog := filepath.Join(dir, "prog.sh")
	if err := os.WriteFile(prog, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh", "-c", prog)
	cmd.Dir = dir
	b, err := sb.Box(cmd, Spec{Words: []string{prog}})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	werr := cmd.Wait()
	r := b.Reason(werr)
	b.Close()
	return out.String(), r, b
}

func TestBoxEnvironmentIsTheAllowListAndNamedVariables(t *testing.T) {
	needBox(t)
	t.Setenv("ARBITER_TEST_TOKEN", "token-that-must-not-leak")
	t.Setenv("TZ", "Europe/Istanbul")
	sb := New(Policy{Env: []string{"OPENING_BOOK=book.txt"}})
	out, _, _ := runIn(t, sb, t.TempDir(), "env\n")
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		k, v, _ := strings.Cut(line, "=")
		got[k] = v
	}
	for k := range got {
		switch k {
		case "PATH", "LANG", "TZ", "HOME", "OPENING_BOOK", "PWD":
		default:
			t.Errorf("the box passes %s on:\n%s", k, out)
		}
	}
	if got["HOME"] != "/tmp" || got["TZ"] != "Europe/Istanbul" || got["OPENING_BOOK"] != "book.txt" || got["PATH"] == "" {
		t.Errorf("environment:\n%s", out)
	}
	if strings.Contains(out, "token-that-must-not-leak") {
		t.Errorf("the token reached the program:\n%s", out)
	}
}

func TestBoxShowsOnlyItsOwnFolderAndTheRuntimes(t *testing.T) {
	needBox(t)
	root := t.TempDir()
	own, other, data := filepath.Join(root, "own"), filepath.Join(root, "other"), filepath.Join(root, "own", "data")
	for _, d := range []string{own, other, data} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for path, text := range map[string]string{
		filepath.Join(own, "book.txt"):    "own-book",
		filepath.Join(other, "prog.py"):   "other-source",
		filepath.Join(data, "arbiter.db"): "data-secret",
		filepath.Join(own, ".env"):        "env-secret",
	} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hostTmp, err := os.CreateTemp("", "arbiter-host-file-")
	if err != nil {
		t.Fatal(err)
	}
	hostTmp.WriteString("host-tmp-secret")
	hostTmp.Close()
	defer os.Remove(hostTmp.Name())
	home, _ := os.UserHomeDir()

	sb := New(Policy{Hide: []string{data, filepath.Join(own, ".env")}})
	script := fmt.Sprintf(`cat book.txt; cat ../other/prog.py; cat %s/other/prog.py; cat data/arbiter.db; cat .env
cat /etc/shadow; cat %s; ls %s; echo written > book.txt; echo scratch > /tmp/x && cat /tmp/x; echo done
`, root, hostTmp.Name(), home)
	out, _, _ := runIn(t, sb, own, script)
	if !strings.Contains(out, "own-book") || !strings.Contains(out, "scratch") || !strings.Contains(out, "done") {
		t.Errorf("the program could not read its own folder or write its scratch folder:\n%s", out)
	}
	for _, secret := range []string{"other-source", "data-secret", "env-secret", "host-tmp-secret", "root:"} {
		if strings.Contains(out, secret) {
			t.Errorf("the program read %q:\n%s", secret, out)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(own, "book.txt")); string(b) != "own-book" {
		t.Errorf("the program changed its folder: %q", b)
	}
}

func TestBoxHasNoNetwork(t *testing.T) {
	needBox(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Close()
			accepted <- struct{}{}
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	out, _, _ := runIn(t, New(Policy{}), t.TempDir(), fmt.Sprintf(`python3 -c '
import socket
try:
    socket.create_connection(("127.0.0.1", %d), timeout=5)
    print("connected")
except OSError as e:
    print("refused", e)
'`, port))
	if !strings.Contains(out, "refused") || strings.Contains(out, "connected") {
		t.Errorf("connect from the box: %s", out)
	}
	select {
	case <-accepted:
		t.Error("the host's listener accepted a connection from the box")
	default:
	}
}

func TestBoxLimitsHaveReasons(t *testing.T) {
	needBox(t)
	small := Limits{Memory: 64 << 20, Processes: 8, FileSize: 1 << 20, CPUTime: time.Second, Scratch: 8 << 20}
	sb := New(Policy{Limits: small})
	memory := "head -c 100000000 /dev/zero | tr '\\0' 'a' | sort >/dev/null; echo survived\n"
	for _, c := range []struct {
		name, script string
		want         Reason
	}{
		{"processes", "for i in 1 2 3 4 5 6 7 8 9 10 11 12; do sleep 30 & done\n", "started more than 8 processes"},
		{"file size", "exec head -c 2000000 /dev/zero > /tmp/big\n", "wrote more than 1 MiB"},
		{"processor time", "while :; do :; done\n", "used more than 1s of processor time"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, r, _ := runIn(t, sb, t.TempDir(), c.script)
			if r != c.want {
				t.Errorf("reason %q, want %q; output:\n%s", r, c.want, out)
			}
		})
	}
	t.Run("memory", func(t *testing.T) {
		if New(Policy{}).Policy().Mode == On && !strings.Contains(New(Policy{}).enforcement(), "memory") {
			t.Skip("no memory cgroup here: memory is bounded per process, without a reason")
		}
		out, r, _ := runIn(t, sb, t.TempDir(), memory)
		if r != "used more than 64 MiB of memory" {
			t.Errorf("reason %q; output:\n%s", r, out)
		}
	})
}

func TestBoxBoundsOpenFiles(t *testing.T) {
	needBox(t)
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("python3 is not installed under /usr/bin")
	}
	sb := New(Policy{Limits: Limits{OpenFiles: 16}})
	dir := t.TempDir()
	script := "import os\nheld = []\ntry:\n    while len(held) < 64:\n        held.append(os.open('/dev/null', os.O_RDONLY))\nexcept OSError as e:\n    print('refused:', e.strerror)\nprint('opened', len(held))\n"
	if err := os.WriteFile(filepath.Join(dir, "open.py"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	out, r, _ := runIn(t, sb, dir, "exec python3 open.py\n")
	var opened int
	i := strings.LastIndex(out, "opened ")
	if i < 0 {
		t.Fatalf("output: %q", out)
	}
	if _, err := fmt.Sscanf(out[i:], "opened %d", &opened); err != nil {
		t.Fatalf("output: %q", out)
	}
	// Standard input, output and error are open already.
	if opened > 16-3 || !strings.Contains(out, "Too many open files") {
		t.Errorf("a program bounded to 16 open files opened %d more; output:\n%s", opened, out)
	}
	if r != "" {
		t.Errorf("reason %q; a refused open is no limit a program loses by", r)
	}
}

func TestBoxScratchIsCappedAndWipedAfterEachRun(t *testing.T) {
	needBox(t)
	sb := New(Policy{Limits: Limits{Scratch: 4 << 20, FileSize: 16 << 20}})
	dir := t.TempDir()
	out, r, _ := runIn(t, sb, dir, "ls /tmp; head -c 8000000 /dev/zero > /tmp/a || echo full; echo mark > /tmp/mark\n")
	if !strings.Contains(out, "full") || strings.Contains(out, "mark") || r != "" {
		t.Errorf("first run (%q):\n%s", r, out)
	}
	out, _, _ = runIn(t, sb, dir, "if [ -e /tmp/mark ] || [ -e /tmp/a ]; then echo kept; else echo gone; fi\n")
	if strings.TrimSpace(out) != "gone" {
		t.Errorf("the next run sees the last one's scratch: %q", out)
	}
}

func TestBoxLeavesNoProcessBehind(t *testing.T) {
	needBox(t)
	marker := fmt.Sprint(900000 + os.Getpid()%99999)
	cmd := exec.Command("/bin/sh", "-c", "setsid sleep "+marker+" & (sleep "+marker+" &) ; sleep "+marker)
	b, err := New(Policy{}).Box(cmd, Spec{})
	if err != nil {
		t.Fatal(err)
	}
	r, w, _ := os.Pipe()
	cmd.Stdout = w
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	defer r.Close()
	// The box has started when three sleeps run.
	for alive(marker) < 3 {
		time.Sleep(time.Millisecond)
	}
	b.Kill()
	_ = cmd.Wait()
	b.Close()
	if n := alive(marker); n > 0 {
		t.Errorf("%d processes of the box outlived it", n)
	}
}

// alive counts the host's processes whose command line holds marker.
func alive(marker string) int {
	n := 0
	files, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err == nil && strings.Contains(string(b), marker) && !strings.Contains(string(b), "/bin/sh") && !strings.Contains(string(b), "bwrap") {
			n++
		}
	}
	return n
}

func TestOffRunsUnconfinedAndWarnsAtEveryStart(t *testing.T) {
	var logged bytes.Buffer
	sb := New(Policy{Mode: Off, Log: slog.New(slog.NewTextHandler(&logged, nil))})
	t.Setenv("ARBITER_TEST_TOKEN", "visible")
	for range 2 {
		cmd := exec.Command("/bin/sh", "-c", "echo $ARBITER_TEST_TOKEN")
		b, err := sb.Box(cmd, Spec{})
		if err != nil {
			t.Fatal(err)
		}
		out, err := cmd.Output()
		b.Close()
		if err != nil || strings.TrimSpace(string(out)) != "visible" {
			t.Errorf("unconfined: %q %v", out, err)
		}
	}
	if n := strings.Count(logged.String(), "sandbox off"); n != 2 {
		t.Errorf("%d warnings for two starts:\n%s", n, logged.String())
	}
}

func TestWithoutBubblewrapProgramsAreRefusedWithTheFix(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	sb := New(Policy{})
	err := sb.Check()
	if err == nil {
		t.Fatal("no bwrap, yet programs may start")
	}
	for _, want := range []string{"bubblewrap", "apt install bubblewrap", "--sandbox off"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v: does not say %q", err, want)
		}
	}
	if _, err := sb.Box(exec.Command("/bin/true"), Spec{}); err == nil {
		t.Error("Box started a program without a box")
	}
	if !strings.HasPrefix(sb.Status(), "unavailable") {
		t.Errorf("status %q", sb.Status())
	}
	if err := New(Policy{Mode: Off}).Check(); err != nil {
		t.Errorf("off: %v", err)
	}
}

// BenchmarkStart measures what a box adds to starting a program: a run of
// /bin/true in a box and unconfined.
func BenchmarkStart(b *testing.B) {
	if err := New(Policy{}).Probe(context.Background()); err != nil {
		b.Skip(err)
	}
	for _, mode := range []Mode{On, Off} {
		sb := New(Policy{Mode: mode, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
		b.Run(string(mode), func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command("/bin/true")
				box, err := sb.Box(cmd, Spec{})
				if err != nil {
					b.Fatal(err)
				}
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
				box.Close()
			}
		})
	}
}

// TestBoxHoldsAllItsProcessesToOneCPUTime: three processes that each stay
// under the processor-time limit alone are over it together, and the box
// says so (the host asks after each move).
func TestBoxHoldsAllItsProcessesToOneCPUTime(t *testing.T) {
	needBox(t)
	sb := New(Policy{Limits: Limits{CPUTime: time.Second}})
	dir := t.TempDir()
	prog := filepath.Join(dir, "prog.sh")
	script := "for i in 1 2 3; do (while :; do :; done) & done; wait\n"
	if err := os.WriteFile(prog, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh", "-c", prog)
	b, err := sb.Box(cmd, Spec{Words: []string{prog}})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { b.Kill(); _ = cmd.Wait(); b.Close() }()
	if r := b.OverCPU(); r != "" {
		t.Fatalf("a box that has just started is over its processor time: %q", r)
	}
	// Each busy process would reach the limit alone only after a second of
	// its own; together they reach it after a third of that.
	for end := time.Now().Add(hangBound); b.OverCPU() == ""; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("three busy processes used %v together and the box is not over its 1s", b.CPU())
		}
	}
	if r := b.OverCPU(); r != "used more than 1s of processor time" {
		t.Errorf("reason %q", r)
	}
	off := New(Policy{Mode: Off, Log: slog.New(slog.DiscardHandler)})
	ub, err := off.Box(exec.Command("true"), Spec{})
	if err != nil {
		t.Fatal(err)
	}
	if r := ub.OverCPU(); r != "" {
		t.Errorf("an unconfined program has a processor-time reason %q", r)
	}
}
