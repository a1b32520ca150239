package storetest

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/store"
)

// other opens an empty store of another backend than e's.
func (e *env) other() store.Store {
	e.t.Helper()
	return e.b.Other(e.t, e.reg)
}

// exportOf exports s to a file and returns its path.
func exportOf(t *testing.T, s store.Store) string {
	t.Helper()
	var buf bytes.Buffer
	if _, err := store.Export(Context(t), s.(store.Porter), &buf, time.Now()); err != nil {
		t.Fatalf("export: %v", err)
	}
	path := filepath.Join(t.TempDir(), "export.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func importFile(ctx context.Context, s store.Store, e *env, path string) (int, error) {
	return store.Import(ctx, s.(store.Porter), e.reg, func() (io.ReadCloser, error) { return os.Open(path) })
}

// testExportImport: everything in one backend, exported and imported into
// the other, is there: games with their versions and deadlines, the
// archive, ratings, settings and queued bot turns; new games get ids after
// the imported ones. A store that is not empty is refused.
func testExportImport(t *testing.T, e *env) {
	ctx := Context(t)
	src := e.open()
	want := Fill(t, src, e.reg)
	if err := src.SetChannelSetting(ctx, ChName(1), "board", "emoji"); err != nil {
		t.Fatal(err)
	}
	if _, err := src.EnqueueBotTurn(ctx, want[ChName(1)]); err != nil {
		t.Fatal(err)
	}
	path := exportOf(t, src)

	dst := e.other()
	n, err := importFile(ctx, dst, e, path)
	if err != nil || n == 0 {
		t.Fatalf("import: %d items, %v", n, err)
	}
	CheckFilled(t, dst, e.reg, want)
	if v, err := dst.ChannelSetting(ctx, ChName(1), "board"); v != "emoji" || err != nil {
		t.Fatalf("setting after the import: %q %v", v, err)
	}
	job, err := dst.ClaimBotTurn(ctx, "w", 0)
	if err != nil || job.Channel != ChName(1) || job.Version != want[ChName(1)].Version {
		t.Fatalf("bot turn after the import: %+v %v", job, err)
	}
	if _, err := dst.LoadForJob(ctx, job); err != nil {
		t.Fatalf("the imported bot turn is not current: %v", err)
	}
	if ok, _ := dst.UpdateRatings(ctx, "3", "hique", want["archive:1"].ID, []string{"a"}, nil); ok {
		t.Fatal("a result rated before the export was rated again")
	}
	g := NewGame(t, e.reg, "sixes", "777", "3")
	if err := dst.Create(ctx, g); err != nil || g.ID <= "4" && len(g.ID) == 1 {
		t.Fatalf("a new game after the import: id %q, %v; want one after the imported ids", g.ID, err)
	}
	_, err = importFile(ctx, dst, e, path)
	if err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("import into a store that is not empty: %v", err)
	}
}

// testImportRefuses: a file of another version, with a broken record, cut
// short or not an export at all is refused with the line named, and
// nothing is written.
func testImportRefuses(t *testing.T, e *env) {
	ctx := Context(t)
	src := e.open()
	Fill(t, src, e.reg)
	data, err := os.ReadFile(exportOf(t, src))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	broken := append([]string(nil), lines...)
	for i, l := range broken {
		if strings.Contains(l, `"type":"archived"`) {
			broken[i] = strings.Replace(l, `"state":"`, `"state":"QUJD`, 1)
			break
		}
	}
	for name, c := range map[string]struct {
		text, want string
	}{
		"version":    {strings.Replace(string(data), `{"arbiter_export":1`, `{"arbiter_export":9`, 1), "line 1: export format version 9"},
		"not export": {"hello\n", "line 1: not an Arbiter export"},
		"broken":     {strings.Join(broken, "\n") + "\n", "archived: archived game"},
		"cut short":  {strings.Join(lines[:len(lines)-2], "\n") + "\n", "cut short"},
		"unknown":    {strings.Join(append(lines[:1:1], `{"type":"spaceship"}`), "\n") + "\n", `line 2: spaceship: unknown item type`},
	} {
		path := filepath.Join(t.TempDir(), "bad.jsonl")
		if err := os.WriteFile(path, []byte(c.text), 0o600); err != nil {
			t.Fatal(err)
		}
		dst := e.other()
		_, err := importFile(ctx, dst, e, path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%s: import: %v, want an error saying %q", name, err, c.want)
		}
		if empty, err := dst.(store.Porter).Empty(ctx); !empty || err != nil {
			t.Fatalf("%s: a refused import wrote something (%v)", name, err)
		}
	}
}
