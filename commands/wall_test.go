package commands_test

import (
	"strings"
	"testing"

	"arbiter/commands"
	"arbiter/store"
)

// TestInitials: names shorten to at most three initials; nothing
// readable becomes "?".
func TestInitials(t *testing.T) {
	for in, want := range map[string]string{
		"Ada Lovelace": "A. L.", "ada": "A.", "jean-luc picard": "J. L. P.", "Émile Zola": "É. Z.",
		"@everyone [exam](https://e.vil)": "E. E. H.", "": "?", "***": "?", "a b c d": "A. B. C.",
	} {
		if got := commands.Initials(in); got != want {
			t.Errorf("Initials(%q) = %q, want %q", in, got, want)
		}
	}
	p := store.Player{Kind: store.Program, Name: "Ada Lovelace", Program: "Ada Lovelace (program)"}
	for names, want := range map[string]string{commands.NamesDisplay: "Ada Lovelace (program)", commands.NamesInitials: "A. L. (program)",
		commands.NamesAnonymous: "Player 2 (program)", "": "A. L. (program)"} {
		if got := commands.WallName(p, 1, names); got != want {
			t.Errorf("WallName(%s) = %q, want %q", names, got, want)
		}
	}
}

// TestWallCommand: only referees turn the wall on; the link is private
// and shown once; names are checked; off twice says so.
func TestWallCommand(t *testing.T) {
	e := newEnv(t, false)
	e.refused(ann, "c1", "/wall on", "only referees")
	r := e.do(cat, "c1", "/wall on names:anonymous")
	if !r.Private || !strings.Contains(r.Text, "/wall/") || !strings.Contains(r.Text, `"Player 1"`) {
		t.Fatalf("/wall on: %q (private %v)", r.Text, r.Private)
	}
	e.refused(cat, "c1", "/wall on", "already on")
	if r := e.do(cat, "c1", "/wall on names:display"); !r.Private || !strings.Contains(r.Text, "by their names") || !strings.Contains(r.Text, "already on") {
		t.Errorf("/wall on names:display while on: %q", r.Text)
	}
	e.refused(cat, "c1", "/wall names names:everyone", "display, initials or anonymous")
	if r := e.do(cat, "c1", "/wall off"); !r.Private || !strings.Contains(r.Text, "is off") {
		t.Errorf("/wall off: %q", r.Text)
	}
	e.refused(cat, "c1", "/wall off", "already off")
}

// TestHistoryOfAnotherChannelIsPrivate: /history game:ID of a game played
// elsewhere is shown only to the one who asked; of this channel's, to all.
func TestHistoryOfAnotherChannelIsPrivate(t *testing.T) {
	e := newEnv(t, false)
	e.ok(ann, "c1", "/play game:sixes opponent:@bob")
	e.ok(bob, "c1", "/accept")
	e.ok(cat, "c1", "/referee abort")
	id := ""
	if sums, _, err := e.st.Archived(t.Context(), "guild1", 0, 1); err == nil && len(sums) == 1 {
		id = sums[0].ID
	} else {
		t.Fatalf("archived: %v, %v", sums, err)
	}
	if r := e.do(cat, "elsewhere", "/history game:"+id); !r.Private || !strings.Contains(r.Text, "#"+id) {
		t.Errorf("/history of another channel's game: private %v, %q", r.Private, r.Text)
	}
	if r := e.do(cat, "c1", "/history game:"+id); r.Private {
		t.Errorf("/history in the game's own channel is private: %q", r.Text)
	}
}
