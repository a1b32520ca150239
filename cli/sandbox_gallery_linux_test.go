//go:build linux

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"arbiter/internal/testkit"
	"arbiter/sandbox"
	"arbiter/store/redistest"

	"golang.org/x/sys/unix"
)

// hostile is a player of the gallery: its program, the command that runs
// it from the tournament's folder, and what must become of it: lose with
// a reason holding loses, or ("" ) play on while its attempt fails.
type hostile struct {
	name, file, command, loses string
	processes                  bool // needs the process limit to hold here
	whole                      bool // well-behaved: plays its game through within the limits of its box
	short                      bool // in the sample run under -short
}

var gallery = []hostile{
	{name: "env", file: "env.sh", command: "./env.sh", short: true},
	{name: "peek", file: "peek.sh", command: "./peek.sh", short: true},
	{name: "peekpy", file: "peek.py", command: "python3 peek.py"},
	{name: "redis", file: "redis.py", command: "python3 redis.py", short: true},
	{name: "forkbomb", file: "forkbomb.sh", command: "./forkbomb.sh", loses: "started more than 64 processes", processes: true, short: true},
	{name: "alloc", file: "alloc.c", command: "./alloc", loses: "used more than 256 MiB of memory", short: true},
	{name: "write", file: "write.c", command: "./write", loses: "wrote more than 64 MiB", short: true},
	{name: "daemon", file: "daemon.sh", command: "./daemon.sh", short: true},
	{name: "killparent", file: "killparent.sh", command: "./killparent.sh"},
	{name: "flood", file: "flood.py", command: "python3 flood.py", loses: "flooded its output"},
	{name: "sleep", file: "sleep.sh", command: "./sleep.sh", loses: "timed out"},
	// Well-behaved C and Java programs play in the box within its limits.
	{name: "c", file: "relay.c", command: "./relay", whole: true, short: true},
	{name: "java", file: "Relay.java", command: "java Relay", whole: true, short: true},
}

