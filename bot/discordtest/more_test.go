package discordtest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"arbiter/bot/discordtest"

	"github.com/bwmarrin/discordgo"
)

func png(name string, size int) *discordgo.File {
	return &discordgo.File{Name: name, ContentType: "image/png", Reader: bytes.NewReader(bytes.Repeat([]byte{7}, size))}
}

func TestAttachmentsOnResponsesAndEdits(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, discordgo.IntentsGuilds)
	register(t, srv, s)
	alice := srv.AddUser("Alice")
	s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		err := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{
				Embeds: []*discordgo.MessageEmbed{{Title: "Board", Image: &discordgo.MessageEmbedImage{URL: "attachment://board.png"}}},
				Files:  []*discordgo.File{png("board.png", 100)},
			},
		})
		if err != nil {
			t.Errorf("respond with a file: %v", err)
		}
	})
	open(t, srv, s)
	resp, err := srv.Invoke(testContext(t), alice.ID, "", "ping", discordtest.Option{Name: "word", Value: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Attachments) != 1 || resp.Attachments[0].Filename != "board.png" || resp.Attachments[0].Size != 100 || len(resp.Attachments[0].Data) != 100 {
		t.Fatalf("response attachments = %+v", resp.Attachments)
	}
	if len(resp.Embeds) != 1 || resp.Embeds[0].Image == nil || resp.Embeds[0].Image.URL != "attachment://board.png" {
		t.Fatalf("response embeds = %+v", resp.Embeds)
	}

	// API v9: an edit's new files are appended unless "attachments" lists
	// what to keep.
	channel := srv.Guild().DefaultChannelID
	m, err := s.ChannelMessageSendComplex(channel, &discordgo.MessageSend{Files: []*discordgo.File{png("move1.png", 10)}})
	if err != nil {
		t.Fatal(err)
	}
	edit := discordgo.NewMessageEdit(channel, m.ID)
	edit.Files = []*discordgo.File{png("move2.png", 10)}
	if m, err = s.ChannelMessageEditComplex(edit); err != nil || len(m.Attachments) != 2 {
		t.Fatalf("edit without attachments: %d attachments, %v; want both files", len(m.Attachments), err)
	}
	edit.Files = []*discordgo.File{png("move3.png", 10)}
	edit.Attachments = &[]*discordgo.MessageAttachment{}
	if m, err = s.ChannelMessageEditComplex(edit); err != nil || len(m.Attachments) != 1 || m.Attachments[0].Filename != "move3.png" {
		t.Fatalf("edit with attachments []: %+v, %v; want only move3.png", m.Attachments, err)
	}
	calls := srv.Calls()
	last := calls[len(calls)-1]
	if last.Route != discordtest.RouteMessageEdit || len(last.Files) != 1 || !strings.Contains(string(last.Body), `"attachments":[]`) {
		t.Fatalf("recorded edit = %+v", last)
	}
	noViolations(t, srv)
}

