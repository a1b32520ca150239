package cli

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
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

// TestContainerImage: deploy/Containerfile builds offline with podman
// (runc) from the static binary, and the image's console answers /help.
func TestContainerImage(t *testing.T) {
	podman := needTool(t, "podman", "podman")
	needTool(t, "runc", "runc")
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
	// The settings podman needs in a container without systemd or
	// ulimits of its own, whatever /etc/containers holds.
	conf := filepath.Join(t.TempDir(), "containers.conf")
	if err := os.WriteFile(conf, []byte("[containers]\ndefault_ulimits = []\n\n[engine]\ncgroup_manager = \"cgroupfs\"\nruntime = \"runc\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var id [4]byte
	_, _ = rand.Read(id[:])
	image := "localhost/arbiter-test:" + hex.EncodeToString(id[:])
	run := func(stdin string, args ...string) string {
		t.Helper()
		cmd := exec.Command(podman, append([]string{"--runtime", "runc"}, args...)...)
		cmd.Env = append(os.Environ(), "CONTAINERS_CONF="+conf)
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("podman %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run("", "build", "--network", "none", "-t", image, "-f", filepath.Join(ctxDir, "Containerfile"), ctxDir)
	t.Cleanup(func() {
		cmd := exec.Command(podman, "--runtime", "runc", "rmi", "-f", image)
		cmd.Env = append(os.Environ(), "CONTAINERS_CONF="+conf)
		_ = cmd.Run()
	})
	if out := run("/help\n", "run", "--rm", "-i", "--network", "none", image, "console"); !strings.Contains(out, "Arbiter referees") || !strings.Contains(out, "/play game:") {
		t.Fatalf("/help in the container's console:\n%s", out)
	}
	if out := run("", "run", "--rm", "--network", "none", "-e", "TZ=Europe/Paris", image, "version"); !strings.Contains(out, "store layout") {
		t.Fatalf("version in the container:\n%s", out)
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
