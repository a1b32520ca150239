//go:build unix

package cli

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/open"
)

// The admin socket is its owner's alone whatever the umask: the socket is
// 0600, and a data directory others may enter is closed to them (0700)
// before the socket is made in it.
func TestAdminSocketIsPrivate(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	data := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(data, 0o777); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := open.Store(ctx, store.Config{DataDir: data, Registry: games.Registry(), Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(context.Background())
	stop := serveAdmin(ctx, st, data, log)
	defer stop()
	fi, err := os.Stat(filepath.Join(data, adminSocket))
	if err != nil {
		t.Fatalf("no admin socket: %v", err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("the admin socket has mode %#o, want 0600", perm)
	}
	di, err := os.Stat(data)
	if err != nil {
		t.Fatal(err)
	}
	if perm := di.Mode().Perm(); perm&0o077 != 0 {
		t.Errorf("DATA_DIR kept mode %#o: other users may reach the admin socket", perm)
	}
}

// doctor notes a data directory that other users may enter.
func TestDoctorNotesALooseDataDir(t *testing.T) {
	doctorEnv(t, nil)
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DATA_DIR", dir)
	_, out, _ := runArgs(t, "doctor")
	if !strings.Contains(out, "DATA_DIR: "+dir+" has mode 0755") {
		t.Errorf("doctor says nothing of a data directory other users may enter:\n%s", out)
	}
}
