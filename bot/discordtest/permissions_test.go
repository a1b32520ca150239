package discordtest_test

import (
	"testing"

	"arbiter/bot/discordtest"

	"github.com/bwmarrin/discordgo"
)

// TestChannelPermissionsAsDiscordComputesThem checks the computation of
// topics/permissions.mdx ("Permission Overwrites", "Implicit
// Permissions"): base from @everyone and roles, then the @everyone
// overwrite, the role overwrites together, the member's own; no View
// Channel leaves nothing; no Send Messages drops Attach Files and Embed
// Links; a thread has its parent's permissions, with Send Messages in
// Threads for sending.
func TestChannelPermissionsAsDiscordComputesThem(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	g := srv.Guild()
	ta, _ := srv.AddRole("", "TA", 0)
	alice := srv.AddUser("alice", ta.ID)
	bob := srv.AddUser("bob")
	ch, _ := srv.AddChannel("", "ai-games")
	view, send := discordtest.PermViewChannel, discordtest.PermSendMessages
	if err := srv.SetOverwrites(ch.ID,
		discordtest.Overwrite{ID: g.ID, Deny: view},               // private to @everyone
		discordtest.Overwrite{ID: ta.ID, Allow: view, Deny: send}, // TAs read
		discordtest.Overwrite{ID: alice.ID, Member: true, Allow: send},
	); err != nil {
		t.Fatal(err)
	}
	if p := srv.ChannelPermissions(ch.ID, bob.ID); p != 0 {
		t.Errorf("bob without View Channel has %b, want nothing", p)
	}
	if p := srv.ChannelPermissions(ch.ID, alice.ID); p&view == 0 || p&send == 0 || p&discordtest.PermAttachFiles == 0 {
		t.Errorf("alice (TA, member allow send) has %b", p)
	}
	if err := srv.SetOverwrites(ch.ID, discordtest.Overwrite{ID: ta.ID, Deny: send}); err != nil {
		t.Fatal(err)
	}
	if p := srv.ChannelPermissions(ch.ID, alice.ID); p&view == 0 || p&send != 0 || p&discordtest.PermAttachFiles != 0 || p&discordtest.PermEmbedLinks != 0 {
		t.Errorf("without Send Messages alice has %b: Attach Files and Embed Links must go too", p)
	}
	thread, err := srv.StartThread(bob.ID, ch.ID, "bob's", false)
	if err != nil {
		t.Fatal(err)
	}
	if p := srv.ChannelPermissions(thread.ID, alice.ID); p&discordtest.PermSendMessagesInThreads == 0 || p&discordtest.PermAttachFiles == 0 {
		t.Errorf("in a thread Send Messages in Threads counts, not Send Messages: %b", p)
	}
}

// TestMissingAccessAndMissingPermissions checks that every route the bot
// uses refuses as Discord does: 50001 Missing Access where the bot cannot
// see the channel, 50013 Missing Permissions where it sees but lacks the
// route's permission.
func TestMissingAccessAndMissingPermissions(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, discordgo.IntentsGuilds)
	g := srv.Guild()
	ch, _ := srv.AddChannel("", "ai-games")
	posted, err := s.ChannelMessageSend(ch.ID, "before")
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.SetOverwrites(ch.ID, discordtest.Overwrite{ID: g.ID, Deny: discordtest.PermViewChannel}); err != nil {
		t.Fatal(err)
	}
	blind := map[string]error{}
	_, blind["get channel"] = s.Channel(ch.ID)
	_, blind["send"] = s.ChannelMessageSend(ch.ID, "x")
	_, blind["edit"] = s.ChannelMessageEdit(ch.ID, posted.ID, "y")
	blind["delete"] = s.ChannelMessageDelete(ch.ID, posted.ID)
	_, blind["get message"] = s.ChannelMessage(ch.ID, posted.ID)
	_, blind["list"] = s.ChannelMessages(ch.ID, 10, "", "", "")
	_, blind["thread"] = s.ThreadStartComplex(ch.ID, &discordgo.ThreadStart{Name: "t", Type: discordgo.ChannelTypeGuildPublicThread})
	blind["typing"] = s.ChannelTyping(ch.ID)
	for route, err := range blind {
		if !isCode(err, 403, 50001) {
			t.Errorf("%s without View Channel: %v, want 403 50001", route, err)
		}
	}
	bot, _ := srv.BotRole("")
	if err := srv.SetOverwrites(ch.ID,
		discordtest.Overwrite{ID: g.ID, Deny: discordtest.PermViewChannel},
		discordtest.Overwrite{ID: bot.ID, Allow: discordtest.PermViewChannel, Deny: discordtest.PermSendMessages | discordtest.PermCreatePublicThreads},
	); err != nil {
		t.Fatal(err)
	}
	_, err = s.ChannelMessageSend(ch.ID, "x")
	if !isCode(err, 403, 50013) {
		t.Errorf("send without Send Messages: %v, want 403 50013", err)
	}
	if _, err := s.ThreadStartComplex(ch.ID, &discordgo.ThreadStart{Name: "t", Type: discordgo.ChannelTypeGuildPublicThread}); !isCode(err, 403, 50013) {
		t.Errorf("thread without Create Public Threads: %v, want 403 50013", err)
	}
	name := "renamed"
	if _, err := s.ChannelEdit(ch.ID, &discordgo.ChannelEdit{Name: name}); !isCode(err, 403, 50013) {
		t.Errorf("channel edit without Manage Channels: %v, want 403 50013", err)
	}
	if _, err := s.Channel(ch.ID); err != nil {
		t.Errorf("get channel with View Channel: %v", err)
	}
}

