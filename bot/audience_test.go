package bot_test

import (
	"context"
	"testing"

	"arbiter/bot/discordtest"
)

// TestAudienceFollowsEveryonesPermissions: the live wall's question "can
// every member view this channel?" is answered from the fake Discord's
// permission data as Discord computes it: a plain channel yes; one whose
// @everyone overwrite denies View Channel no (even though the bot's role
// may view it); a public thread as its parent; a private thread never; a
// channel the bot cannot see at all is not known (the wall leaves it out).
func TestAudienceFollowsEveryonesPermissions(t *testing.T) {
	w := newWorld(t, false)
	p := w.start(procOptions{})
	g := w.srv.Guild()
	role, _ := w.srv.BotRole(g.ID)
	student := w.srv.AddUser("student")
	open, _ := w.srv.AddChannel("", "games")
	private, _ := w.srv.AddChannel("", "staff")
	hidden, _ := w.srv.AddChannel("", "hidden")
	view := discordtest.PermViewChannel
	if err := w.srv.SetOverwrites(private.ID, discordtest.Overwrite{ID: g.ID, Deny: view}, discordtest.Overwrite{ID: role.ID, Allow: view}); err != nil {
		t.Fatal(err)
	}
	if err := w.srv.SetOverwrites(open.ID, discordtest.Overwrite{ID: student.ID, Member: true, Allow: discordtest.PermCreatePrivateThreads}); err != nil {
		t.Fatal(err)
	}
	if err := w.srv.SetOverwrites(hidden.ID, discordtest.Overwrite{ID: g.ID, Deny: view}); err != nil {
		t.Fatal(err)
	}
	publicThread, err := w.srv.StartThread(student.ID, open.ID, "pair", false)
	if err != nil {
		t.Fatal(err)
	}
	privateThread, err := w.srv.StartThread(student.ID, open.ID, "secret", true)
	if err != nil {
		t.Fatal(err)
	}
	threadOfPrivate, err := w.srv.StartThread(w.srv.BotUser().ID, private.ID, "staff pair", false)
	if err != nil {
		t.Fatal(err)
	}
	aud := p.b.Audience()
	for _, c := range []struct {
		name, id string
		public   bool
	}{
		{"a channel everyone views", open.ID, true},
		{"a channel private to a role", private.ID, false},
		{"a public thread of a public channel", publicThread.ID, true},
		{"a public thread of a private channel", threadOfPrivate.ID, false},
	} {
		guild, public, err := aud.Channel(context.Background(), c.id)
		if err != nil || guild != g.ID || public != c.public {
			t.Errorf("%s: guild %q, public %v, %v; want %q, %v", c.name, guild, public, err, g.ID, c.public)
		}
	}
	if _, public, _ := aud.Channel(context.Background(), privateThread.ID); public {
		t.Error("a private thread is public")
	}
	if _, public, err := aud.Channel(context.Background(), hidden.ID); err == nil || public {
		t.Errorf("a channel the bot cannot see: public %v, err %v; want an error (left out)", public, err)
	}
}
