package bot_test

import (
	"archive/zip"
	"bytes"
	"context"
	"strings"
	"testing"

	"arbiter/bot/discordtest"
)

// TestTermCloseThroughDiscord: a referee's /referee term-close answers
// privately with the term's archive attached, and the server's ratings
// start again; anyone else is refused, and a second close of the same
// name is refused with the archive kept.
func TestTermCloseThroughDiscord(t *testing.T) {
	w := newWorld(t, false)
	p := w.start(procOptions{gateway: true})
	role, err := w.srv.AddRole("", "referee", 0)
	if err != nil {
		t.Fatal(err)
	}
	ann, bob, cat := w.srv.AddUser("Ann"), w.srv.AddUser("Bob"), w.srv.AddUser("Cat", role.ID)
	ch, guild := w.general, w.srv.Guild().ID
	challenge := w.public(w.do(ann.ID, ch, "play", opt("game", "sixes"), opt("opponent", bob.ID)))
	w.public(w.press(bob.ID, challenge.ID, button(t, challenge, "Accept")))
	w.public(w.do(ann.ID, ch, "resign"))
	ctx := context.Background()
	if b, err := p.st.Leaderboard(ctx, guild, "sixes", 0, 10); err != nil || len(b) != 2 {
		t.Fatalf("the resigned game is not rated: %+v, %v", b, err)
	}

	closeTerm := discordtest.Option{Name: "term-close", Options: []discordtest.Option{opt("name", "2026-autumn")}}
	w.private(w.do(ann.ID, ch, "referee", closeTerm), "only referees")
	done := w.do(cat.ID, ch, "referee", closeTerm)
	if !done.Ephemeral() || !strings.Contains(done.Content, "1 finished game") || len(done.Attachments) != 1 ||
		done.Attachments[0].Filename != "term-2026-autumn.zip" {
		t.Fatalf("term-close answered %+v", done)
	}
	z, err := zip.NewReader(bytes.NewReader(done.Attachments[0].Data), int64(len(done.Attachments[0].Data)))
	if err != nil {
		t.Fatalf("the attachment is not a zip: %v", err)
	}
	names := map[string]bool{}
	for _, f := range z.File {
		names[f.Name] = true
	}
	for _, want := range []string{"grades.csv", "games.csv", "ratings.csv", "vacation.csv", "records.jsonl", "README.txt"} {
		if !names[want] {
			t.Errorf("the archive has no %s: %v", want, names)
		}
	}
	if b, err := p.st.Leaderboard(ctx, guild, "sixes", 0, 10); err != nil || len(b) != 0 {
		t.Errorf("the ratings after the close: %+v, %v", b, err)
	}
	w.private(w.do(cat.ID, ch, "referee", closeTerm), "closed in this server already")
	w.noViolations()
}