// TestThreadsAsDiscordDoesThem checks topics/threads.mdx: a post unarchives
// an archived thread; a locked thread takes no post from a bot without
// Manage Threads (50083 archived, 50013 active); unarchiving a thread by
// edit needs the bot to be in it; a private thread the bot is not in is
// unseen (50001); joining is refused while archived.
func TestThreadsAsDiscordDoesThem(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, discordgo.IntentsGuilds)
	student := srv.AddUser("student")
	channel := srv.Guild().DefaultChannelID
	th, err := srv.StartThread(student.ID, channel, "student's thread", false)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.SetThreadState(th.ID, true, false); err != nil {
		t.Fatal(err)
	}
	open := false
	if _, err := s.ChannelEdit(th.ID, &discordgo.ChannelEdit{Archived: &open}); !isCode(err, 403, 50013) {
		t.Errorf("unarchive by edit without being in the thread: %v, want 403 50013", err)
	}
	if err := s.ThreadJoin(th.ID); !isCode(err, 400, 50083) {
		t.Errorf("join an archived thread: %v, want 400 50083", err)
	}
	if _, err := s.ChannelMessageSend(th.ID, "your move"); err != nil {
		t.Fatalf("post in an archived thread: %v, want it unarchived", err)
	}
	if got, _ := srv.Channel(th.ID); got.Archived {
		t.Error("the post left the thread archived")
	}
	if err := s.ThreadJoin(th.ID); err != nil {
		t.Fatalf("join: %v", err)
	}
	if got, _ := srv.Channel(th.ID); len(got.Members) != 2 {
		t.Errorf("members after join = %v", got.Members)
	}

	if err := srv.SetThreadState(th.ID, false, true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ChannelMessageSend(th.ID, "x"); !isCode(err, 403, 50013) {
		t.Errorf("post in a locked thread: %v, want 403 50013", err)
	}
	if err := srv.SetThreadState(th.ID, true, true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ChannelMessageSend(th.ID, "x"); !isCode(err, 400, 50083) {
		t.Errorf("post in a locked archived thread: %v, want 400 50083", err)
	}

	bot, _ := srv.BotRole("")
	if err := srv.SetRolePermissions(bot.ID, bot.Permissions|discordtest.PermCreatePrivateThreads); err != nil {
		t.Fatal(err)
	}
	private, err := srv.StartThread(srv.Guild().OwnerID, channel, "private", true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ChannelMessageSend(private.ID, "x"); !isCode(err, 403, 50001) {
		t.Errorf("post in a private thread the bot is not in: %v, want 403 50001", err)
	}
}

// TestContextsOnGlobalCommandsOnly: application-commands.mdx gives
// `contexts` to globally-scoped commands only; on a guild's command it is
// flagged.
func TestContextsOnGlobalCommandsOnly(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, 0)
	guildOnly := &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild}
	cmd := []*discordgo.ApplicationCommand{{Name: "x", Description: "d", Contexts: guildOnly}}
	if _, err := s.ApplicationCommandBulkOverwrite(srv.AppID(), "", cmd); err != nil {
		t.Fatal(err)
	}
	noViolations(t, srv)
	if _, err := s.ApplicationCommandBulkOverwrite(srv.AppID(), srv.Guild().ID, cmd); err != nil {
		t.Fatal(err)
	}
	expectViolation(t, srv, 0, "ignored-field")
}