func TestCommandRegistrationChecks(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, 0)
	str := discordgo.ApplicationCommandOptionString
	opt := func(name string, required bool) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: str, Name: name, Description: "d", Required: required}
	}
	many := func(n int) []*discordgo.ApplicationCommandOption {
		var out []*discordgo.ApplicationCommandOption
		for k := range n {
			out = append(out, opt("o"+strings.Repeat("x", k), false))
		}
		return out
	}
	choices := func(n int) []*discordgo.ApplicationCommandOptionChoice {
		var out []*discordgo.ApplicationCommandOptionChoice
		for k := range n {
			out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: "c", Value: strings.Repeat("v", k+1)})
		}
		return out
	}
	tests := []struct {
		name string
		cmd  *discordgo.ApplicationCommand
		ok   bool
	}{
		{"fine", &discordgo.ApplicationCommand{Name: "play", Description: "Play", Options: many(25)}, true},
		{"uppercase name", &discordgo.ApplicationCommand{Name: "Play", Description: "Play"}, false},
		{"no description", &discordgo.ApplicationCommand{Name: "play"}, false},
		{"26 options", &discordgo.ApplicationCommand{Name: "play", Description: "Play", Options: many(26)}, false},
		{"required after optional", &discordgo.ApplicationCommand{Name: "play", Description: "P", Options: []*discordgo.ApplicationCommandOption{opt("a", false), opt("b", true)}}, false},
		{"duplicate option", &discordgo.ApplicationCommand{Name: "play", Description: "P", Options: []*discordgo.ApplicationCommandOption{opt("a", false), opt("a", false)}}, false},
		{"26 choices", &discordgo.ApplicationCommand{Name: "play", Description: "P", Options: []*discordgo.ApplicationCommandOption{{Type: str, Name: "a", Description: "d", Choices: choices(26)}}}, false},
		{"autocomplete with choices", &discordgo.ApplicationCommand{Name: "play", Description: "P", Options: []*discordgo.ApplicationCommandOption{{Type: str, Name: "a", Description: "d", Autocomplete: true, Choices: choices(2)}}}, false},
		{"integer choice for a string", &discordgo.ApplicationCommand{Name: "play", Description: "P", Options: []*discordgo.ApplicationCommandOption{{Type: str, Name: "a", Description: "d", Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "n", Value: 3}}}}}, false},
		{"subcommand mixed with option", &discordgo.ApplicationCommand{Name: "play", Description: "P", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "s", Description: "d"}, opt("a", false)}}, false},
	}
	for _, tc := range tests {
		before := len(srv.Violations())
		_, err := s.ApplicationCommandBulkOverwrite(srv.AppID(), "", []*discordgo.ApplicationCommand{tc.cmd})
		if (err == nil) != tc.ok {
			t.Errorf("%s: err = %v, want ok=%v", tc.name, err, tc.ok)
			continue
		}
		if !tc.ok {
			if status, code := restCode(err); status != 400 || code != 50035 {
				t.Errorf("%s: %d %d, want 400 50035", tc.name, status, code)
			}
			expectViolation(t, srv, before, "invalid-request")
		}
	}
	// A bulk overwrite replaces the set and keeps IDs by name.
	first, err := s.ApplicationCommandBulkOverwrite(srv.AppID(), "", testCommands)
	if err != nil {
		t.Fatal(err)
	}
	second, err := s.ApplicationCommandBulkOverwrite(srv.AppID(), "", testCommands[:1])
	if err != nil || len(second) != 1 || second[0].ID != first[0].ID {
		t.Fatalf("second overwrite = %+v, %v; want /ping with its old ID", second, err)
	}
	listed, err := s.ApplicationCommands(srv.AppID(), "")
	if err != nil || len(listed) != 1 || len(srv.Commands("")) != 1 {
		t.Fatalf("listed = %+v, %v", listed, err)
	}
}

