package boltstore_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/boltstore"
	"arbiter/store/storetest"
)

// TestEmbeddedReopen: the embedded store closed and opened again on its
// data directory has every game, the archive, the ratings and the queue (a
// job claimed but not acked comes back at once: its worker died with the
// process). A second store on the same directory is refused while the
// first is open. Locks do not outlive the process that held them.
func TestEmbeddedReopen(t *testing.T) {
	ctx := storetest.Context(t)
	reg := games.Registry()
	dir := t.TempDir()
	cfg := store.Config{DataDir: dir, Registry: reg, Logger: storetest.QuietLogger()}
	s, err := boltstore.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = boltstore.Open(ctx, cfg)
	pid := fmt.Sprintf("pid %d", os.Getpid())
	if !errors.Is(err, boltstore.ErrLocked) || !strings.Contains(err.Error(), pid) || !strings.Contains(err.Error(), "/referee export") {
		t.Fatalf("a second store on the same data directory: %v, want an error saying it is in use by %s and what to use", err, pid)
	}
	if locked, holder := boltstore.Locked(dir); !locked || holder != os.Getpid() {
		t.Fatalf("Locked = %v, %d; want true, %d", locked, holder, os.Getpid())
	}
	want := storetest.Fill(t, s, reg)
	g := want[storetest.ChName(1)]
	for range 2 {
		if _, err := s.EnqueueBotTurn(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	claimed, err := s.ClaimBotTurn(ctx, "w1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.TryLock(ctx, "clock", time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if locked, _ := boltstore.Locked(dir); locked {
		t.Fatal("Locked after Close")
	}

	s, err = boltstore.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	storetest.CheckFilled(t, s, reg, want)
	ids := map[string]bool{}
	for range 2 {
		job, err := s.ClaimBotTurn(ctx, "w2", 0)
		if err != nil {
			t.Fatalf("claim after reopening: %v", err)
		}
		ids[job.ID] = true
		if err := s.AckBotTurn(ctx, job); err != nil {
			t.Fatal(err)
		}
	}
	if !ids[claimed.ID] || len(ids) != 2 {
		t.Fatalf("jobs after reopening: %v, want both, with %s", ids, claimed.ID)
	}
	if _, err := s.TryLock(ctx, "clock", time.Second); err != nil {
		t.Fatalf("the lock of the process before: %v", err)
	}
}

// TestEmbeddedDamagedFile: a database file that is not one, or is cut
// short, stops Open with an error naming the file and both ways out,
// without a panic; StartEmpty moves it aside (kept) and starts empty.
func TestEmbeddedDamagedFile(t *testing.T) {
	ctx := storetest.Context(t)
	reg := games.Registry()
	good := t.TempDir()
	s, err := boltstore.Open(ctx, store.Config{DataDir: good, Registry: reg, Logger: storetest.QuietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	storetest.Fill(t, s, reg)
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	whole, err := os.ReadFile(filepath.Join(good, boltstore.DatabaseFile))
	if err != nil {
		t.Fatal(err)
	}
	zeroMeta := append([]byte(nil), whole...)
	clear(zeroMeta[:8192]) // both meta pages (4 KiB pages)
	garbled := append([]byte(nil), whole...)
	for i := 8192; i < len(garbled); i++ {
		garbled[i] = byte(i*7 + 3) // every page but the metas
	}
	for name, data := range map[string][]byte{
		"not a database": []byte("this is not a database file, it is a note\n"),
		"cut short":      whole[:len(whole)/3],
		"one page":       whole[:4096],
		"no meta pages":  zeroMeta,
		"garbled pages":  garbled,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, boltstore.DatabaseFile)
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			cfg := store.Config{DataDir: dir, Registry: reg, Logger: storetest.QuietLogger()}
			s, err := boltstore.Open(ctx, cfg)
			if err == nil {
				// bbolt found its meta pages and opened it: what it holds
				// must then read, or fail with an error naming the file.
				defer s.Close(ctx)
				for i := range storetest.GameNames {
					if _, err := s.Load(ctx, storetest.ChName(i)); err != nil && !errors.Is(err, store.ErrNotFound) &&
						!strings.Contains(err.Error(), path) && !errors.As(err, new(*store.DamagedError)) {
						t.Fatalf("load from a damaged file: %v", err)
					}
				}
				return
			}
			for _, want := range []string{path, "backup", "STORE_START_EMPTY"} {
				if !strings.Contains(err.Error(), want) {
					t.Fatalf("open on a damaged file: %v\nwant it to say %q", err, want)
				}
			}
			// Started again (bbolt may keep a file it panicked on open in
			// this process: a new directory stands for the new process).
			cfg.DataDir, cfg.StartEmpty = t.TempDir(), true
			path = filepath.Join(cfg.DataDir, boltstore.DatabaseFile)
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			s, err = boltstore.Open(ctx, cfg)
			if err != nil {
				t.Fatalf("open with StartEmpty: %v", err)
			}
			defer s.Close(ctx)
			if _, err := s.Load(ctx, storetest.ChName(1)); err == nil {
				t.Fatal("a game in the store that started empty")
			}
			aside, _ := filepath.Glob(path + ".damaged-*")
			if len(aside) != 1 {
				t.Fatalf("the damaged file was not kept aside: %v", aside)
			}
			if kept, _ := os.ReadFile(aside[0]); string(kept) != string(data) {
				t.Fatal("the file kept aside is not the damaged file")
			}
		})
	}
}

// TestEmbeddedImportLegacy: a data directory holding the data file of the
// earlier embedded store (testdata/legacy-store.json, written by it: three
// live games in guild 7, two archived, two bot turns of which one was
// claimed, a rating, a setting and the clock's lock) is imported once at
// first start, the file kept beside as arbiter-store.json.imported.
func TestEmbeddedImportLegacy(t *testing.T) {
	ctx := storetest.Context(t)
	reg := games.Registry()
	dir := t.TempDir()
	data, err := os.ReadFile("testdata/legacy-store.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "arbiter-store.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := store.Config{DataDir: dir, Registry: reg, Logger: storetest.QuietLogger()}
	s, err := boltstore.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range []string{"101", "102", "103"} {
		g, err := s.Load(ctx, ch)
		if err != nil || g.Version != 3 || len(g.Moves) != 2 {
			t.Fatalf("game %s after the import: %+v %v", ch, g, err)
		}
		storetest.CheckReplays(t, reg, g)
	}
	due, err := s.Due(ctx, time.Date(2030, 1, 2, 0, 0, 0, 0, time.UTC), 0)
	if err != nil || len(due) != 1 || due[0].Channel != "103" {
		t.Fatalf("due after the import: %v %v", due, err)
	}
	running, err := s.Running(ctx, "7")
	if err != nil || len(running) != 3 {
		t.Fatalf("running after the import: %v %v", running, err)
	}
	list, total, err := s.Archived(ctx, "7", 0, 10)
	if err != nil || total != 2 || len(list) != 2 || list[0].ID != "5" || list[1].ID != "4" {
		t.Fatalf("archive after the import: %+v %d %v", list, total, err)
	}
	r, err := s.Ratings(ctx, "7", "hiya", "1001", "bot:3")
	if err != nil || r[0].Rating != 1610 || r[1].Losses != 1 {
		t.Fatalf("ratings after the import: %+v %v", r, err)
	}
	if ok, err := s.UpdateRatings(ctx, "7", "hiya", "1", []string{"1001"}, nil); ok || err != nil {
		t.Fatalf("a result rated before the import was rated again: %v %v", ok, err)
	}
	if v, err := s.ChannelSetting(ctx, "101", "board"); v != "emoji" || err != nil {
		t.Fatalf("setting after the import: %q %v", v, err)
	}
	jobs := map[string]bool{}
	for range 2 {
		job, err := s.ClaimBotTurn(ctx, "w", 0)
		if err != nil {
			t.Fatalf("claim after the import: %v", err)
		}
		jobs[job.Channel] = true
		if err := s.AckBotTurn(ctx, job); err != nil {
			t.Fatal(err)
		}
	}
	if !jobs["101"] || !jobs["102"] {
		t.Fatalf("bot turns after the import: %v", jobs)
	}
	if _, err := s.TryLock(ctx, "clock", time.Second); err != nil {
		t.Fatalf("the old process's lock after the import: %v", err)
	}
	g := storetest.NewGame(t, reg, "sixes", "104", "7")
	if err := s.Create(ctx, g); err != nil || g.ID != "6" {
		t.Fatalf("a new game after the import: id %q, %v; want 6, after the imported ids", g.ID, err)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "arbiter-store.json")); !os.IsNotExist(err) {
		t.Fatalf("the old data file is still under its name: %v", err)
	}
	if kept, err := os.ReadFile(filepath.Join(dir, "arbiter-store.json.imported")); err != nil || string(kept) != string(data) {
		t.Fatalf("the old data file was not kept beside: %v", err)
	}
	// A second start does not import again, even if the file is put back.
	if err := os.WriteFile(filepath.Join(dir, "arbiter-store.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err = boltstore.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	if g, err := s.Load(ctx, "104"); err != nil || g.ID != "6" {
		t.Fatalf("game 104 after reopening: %v %v", g, err)
	}
	if _, total, _ := s.Archived(ctx, "7", 0, 10); total != 2 {
		t.Fatalf("archive after reopening: %d games, want 2", total)
	}
}

// TestEmbeddedDamagedLegacyFile: a legacy data file that does not read
// stops Open with an error naming it, rather than starting empty over the
// games, at every start until it is dealt with.
func TestEmbeddedDamagedLegacyFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "arbiter-store.json"), []byte(`{"format":1,"keys":[{"key":"k","type":"zset","zset":["x","m"]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		_, err := boltstore.Open(context.Background(), store.Config{DataDir: dir, Registry: games.Registry(), Logger: storetest.QuietLogger()})
		if err == nil || !strings.Contains(err.Error(), "arbiter-store.json") {
			t.Fatalf("open on a damaged data file: %v", err)
		}
	}
}

// TestEmbeddedBackup: a backup taken while moves are being saved is a
// whole database that opens as a store, holding every move saved before
// the backup began; the periodic backup writes one too, and keeps the
// newest BackupKeep.
func TestEmbeddedBackup(t *testing.T) {
	ctx := storetest.Context(t)
	reg := games.Registry()
	dir := t.TempDir()
	s, err := boltstore.Open(ctx, store.Config{DataDir: dir, Registry: reg, Logger: storetest.QuietLogger(), BackupEvery: 50 * time.Millisecond, BackupKeep: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	want := storetest.Fill(t, s, reg)
	done := make(chan struct{})
	go func() { // saves racing the backup, in a channel of its own
		defer close(done)
		g := storetest.NewGame(t, reg, "sixes", "555", "3")
		if err := s.Create(ctx, g); err != nil {
			t.Error(err)
			return
		}
		rng := rand.New(rand.NewPCG(1, 1))
		for range 20 {
			if !storetest.PlayRandom(g, rng, "u") || g.Status == store.Finished {
				return
			}
			if err := s.Save(ctx, g); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	path := filepath.Join(t.TempDir(), "copy", boltstore.DatabaseFile)
	if err := s.Backup(ctx, path); err != nil {
		t.Fatal(err)
	}
	<-done
	// The periodic backups rotate (at most BackupKeep of them, and one
	// being written). The second one named after the saves ended began
	// after them (the first may have been under way); it is copied at
	// once, before the rotation removes it.
	bdir := filepath.Join(dir, boltstore.BackupDir)
	before := map[string]bool{}
	list, _ := boltstore.Backups(bdir)
	for _, p := range list {
		before[p] = true
	}
	periodic := filepath.Join(t.TempDir(), "periodic.db")
	seen := map[string]bool{}
	for start := time.Now(); !seen[periodic]; time.Sleep(5 * time.Millisecond) {
		if time.Since(start) > storetest.HangBound {
			t.Fatalf("no new periodic backups in %s", bdir)
		}
		list, _ := boltstore.Backups(bdir)
		if len(list) > 3+1 {
			t.Fatalf("the rotation keeps %d backups, want at most 3 (and one being written): %v", len(list), list)
		}
		var fresh []string
		for _, p := range list {
			seen[p] = true
			if !before[p] {
				fresh = append(fresh, p)
			}
		}
		if len(fresh) >= 2 {
			data, err := os.ReadFile(fresh[1])
			if err != nil {
				t.Fatalf("copy %s: %v", fresh[1], err)
			}
			if err := os.WriteFile(periodic, data, 0o600); err != nil {
				t.Fatal(err)
			}
			seen[periodic] = true
		}
	}
	for len(seen) < 7 { // the rotation goes on
		list, _ := boltstore.Backups(bdir)
		if len(list) > 3+1 {
			t.Fatalf("the rotation keeps %d backups: %v", len(list), list)
		}
		for _, p := range list {
			seen[p] = true
		}
		time.Sleep(5 * time.Millisecond)
	}
	for _, p := range []string{path, periodic} {
		restored := t.TempDir()
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(restored, boltstore.DatabaseFile), data, 0o600); err != nil {
			t.Fatal(err)
		}
		b, err := boltstore.Open(ctx, store.Config{DataDir: restored, Registry: reg, Logger: storetest.QuietLogger()})
		if err != nil {
			t.Fatalf("open the backup %s: %v", p, err)
		}
		storetest.CheckFilled(t, b, reg, want)
		if g, err := b.Load(ctx, "555"); err == nil {
			storetest.CheckReplays(t, reg, g)
		}
		_ = b.Close(ctx)
	}
}

// TestEmbeddedNewerLayout: a database of a layout this build does not know
// (a newer Arbiter wrote it) is refused with a message, and never moved
// aside as damaged, even with StartEmpty.
func TestEmbeddedNewerLayout(t *testing.T) {
	ctx := storetest.Context(t)
	cfg := store.Config{DataDir: t.TempDir(), Registry: games.Registry(), Logger: storetest.QuietLogger()}
	s, err := boltstore.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if f, err := s.RawGet([]string{"meta"}, "format"); err != nil || string(f) != strconv.Itoa(store.Layout) {
		t.Fatalf("layout %q (%v), want store.Layout %d", f, err, store.Layout)
	}
	if err := s.RawPut([]string{"meta"}, "format", []byte("3")); err != nil {
		t.Fatal(err)
	}
	_ = s.Close(ctx)
	for _, startEmpty := range []bool{false, true} {
		cfg.StartEmpty = startEmpty
		if _, err := boltstore.Open(ctx, cfg); !errors.Is(err, store.ErrNewerLayout) || !strings.Contains(err.Error(), "layout 3") ||
			!strings.Contains(err.Error(), "docs/how-to/upgrade.md") {
			t.Fatalf("open a newer layout (StartEmpty %v): %v", startEmpty, err)
		}
	}
	if aside, _ := filepath.Glob(filepath.Join(cfg.DataDir, "*.damaged-*")); len(aside) != 0 {
		t.Fatalf("a newer database was moved aside: %v", aside)
	}
}
