package boltstore_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/boltstore"
	"arbiter/store/storetest"
)

// TestEmbeddedRestore: Restore refuses while the store is open and a file
// that is not a database; otherwise it puts the backup in place, keeps the
// database it replaces, and the store opens with the backup's games.
func TestEmbeddedRestore(t *testing.T) {
	ctx := storetest.Context(t)
	reg := games.Registry()
	cfg := store.Config{DataDir: t.TempDir(), Registry: reg, Logger: storetest.QuietLogger()}
	s, err := boltstore.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := storetest.Fill(t, s, reg)
	backup := filepath.Join(t.TempDir(), "b.db")
	if err := s.Backup(ctx, backup); err != nil {
		t.Fatal(err)
	}
	if _, err := boltstore.Restore(cfg.DataDir, backup); !errors.Is(err, boltstore.ErrLocked) {
		t.Fatalf("restore while the store is open: %v, want ErrLocked", err)
	}
	// A game after the backup: the restore takes the store back before it.
	extra := storetest.NewGame(t, reg, "sixes", "after", "1")
	if err := s.Create(ctx, extra); err != nil {
		t.Fatal(err)
	}
	_ = s.Close(ctx)

	junk := filepath.Join(t.TempDir(), "junk.db")
	if err := os.WriteFile(junk, []byte("not a database"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := boltstore.Restore(cfg.DataDir, junk); err == nil || !strings.Contains(err.Error(), "not a backup") {
		t.Fatalf("restore a file that is not a database: %v", err)
	}
	if _, err := boltstore.Restore(cfg.DataDir, filepath.Join(t.TempDir(), "missing.db")); err == nil {
		t.Fatal("restored a file that does not exist")
	}
	kept, err := boltstore.Restore(cfg.DataDir, backup)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(filepath.Base(kept), boltstore.DatabaseFile+".replaced-") {
		t.Fatalf("kept %q", kept)
	}
	s, err = boltstore.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	storetest.CheckFilled(t, s, reg, want)
	if _, err := s.Load(ctx, "after"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the game created after the backup: %v, want ErrNotFound", err)
	}
	_ = s.Close(ctx)
	// The database replaced is kept whole: it has the later game.
	aside := t.TempDir()
	data, err := os.ReadFile(kept)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(aside, boltstore.DatabaseFile), data, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err = boltstore.Open(ctx, store.Config{DataDir: aside, Registry: reg, Logger: storetest.QuietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	if _, err := s.Load(ctx, "after"); err != nil {
		t.Fatalf("the kept database lacks the later game: %v", err)
	}
}