func TestDMCommandAndSelectMenu(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, discordgo.IntentsGuilds)
	if _, err := s.ApplicationCommandBulkOverwrite(srv.AppID(), "", testCommands); err != nil {
		t.Fatal(err)
	}
	alice := srv.AddUser("Alice")
	s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		switch i.Type {
		case discordgo.InteractionApplicationCommand:
			if i.User == nil || i.Member != nil || i.GuildID != "" {
				t.Errorf("DM interaction has member %+v user %+v guild %q", i.Member, i.User, i.GuildID)
			}
			min := 1
			_ = s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{
					Content: "pick a game",
					Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
						discordgo.SelectMenu{CustomID: "game", MinValues: &min, MaxValues: 1, Options: []discordgo.SelectMenuOption{
							{Label: "HiQUE", Value: "hique"}, {Label: "Sixes", Value: "sixes"},
						}},
					}}},
				},
			})
		case discordgo.InteractionMessageComponent:
			_ = s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseUpdateMessage,
				Data: &discordgo.InteractionResponseData{Content: "chose " + i.MessageComponentData().Values[0]},
			})
		}
	})
	open(t, srv, s)
	ctx := testContext(t)
	in, err := srv.SendInteraction(discordtest.InteractionSpec{Type: discordtest.InteractionCommand, UserID: alice.ID, DM: true, Name: "ping", Options: []discordtest.Option{{Name: "word", Value: "x"}}})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.WaitForResponse(ctx, in.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.SendInteraction(discordtest.InteractionSpec{Type: discordtest.InteractionComponent, UserID: alice.ID, MessageID: resp.MessageID, CustomID: "game", Values: []string{"chess"}}); err == nil {
		t.Fatal("a value that is not an option was selected")
	}
	sel, err := srv.SendInteraction(discordtest.InteractionSpec{Type: discordtest.InteractionComponent, UserID: alice.ID, MessageID: resp.MessageID, CustomID: "game", Values: []string{"sixes"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.WaitForResponse(ctx, sel.ID); err != nil {
		t.Fatal(err)
	}
	if m, _ := srv.Message(resp.MessageID); m.Content != "chose sixes" || len(m.Components) != 1 {
		t.Fatalf("after select: %+v (components stay when the update leaves them out)", m)
	}
	noViolations(t, srv)
}

func TestEphemeralOnChannelMessageIsFlagged(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, 0)
	m, err := s.ChannelMessageSendComplex(srv.Guild().DefaultChannelID, &discordgo.MessageSend{Content: "secret", Flags: discordgo.MessageFlagsEphemeral})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := srv.Message(m.ID); got.Ephemeral() {
		t.Fatal("a channel message became ephemeral")
	}
	expectViolation(t, srv, 0, "ignored-flag")
}

// TestDirectMessages: the bot opens a DM channel (POST /users/@me/channels,
// the same channel again the second time) and posts in it; a user who
// closed their DMs, or shares no server with the bot, gets none: 50007.
func TestDirectMessages(t *testing.T) {
	srv := discordtest.Start(t, discordtest.Options{Token: "x"})
	s, err := discordgo.New("Bot x")
	if err != nil {
		t.Fatal(err)
	}
	s.Client = srv.HTTPClient()
	ann := srv.AddUser("Ann")
	ch, err := s.UserChannelCreate(ann.ID)
	if err != nil || ch.Type != discordgo.ChannelTypeDM || len(ch.Recipients) != 1 || ch.Recipients[0].ID != ann.ID {
		t.Fatalf("DM channel %+v, %v", ch, err)
	}
	again, err := s.UserChannelCreate(ann.ID)
	if err != nil || again.ID != ch.ID {
		t.Fatalf("second DM channel %+v, %v; want %s again", again, err, ch.ID)
	}
	if _, err := s.ChannelMessageSend(ch.ID, "your move, due <t:1764245100:R>"); err != nil {
		t.Fatalf("DM: %v", err)
	}
	if msgs := srv.Messages(ch.ID); len(msgs) != 1 || msgs[0].Content != "your move, due <t:1764245100:R>" {
		t.Fatalf("DM channel holds %+v; the timestamp markup should pass as text", msgs)
	}
	srv.CloseDMs(ann.ID, true)
	_, err = s.ChannelMessageSend(ch.ID, "again")
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) || rest.Message == nil || rest.Message.Code != 50007 {
		t.Fatalf("DM to closed DMs: %v, want 50007", err)
	}
	if _, err := s.UserChannelCreate("12345"); err == nil {
		t.Error("a DM channel with an unknown user was opened")
	}
}

// TestEnforcedNonce: with enforce_nonce, a second Create Message with the
// same nonce by the same author within a few minutes, in any channel,
// returns the first message and creates none; without enforce_nonce, or
// once the window has passed, it creates one; a nonce longer than 25
// characters is refused.
func TestEnforcedNonce(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, 0)
	general := srv.Guild().DefaultChannelID
	other, err := srv.AddChannel(srv.Guild().ID, "other")
	if err != nil {
		t.Fatal(err)
	}
	type body struct {
		Content      string `json:"content"`
		Nonce        string `json:"nonce,omitempty"`
		EnforceNonce bool   `json:"enforce_nonce,omitempty"`
	}
	post := func(channel string, b body) (string, error) {
		endpoint := discordgo.EndpointChannelMessages(channel)
		raw, err := s.RequestWithBucketID("POST", endpoint, b, endpoint)
		if err != nil {
			return "", err
		}
		var m discordgo.Message
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		return m.ID, nil
	}
	first, err := post(general, body{Content: "one", Nonce: "analysis-1", EnforceNonce: true})
	if err != nil {
		t.Fatal(err)
	}
	if again, err := post(other.ID, body{Content: "two", Nonce: "analysis-1", EnforceNonce: true}); err != nil || again != first {
		t.Errorf("same nonce again, enforced: message %s, %v; want %s returned", again, err, first)
	}
	if n := len(srv.Messages(other.ID)); n != 0 {
		t.Errorf("%d messages created by the enforced repeat, want none", n)
	}
	if again, err := post(general, body{Content: "three", Nonce: "analysis-1"}); err != nil || again == first {
		t.Errorf("same nonce, not enforced: message %s, %v; want a new one", again, err)
	}
	srv.Advance(10 * time.Minute)
	if again, err := post(general, body{Content: "four", Nonce: "analysis-1", EnforceNonce: true}); err != nil || again == first {
		t.Errorf("same nonce after ten minutes: message %s, %v; want a new one", again, err)
	}
	_, err = post(general, body{Content: "five", Nonce: strings.Repeat("n", 26), EnforceNonce: true})
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) || rest.Response.StatusCode != 400 || rest.Message == nil || rest.Message.Code != 50035 {
		t.Errorf("a 26-character nonce: %v; want 400 Invalid Form Body", err)
	}
}