// TestSandboxGalleryOfHostilePrograms plays each hostile program of
// testdata/hostile in a real `arbiter tournament` (a gauntlet against the
// random player), with the instructor's secrets around it: a token in the
// environment, a .env in the home folder, a database in DATA_DIR, another
// player's source beside it and a key in a Redis on loopback. Each loses
// with its reason or plays on; no secret reaches the output folder; no
// process of theirs outlives the tournament.
func TestSandboxGalleryOfHostilePrograms(t *testing.T) {
	sb := sandbox.New(sandbox.Policy{})
	if err := sb.Probe(context.Background()); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	for _, tool := range []string{"cc", "python3", "redis-cli", "javac"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	root := t.TempDir()
	secrets := map[string]string{
		"the token in the environment": "token-in-the-environment-7d1e",
		"the .env in the home folder":  "token-in-the-env-file-93ab",
		"the database in DATA_DIR":     "record-in-the-database-51c0",
		"another player's source":      "source-of-another-player-c4f2",
		"the key in Redis":             "value-in-redis-0a9e",
	}
	home, data, other := filepath.Join(root, "home"), filepath.Join(root, "data"), filepath.Join(root, "players", "other")
	for path, text := range map[string]string{
		filepath.Join(home, ".env"):             "DISCORD_TOKEN=" + secrets["the .env in the home folder"] + "\n",
		filepath.Join(data, "arbiter.db"):       secrets["the database in DATA_DIR"],
		filepath.Join(other, "prog.py"):         "print('" + secrets["another player's source"] + "')\n",
		filepath.Join(root, "players", ".keep"): "",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("DISCORD_TOKEN", secrets["the token in the environment"])
	t.Setenv("HOME", home)
	t.Setenv("DATA_DIR", data)
	t.Setenv("SANDBOX", "")
	t.Setenv("SANDBOX_LIMITS", "")
	rd := redistest.Start(t, redistest.Options{TCP: true})
	if out, err := exec.Command("redis-cli", "-u", rd.URL(), "SET", "gallery-secret", secrets["the key in Redis"]).CombinedOutput(); err != nil {
		t.Fatalf("redis-cli: %v %s", err, out)
	}
	u, err := url.Parse(rd.URL())
	if err != nil {
		t.Fatal(err)
	}
	port := u.Port()

	t.Logf("set up, building the fake class program")
	fake := filepath.Join(root, "fakeclass")
	if err := testkit.GoBuild(fake, "../classprog/testdata/fakeclass"); err != nil {
		t.Fatal(err)
	}
	args := []string{"tournament", "sixes", "--format", "gauntlet", "--player", "ref=random", "--games", "1",
		"--movetime", "1s", "--concurrency", "4", "--seed", "7", "--no-gif", "--out", filepath.Join(root, "out")}
	var played []hostile
	for _, h := range gallery {
		if testing.Short() && !h.short {
			continue
		}
		if h.processes && !sb.BoundsProcesses() {
			t.Logf("%s left out: the process limit does not hold on this machine (root without a pids cgroup)", h.name)
			continue
		}
		dir := filepath.Join(root, "players", h.name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(fake, filepath.Join(dir, "fakeclass")); err != nil {
			t.Fatal(err)
		}
		src := filepath.Join("testdata", "hostile", h.file)
		if strings.HasSuffix(h.file, ".java") {
			b, err := os.ReadFile(filepath.Join("testdata", "hostile", h.file))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, h.file), b, 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command("javac", "-d", dir, filepath.Join(dir, h.file)).CombinedOutput(); err != nil {
				t.Fatalf("javac: %v\n%s", err, out)
			}
		} else if strings.HasSuffix(h.file, ".c") {
			bin := filepath.Join(dir, strings.TrimSuffix(h.file, ".c"))
			if out, err := exec.Command("cc", "-O1", "-o", bin, src).CombinedOutput(); err != nil {
				t.Fatalf("cc %s: %v\n%s", h.file, err, out)
			}
		} else {
			b, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, h.file), b, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		args = append(args, "--player", h.name+"=class:cd players/"+h.name+" && "+h.command)
		played = append(played, h)
	}
	for _, name := range []string{"peek", "peekpy"} {
		if slicesHas(played, name) {
			args = append(args, "--env", name+":DATA_DIR_GUESS="+data, "--env", name+":HOST_HOME="+home)
		}
	}
	if slicesHas(played, "alloc") {
		// Its own limit: a player's setting (at the default 1 GiB the
		// kernel takes tens of seconds on a busy machine to give up on it).
		args = append(args, "--limits", "alloc:memory=256MiB")
	}
	if slicesHas(played, "redis") {
		args = append(args, "--env", "redis:REDIS_PORT="+port)
	}

	t.Logf("the tournament starts")
	t.Chdir(root)
	freeBefore := freeDisk(t)
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), args, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr.String(), stdout.String())
	}

	// Each loses with its reason, or plays on.
	b, err := os.ReadFile(filepath.Join(root, "out", "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var results []struct{ First, Second, Result, Reason, Record string }
	if err := json.Unmarshal(b, &results); err != nil {
		t.Fatalf("results.json: %v", err)
	}
	for _, h := range played {
		var reason, result string
		found := false
		for _, r := range results {
			if r.First == h.name || r.Second == h.name {
				reason, result, found = r.Reason, r.Result, true
				lost := (r.First == h.name && r.Result == "p2") || (r.Second == h.name && r.Result == "p1")
				if h.loses != "" && (!lost || !strings.Contains(reason, h.loses)) {
					t.Errorf("%s: %s, %q; want a loss for %q", h.name, result, reason, h.loses)
				}
				if h.whole && strings.Contains(reason, "class:") {
					t.Errorf("%s did not play its game through: %q; its record ends:\n%s", h.name, reason, recordEnd(root, r.Record))
				}
				if h.loses == "" && strings.Contains(reason, "could not start") {
					t.Errorf("%s did not play: %q", h.name, reason)
				}
			}
		}
		if !found {
			t.Errorf("%s played no game", h.name)
		}
		t.Logf("%-10s %s: %s", h.name, result, reason)
	}
	if !strings.Contains(stdout.String(), "rank  player") {
		t.Errorf("no standings:\n%s", stdout.String())
	}

	// No secret, and nothing of other files, in the output folder or what
	// the command printed; the programs did speak (their environment shows).
	var all strings.Builder
	all.WriteString(stdout.String() + stderr.String())
	_ = filepath.WalkDir(filepath.Join(root, "out"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(path)
			all.Write(b)
		}
		return nil
	})
	for what, secret := range secrets {
		if strings.Contains(all.String(), secret) {
			t.Errorf("%s reached the output", what)
		}
	}
	if shadow, err := os.ReadFile("/etc/shadow"); err == nil {
		if first, _, _ := strings.Cut(string(shadow), "\n"); len(first) > 8 && strings.Contains(all.String(), first) {
			t.Error("/etc/shadow reached the output")
		}
	}
	if !regexp.MustCompile(`# = move [^\n]*: \S+ wall, \S+ processor`).MatchString(all.String()) {
		t.Error("the transcripts give no move's wall and processor time")
	}
	if !strings.Contains(all.String(), "HOME=/tmp") {
		t.Error("the env program's transcript is not in the output folder")
	}
	if !strings.Contains(all.String(), "cannot read") && slicesHas(played, "peekpy") {
		t.Error("the Python peek program's failed reads are not in its transcript")
	}

	// Nothing of theirs is alive; their boxes' cgroups and files are gone.
	files, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range files {
		cwd, _ := os.Readlink(p + "/cwd")
		cmdline, _ := os.ReadFile(p + "/cmdline")
		if strings.HasPrefix(cwd, root+"/players") || bytes.Contains(cmdline, []byte(root+"/players")) {
			t.Errorf("process %s (%q) outlived the tournament", filepath.Base(p), strings.ReplaceAll(string(cmdline), "\x00", " "))
		}
	}
	// The alloc player's reason comes from its box's memory cgroup: where
	// it lost by memory, the boxes had memory cgroups, and none is left.
	if left := boxCgroups(t); len(left) > 0 {
		t.Errorf("cgroups left behind: %v", left)
	}

	// The write player meant 10 GiB; its scratch folder is in memory and
	// capped, so the temp folder's disk lost nothing of it. The margin is
	// for other programs writing to the same disk meanwhile.
	const margin = 1 << 30
	if freeAfter := freeDisk(t); freeAfter < freeBefore-margin {
		t.Errorf("free disk of the temp folder fell from %s to %s", sandbox.Size(freeBefore), sandbox.Size(freeAfter))
	}
}

