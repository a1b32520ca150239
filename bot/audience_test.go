package bot_test

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"arbiter/api"
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

// TestWallThroughDiscordShowsPublicChannelsOnly: in the fake Discord, a
// referee's /wall on gives a private link; the wall served at it (the API
// over the same game flow, its audience the bot's) shows the game of the
// channel everyone views and not the one of a staff-only channel, with the
// player by initials.
func TestWallThroughDiscordShowsPublicChannelsOnly(t *testing.T) {
	w := newWorld(t, true)
	p := w.start(procOptions{gateway: true})
	p.svc.SetAudience(p.b.Audience())
	apiSrv := api.New(p.svc, api.Options{Log: w.log, Poll: 100 * time.Millisecond})
	hs := httptest.NewServer(apiSrv.Handler())
	t.Cleanup(func() { hs.CloseClientConnections(); hs.Close() })
	g := w.srv.Guild()
	refRole, err := w.srv.AddRole("", "referee", 0)
	if err != nil {
		t.Fatal(err)
	}
	prof, ann := w.srv.AddUser("Prof", refRole.ID), w.srv.AddUser("Ann Lee")
	botRole, _ := w.srv.BotRole(g.ID)
	staff, _ := w.srv.AddChannel("", "staff")
	view := discordtest.PermViewChannel
	if err := w.srv.SetOverwrites(staff.ID, discordtest.Overwrite{ID: g.ID, Deny: view}, discordtest.Overwrite{ID: botRole.ID, Allow: view},
		discordtest.Overwrite{ID: ann.ID, Member: true, Allow: view}); err != nil {
		t.Fatal(err)
	}
	// The staff game first: the wall sends the games it shows in the order
	// of their ids, so it would come before the public one.
	w.public(w.do(ann.ID, staff.ID, "play", opt("game", "hiya")))
	w.public(w.do(ann.ID, w.general, "play", opt("game", "hique")))
	shown, hidden := p.game(w.general).ID, p.game(staff.ID).ID
	if hidden >= shown {
		t.Fatalf("ids %s and %s: the staff game's must sort first", hidden, shown)
	}

	answer := w.do(prof.ID, w.general, "wall", discordtest.Option{Name: "on"})
	w.private(answer, "/wall/")
	key := regexp.MustCompile(`/wall/([A-Za-z0-9_-]{43})/`).FindStringSubmatch(answer.Content)
	if key == nil {
		t.Fatalf("no link in %q", answer.Content)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hang)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, hs.URL+"/wall/"+key[1]+"/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var seen strings.Builder
	sawShown := false
	for sc := bufio.NewScanner(resp.Body); sc.Scan(); {
		line := sc.Text()
		seen.WriteString(line[:min(len(line), 200)] + "\n")
		if strings.Contains(line, `"id":"`+hidden+`"`) {
			t.Fatalf("the staff channel's game is on the wall:\n%s", seen.String())
		}
		if strings.Contains(line, `"id":"`+shown+`"`) {
			if !strings.Contains(line, `"players":["A. L.","Arbiter (level 3)"]`) {
				t.Errorf("the public game is not shown by initials: %.300s", line)
			}
			sawShown = true
			cancel() // the games are sent in id order: the staff game's turn has passed
		}
	}
	if !sawShown {
		t.Fatalf("the public channel's game never reached the wall:\n%s", seen.String())
	}
}
