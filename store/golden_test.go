package store_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/storetest"
)

var update = flag.Bool("update", false, "write testdata/record-v1.json anew")

// TestGoldenRecordV1 reads a record written by schema 1. The file is kept
// as it was written: a later schema must still read it (see
// MIGRATIONS.md). Write it only when it does not exist yet (-update).
func TestGoldenRecordV1(t *testing.T) {
	reg := games.Registry()
	path := filepath.Join("testdata", "record-v1.json")
	want := storetest.SeedGame(t, reg, "sixes")
	if *update {
		data, err := store.EncodeRecord(want)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestGoldenRecordV1 -update once to write it)", err)
	}
	r, err := store.DecodeRecord(trimNewline(data))
	if err != nil {
		t.Fatalf("the schema 1 golden record does not read: %v", err)
	}
	got, err := r.Game(reg)
	if err != nil {
		t.Fatalf("the schema 1 golden record does not read: %v", err)
	}
	if got.Name != "sixes" || got.Guild != "2" || got.Version != 1 || got.Status != store.Active ||
		got.Players != want.Players || !got.Created.Equal(want.Created) || len(got.Moves) != len(want.Moves) {
		t.Fatalf("golden record read as %+v", got)
	}
	for i, m := range got.Moves {
		if m.Text != want.Moves[i].Text || m.Seat != want.Moves[i].Seat {
			t.Fatalf("golden move %d reads %+v, want %+v", i+1, m, want.Moves[i])
		}
	}
	if string(rules.Encode(got.State)) != string(rules.Encode(want.State)) {
		t.Fatalf("the golden record's state differs from the same game played now")
	}
}

func trimNewline(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		return b[:n-1]
	}
	return b
}