// freeDisk returns the bytes free to this process on the temp folder's
// file system.
func freeDisk(t *testing.T) int64 {
	t.Helper()
	var st unix.Statfs_t
	if err := unix.Statfs(os.TempDir(), &st); err != nil {
		t.Fatalf("statfs %s: %v", os.TempDir(), err)
	}
	return int64(st.Bavail) * st.Bsize
}

// boxCgroups returns the cgroups of boxes this process made that still
// exist, under this process's own cgroup of each version 1 controller.
func boxCgroups(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		for _, ctl := range strings.Split(parts[1], ",") {
			if ctl == "memory" || ctl == "pids" || ctl == "cpuacct" {
				m, _ := filepath.Glob(filepath.Join("/sys/fs/cgroup", ctl, parts[2], "arbiter-box-"+strconv.Itoa(os.Getpid())+"-*"))
				left = append(left, m...)
			}
		}
	}
	return left
}

func slicesHas(hs []hostile, name string) bool {
	for _, h := range hs {
		if h.name == name {
			return true
		}
	}
	return false
}

// recordEnd returns the last lines of a game's record in the tournament's
// output folder under root (its dialogue with the programs), for a
// failure's message.
func recordEnd(root, record string) string {
	b, err := os.ReadFile(filepath.Join(root, "out", record))
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-40):], "\n")
}
