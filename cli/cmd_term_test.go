package cli

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTermCloseAndForgetCommands runs the binary on the embedded store:
// a term is played in the console and closed into its archive (a second
// close of the name is refused); then `arbiter store forget` removes the
// player from the store and from the archive: neither the database file,
// a backup made after, a fresh export nor any file of the archive holds a
// byte of their id or name.
func TestTermCloseAndForgetCommands(t *testing.T) {
	bin := buildArbiter(t)
	data := t.TempDir()
	const name = "zeldaquinn"
	console := exec.Command(bin, "console", "--user", name)
	console.Stdin = strings.NewReader("/play game:sixes level:1\n/move a1 c1\n/resign\n/play game:hique level:1\n")
	console.Env = append(os.Environ(), "DISCORD_TOKEN=", "REDIS_URL=", "BOT_MOVE_TIME=100ms", "ENGINE_WORKERS=1", "DATA_DIR="+data)
	console.Dir = t.TempDir()
	if out, err := console.CombinedOutput(); err != nil || !strings.Contains(string(out), "resigns") {
		t.Fatalf("console: %v\n%s", err, out)
	}
	run := func(wantCode int, args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "DISCORD_TOKEN=", "REDIS_URL=", "DATA_DIR="+data)
		cmd.Dir = t.TempDir()
		out, err := cmd.CombinedOutput()
		code := 0
		if e, ok := err.(*exec.ExitError); ok {
			code = e.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != wantCode {
			t.Fatalf("arbiter %v: exit %d, want %d\n%s", args, code, wantCode, out)
		}
		return string(out)
	}
	archive := filepath.Join(data, "terms", "console-2026-autumn.zip")
	if out := run(0, "term", "close", "2026-autumn", "--guild", "console"); !strings.Contains(out, "1 finished games") || !strings.Contains(out, archive) {
		t.Fatalf("term close: %s", out)
	}
	if files := unzipAll(t, archive); !strings.Contains(files, name) {
		t.Fatalf("the archive does not name the player; the check below cannot fail:\n%s", files)
	}
	if out := run(2, "term", "close", "2026-autumn", "--guild", "console"); !strings.Contains(out, "closed already") {
		t.Fatalf("a second close: %s", out)
	}
	run(2, "term", "close", "../x", "--guild", "console")

	if db, _ := os.ReadFile(filepath.Join(data, "arbiter.db")); !bytes.Contains(db, []byte(name)) {
		t.Fatal("the database does not hold the player before forget")
	}
	if out := run(0, "store", "forget", "local:"+name); !strings.Contains(out, "forgotten") || !strings.Contains(out, "1 term archives rewritten") {
		t.Fatalf("store forget: %s", out)
	}
	backup := filepath.Join(t.TempDir(), "after.db")
	run(0, "store", "backup", backup)
	export := filepath.Join(t.TempDir(), "after.jsonl")
	run(0, "store", "export", export)
	for _, f := range []string{filepath.Join(data, "arbiter.db"), backup, export} {
		if b, _ := os.ReadFile(f); bytes.Contains(b, []byte(name)) {
			t.Errorf("%s still holds %q", filepath.Base(f), name)
		}
	}
	files := unzipAll(t, archive)
	if strings.Contains(files, name) {
		t.Errorf("the archive still holds %q:\n%s", name, files)
	}
	if !strings.Contains(files, "former student") {
		t.Errorf("the archive's games do not show the former student:\n%s", files)
	}
	if out := run(0, "store", "forget", "local:"+name); !strings.Contains(out, "nothing of that person") {
		t.Errorf("forget again: %s", out)
	}
	run(2, "store", "forget", "ab")
}

// unzipAll returns the contents of every file of a zip archive, one after
// another.
func unzipAll(t *testing.T, path string) string {
	t.Helper()
	z, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	var all strings.Builder
	for _, f := range z.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	return all.String()
}
