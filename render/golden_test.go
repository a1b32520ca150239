package render

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// update rewrites the golden files: go test ./render -run Golden -update
var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// checkGolden compares got with testdata/name, or rewrites the file with
// -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to write it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// TestGolden draws every game in text and emoji at the start, in the middle
// and at the end of a played-out game, from both players' sides, and
// compares each with its golden file testdata/GAME-STAGE-VIEW.STYLE.golden.
func TestGolden(t *testing.T) {
	reg := registry()
	for _, tg := range testGames() {
		names, positions := stages(t, reg, tg)
		for i, g := range positions {
			for _, view := range []View{FromP1, FromP2} {
				opt := Options{View: view, Players: testNames()}
				base := tg.name + "-" + names[i] + "-" + view.String()
				t.Run(base, func(t *testing.T) {
					checkGolden(t, base+".text.golden", []byte(Text(g, opt)))
					checkGolden(t, base+".emoji.golden", []byte(Emoji(g, opt)))
				})
			}
		}
		// One coloured board a game, for the ANSI escapes.
		t.Run(tg.name+"-colour", func(t *testing.T) {
			checkGolden(t, tg.name+"-middle-p1.ansi.golden",
				[]byte(Text(positions[1], Options{View: FromP1, Players: testNames(), Colour: true})))
		})
	}
}

// TestGoldenRecord writes each played-out game as a record.
func TestGoldenRecord(t *testing.T) {
	reg := registry()
	for _, tg := range testGames() {
		_, positions := stages(t, reg, tg)
		checkGolden(t, tg.name+"-end.record.golden",
			[]byte(Record(positions[2], Options{Players: testNames()}, Tag{"Event", "render golden test"})))
	}
}
