package cli

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// needTool returns the path of a system tool the test needs: where CI runs
// (CI set) its absence fails the test, since CI installs it; elsewhere the
// test is skipped, saying why.
func needTool(t *testing.T, name, pkg string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed (Debian package %s; .ci/run installs it)", name, pkg)
		}
		t.Skipf("%s is not installed (Debian package %s): skipped outside CI", name, pkg)
	}
	return path
}

// staticArbiter builds arbiter as the container image takes it: static,
// CGO_ENABLED=0, into dir.
func staticArbiter(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "arbiter")
	cmd := exec.Command("go", "build", "-trimpath", "-o", bin, "..")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// The CA roots and the time zones are inside it (nothing in a FROM
	// scratch image provides them).
	out, err := exec.Command("go", "version", "-m", bin).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "golang.org/x/crypto/x509roots/fallback") || !strings.Contains(string(out), "CGO_ENABLED=0") {
		t.Fatalf("the binary lacks the fallback CA roots or is not static: %v\n%s", err, out)
	}
	return bin
}

// podman runs podman with runc and the settings it needs in a container
// without systemd or ulimits of its own, whatever /etc/containers holds.
type podman struct {
	t          *testing.T
	path, conf string
}

// newPodman is podman for t: skipped outside CI without podman and runc
// (failed in CI).
func newPodman(t *testing.T) podman {
	t.Helper()
	path := needTool(t, "podman", "podman")
	needTool(t, "runc", "runc")
	conf := filepath.Join(t.TempDir(), "containers.conf")
	if err := os.WriteFile(conf, []byte("[containers]\ndefault_ulimits = []\n\n[engine]\ncgroup_manager = \"cgroupfs\"\nruntime = \"runc\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return podman{t: t, path: path, conf: conf}
}

// command is podman with args, not started.
func (p podman) command(args ...string) *exec.Cmd {
	cmd := exec.Command(p.path, append([]string{"--runtime", "runc"}, args...)...)
	cmd.Env = append(os.Environ(), "CONTAINERS_CONF="+p.conf)
	return cmd
}

// run runs podman with args and stdin, and returns its output; an error
// fails the test.
func (p podman) run(stdin string, args ...string) string {
	p.t.Helper()
	cmd := p.command(args...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.t.Fatalf("podman %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// cleanup removes what args name when the test ends, whatever it left.
func (p podman) cleanup(args ...string) {
	p.t.Cleanup(func() { _ = p.command(args...).Run() })
}

// buildImage builds deploy/Containerfile offline from the static binary
// into an image of its own, removed when the test ends; it returns the image's name and a random suffix to name the
// test's other things by.
func (p podman) buildImage() (image, suffix string) {
	t := p.t
	t.Helper()
	ctxDir := t.TempDir()
	staticArbiter(t, ctxDir)
	for _, f := range []string{"Containerfile", "data/.keep"} {
		data, err := os.ReadFile(filepath.Join("..", "deploy", f))
		if err != nil {
			t.Fatal(err)
		}
		_ = os.MkdirAll(filepath.Dir(filepath.Join(ctxDir, f)), 0o755)
		if err := os.WriteFile(filepath.Join(ctxDir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var id [4]byte
	_, _ = rand.Read(id[:])
	suffix = hex.EncodeToString(id[:])
	image = "localhost/arbiter-test:" + suffix
	p.run("", "build", "--network", "none", "-t", image, "-f", filepath.Join(ctxDir, "Containerfile"), ctxDir)
	p.cleanup("rmi", "-f", image)
	return image, suffix
}

// TestContainerImage: deploy/Containerfile builds offline with podman
// (runc) from the static binary, and the image's console answers /help.
func TestContainerImage(t *testing.T) {
	p := newPodman(t)
	image, suffix := p.buildImage()
	run := p.run
	if out := run("/help\n", "run", "--rm", "-i", "--network", "none", image, "console"); !strings.Contains(out, "Arbiter referees") || !strings.Contains(out, "/play game:") {
		t.Fatalf("/help in the container's console:\n%s", out)
	}
	if out := run("", "run", "--rm", "--network", "none", "-e", "TZ=Europe/Paris", image, "version"); !strings.Contains(out, "store layout") {
		t.Fatalf("version in the container:\n%s", out)
	}

	// Day two, as docs/how-to/deploy.md does it: store backup through
	// podman exec reads the store of the process running in the container
	// (here the console, which holds it as the bot does), and store restore
	// puts the copy back on the same volume once the container stopped.
	volume, name := "arbiter-test-"+suffix, "arbiter-test-"+suffix
	run("", "volume", "create", volume)
	p.cleanup("volume", "rm", "-f", volume)
	p.cleanup("rm", "-f", name) // before the volume
	console := p.command("run", "--rm", "-i", "--name", name, "--network", "none", "-v", volume+":/data", image, "console")
	stdin, err := console.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := console.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := console.Start(); err != nil {
		t.Fatal(err)
	}
	// The console answers /help once it has opened the store.
	if _, err := io.WriteString(stdin, "/help\n"); err != nil {
		t.Fatal(err)
	}
	var seen strings.Builder
	buf := make([]byte, 4096)
	for !strings.Contains(seen.String(), "Arbiter referees") {
		n, err := stdout.Read(buf)
		seen.Write(buf[:n])
		if err != nil {
			t.Fatalf("the console in the container ended before answering /help: %v\n%s", err, seen.String())
		}
	}
	if out := run("", "exec", name, "/arbiter", "store", "backup", "/data/copy.db"); !strings.Contains(out, "backed up") || !strings.Contains(out, "from the running process") {
		t.Errorf("store backup in the running container:\n%s", out)
	}
	stdin.Close()
	go io.Copy(io.Discard, stdout)
	if err := console.Wait(); err != nil {
		t.Fatalf("the console did not end with its input: %v", err)
	}
	if out := run("", "run", "--rm", "--network", "none", "-v", volume+":/data", image, "store", "restore", "/data/copy.db"); !strings.Contains(out, "restored /data/copy.db into /data/arbiter.db") {
		t.Errorf("store restore in a container on the volume:\n%s", out)
	}
}

// TestSystemdUnit: systemd-analyze verify finds nothing to say about
// deploy/arbiter.service (its ExecStart pointed at a built binary), and
// the unit keeps its hardening.
func TestSystemdUnit(t *testing.T) {
	analyze := needTool(t, "systemd-analyze", "systemd")
	unit, err := os.ReadFile("../deploy/arbiter.service")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"User=arbiter", "StateDirectory=arbiter", "Restart=on-failure", "NoNewPrivileges=yes",
		"ProtectSystem=strict", "ProtectHome=yes", "CapabilityBoundingSet=\n", "ExecStart=/usr/local/bin/arbiter bot"} {
		if !strings.Contains(string(unit), want) {
			t.Errorf("the unit lacks %q", want)
		}
	}
	dir := t.TempDir()
	bin := buildArbiter(t)
	path := filepath.Join(dir, "arbiter.service")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(string(unit), "/usr/local/bin/arbiter", bin)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(analyze, "verify", path).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "" {
		t.Fatalf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// TestComposeFile: the compose file runs Redis with its append-only file
// and says which setting an exam wants.
func TestComposeFile(t *testing.T) {
	data, err := os.ReadFile("../deploy/compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"--appendonly", "yes"`, `"--appendfsync", "always"`, "REDIS_URL: redis://redis:6379/0", "METRICS_ADDR"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("deploy/compose.yaml lacks %s", want)
		}
	}
}

// TestDataDirAgrees: the systemd unit's DATA_DIR is the store every
// command of the deployment pages runs against, and .env.example, which
// becomes the unit's EnvironmentFile (whose values win over the unit's
// Environment=, systemd.exec(5)), does not set it; the container image's
// DATA_DIR is its volume.
func TestDataDirAgrees(t *testing.T) {
	read := func(path string) string {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	unit := regexp.MustCompile(`(?m)^Environment=DATA_DIR=(\S+)$`).FindStringSubmatch(read("../deploy/arbiter.service"))
	if unit == nil {
		t.Fatal("deploy/arbiter.service sets no DATA_DIR")
	}
	if !strings.Contains(read("../deploy/arbiter.service"), "EnvironmentFile=-/etc/arbiter/arbiter.env") {
		t.Fatal("the unit no longer reads /etc/arbiter/arbiter.env")
	}
	if m := regexp.MustCompile(`(?m)^DATA_DIR=.*$`).FindString(read("../.env.example")); m != "" {
		t.Errorf(".env.example sets %s, which would win over the unit's DATA_DIR=%s", m, unit[1])
	}
	for _, page := range []string{"../docs/how-to/backup-restore.md", "../docs/how-to/deploy.md"} {
		for _, m := range regexp.MustCompile(`sudo -u arbiter env DATA_DIR=(\S+)`).FindAllStringSubmatch(read(page), -1) {
			if m[1] != unit[1] {
				t.Errorf("%s runs a command on DATA_DIR=%s, not the unit's %s", page, m[1], unit[1])
			}
		}
	}
	if !strings.Contains(read("../deploy/Containerfile"), "ENV DATA_DIR=/data") {
		t.Error("the image's DATA_DIR is not /data")
	}
	for _, m := range regexp.MustCompile(`podman (?:run|exec)[^\n]*`).FindAllString(read("../docs/how-to/deploy.md"), -1) {
		if strings.Contains(m, " -v ") && !strings.Contains(m, ":/data") {
			t.Errorf("deploy.md mounts no volume at /data: %s", m)
		}
	}
}
