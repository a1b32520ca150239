package cli

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/open"
	"arbiter/store/storetest"
)

// TestStoreForgetThroughRunningProcess: with the embedded store held by a
// running process, `arbiter store forget` has that process forget the
// person through the admin socket: the process's store then shows the
// former student, and the database file holds no byte of the person.
func TestStoreForgetThroughRunningProcess(t *testing.T) {
	bin := buildArbiter(t)
	data := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reg := games.Registry()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := open.Store(ctx, store.Config{DataDir: data, Registry: reg, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(context.Background())
	stop := serveAdmin(ctx, st, data, log)
	defer stop()

	const id, name = "733334445556667778", "Quentin Zarathustra"
	g := storetest.NewGame(t, reg, "hique", "7001", "7000")
	g.Players[0] = store.Player{Kind: store.Human, UserID: id, Name: name}
	if err := st.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	g.Status, g.Result, g.Reason = store.Finished, rules.P2Wins, name+" resigned"
	if err := st.Save(ctx, g); err != nil {
		t.Fatal(err)
	}
	if db, _ := os.ReadFile(filepath.Join(data, "arbiter.db")); !bytes.Contains(db, []byte(name)) {
		t.Fatal("the database does not hold the person before forget")
	}
	run := func(wantOK bool, user string) string {
		t.Helper()
		cmd := exec.Command(bin, "store", "forget", user)
		cmd.Env = append(os.Environ(), "DISCORD_TOKEN=", "REDIS_URL=", "DATA_DIR="+data)
		cmd.Dir = t.TempDir()
		out, err := cmd.CombinedOutput()
		if (err == nil) != wantOK {
			t.Fatalf("arbiter store forget %s: %v\n%s", user, err, out)
		}
		return string(out)
	}
	if out := run(true, id); !strings.Contains(out, "forgotten: 1 entries rewritten") {
		t.Fatalf("store forget: %s", out)
	}
	got, err := st.LoadArchived(ctx, "7000", g.ID)
	if err != nil || got.Players[0].Name != store.FormerName || got.Reason != store.FormerName+" resigned" {
		t.Fatalf("the running process's archive: %+v, %v", got, err)
	}
	for _, needle := range []string{id, name} {
		if db, _ := os.ReadFile(filepath.Join(data, "arbiter.db")); bytes.Contains(db, []byte(needle)) {
			t.Errorf("the database still holds %q", needle)
		}
	}
	if out := run(false, "ab"); !strings.Contains(out, "not a user id") {
		t.Errorf("a bad id through the socket: %s", out)
	}
}
