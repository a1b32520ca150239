package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/store/redistest"
)

// TestStoreExportImportCommand moves a console game from the embedded
// store to Redis with `arbiter store export` and `arbiter store import`,
// and plays on there; a second import into the same Redis is refused.
func TestStoreExportImportCommand(t *testing.T) {
	bin := buildArbiter(t)
	data := t.TempDir()
	runConsoleBinary(t, bin, "/play game:sixes level:1\n/move a1 c1\n", "DATA_DIR="+data)
	file := filepath.Join(t.TempDir(), "class.jsonl")
	run := func(wantOK bool, env []string, args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(append(os.Environ(), "DISCORD_TOKEN=", "REDIS_URL="), env...)
		cmd.Dir = t.TempDir()
		out, err := cmd.CombinedOutput()
		if (err == nil) != wantOK {
			t.Fatalf("arbiter %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	if out := run(true, []string{"DATA_DIR=" + data}, "store", "export", file); !strings.Contains(out, "exported ") {
		t.Fatalf("export: %s", out)
	}
	srv := redistest.Start(t, redistest.Options{TCP: true})
	redisEnv := []string{"REDIS_URL=" + srv.URL()}
	if out := run(true, redisEnv, "store", "import", file); !strings.Contains(out, "imported ") {
		t.Fatalf("import: %s", out)
	}
	if out := run(false, redisEnv, "store", "import", file); !strings.Contains(out, "not empty") {
		t.Fatalf("a second import: %s", out)
	}
	out := runConsoleBinary(t, bin, "/board\n", "REDIS_URL="+srv.URL())
	if !strings.Contains(out, "Last: O ") {
		t.Fatalf("the game on Redis after the import:\n%s", out)
	}
}
