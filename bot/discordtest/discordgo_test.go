package discordtest_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/bot/discordtest"

	"github.com/bwmarrin/discordgo"
)

const token = "test-token"

// newSession makes a discordgo session aimed at the fake, not yet open.
func newSession(t *testing.T, srv *discordtest.Server, intents discordgo.Intent) *discordgo.Session {
	t.Helper()
	s, err := discordgo.New("Bot " + token)
	if err != nil {
		t.Fatalf("discordgo.New: %v", err)
	}
	s.Client = srv.HTTPClient()
	s.Dialer = srv.Dialer()
	s.Identify.Intents = intents
	s.LogLevel = -1 // quiet: the tests check errors themselves
	return s
}

// open opens a session and closes it when the test ends (before the
// server, which Start registered earlier).
func open(t *testing.T, srv *discordtest.Server, s *discordgo.Session) {
	t.Helper()
	if err := s.Open(); err != nil {
		t.Fatalf("open gateway session: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), hang)
	defer cancel()
	if _, err := srv.WaitConnected(ctx); err != nil {
		t.Fatal(err)
	}
}

// hang bounds every wait of these tests for something to happen: far
// beyond what the slowest machine takes, it is reached only by a hang.
const hang = 2 * time.Minute

// testContext bounds a wait by hang.
func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hang)
	t.Cleanup(cancel)
	return ctx
}

var testCommands = []*discordgo.ApplicationCommand{
	{
		Name:        "ping",
		Description: "Answers pong",
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "word", Description: "A word to echo", Required: true},
			{Type: discordgo.ApplicationCommandOptionUser, Name: "who", Description: "Someone to greet"},
		},
	},
	{
		Name:        "play",
		Description: "Starts a game",
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "game", Description: "Which game", Required: true, Autocomplete: true},
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "level", Description: "Engine level", Autocomplete: true},
			{Type: discordgo.ApplicationCommandOptionBoolean, Name: "thread", Description: "Open a thread"},
		},
	},
	{
		Name:        "board",
		Description: "Board settings",
		Options: []*discordgo.ApplicationCommandOption{{
			Type: discordgo.ApplicationCommandOptionSubCommand, Name: "style", Description: "Sets the board style",
			Options: []*discordgo.ApplicationCommandOption{{
				Type: discordgo.ApplicationCommandOptionString, Name: "style", Description: "Style", Required: true,
				Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "Text", Value: "text"}, {Name: "PNG", Value: "png"}},
			}},
		}},
	},
}

// register bulk-overwrites the test commands in the start guild.
func register(t *testing.T, srv *discordtest.Server, s *discordgo.Session) {
	t.Helper()
	got, err := s.ApplicationCommandBulkOverwrite(srv.AppID(), srv.Guild().ID, testCommands)
	if err != nil {
		t.Fatalf("register commands: %v", err)
	}
	if len(got) != len(testCommands) || got[0].ID == "" {
		t.Fatalf("registered %d commands (%+v), want %d with IDs", len(got), got, len(testCommands))
	}
}

func noViolations(t *testing.T, srv *discordtest.Server) {
	t.Helper()
	if v := srv.Violations(); len(v) > 0 {
		t.Fatalf("violations:\n%s", strings.Join(v, "\n"))
	}
}

// expectViolation checks that exactly one new violation of kind appeared
// since before.
func expectViolation(t *testing.T, srv *discordtest.Server, before int, kind string) {
	t.Helper()
	v := srv.Violations()
	if len(v) != before+1 || !strings.HasPrefix(v[len(v)-1], kind+":") {
		t.Fatalf("want one new %q violation after %d, got:\n%s", kind, before, strings.Join(v, "\n"))
	}
}

func restCode(err error) (int, int) {
	var re *discordgo.RESTError
	if !errors.As(err, &re) {
		return 0, 0
	}
	code := 0
	if re.Message != nil {
		code = re.Message.Code
	}
	return re.Response.StatusCode, code
}

func TestSlashCommandRoundTrip(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, discordgo.IntentsGuilds)
	register(t, srv, s)
	alice := srv.AddUser("Alice")
	bob := srv.AddUser("Bob")

	got := make(chan *discordgo.InteractionCreate, 1)
	s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		data := i.ApplicationCommandData()
		who := data.GetOption("who").UserValue(nil)
		err := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{
				Content:         fmt.Sprintf("pong %s <@%s>", data.GetOption("word").StringValue(), who.ID),
				AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{who.ID}},
			},
		})
		if err != nil {
			t.Errorf("respond: %v", err)
		}
		got <- i
	})
	open(t, srv, s)

	ready := s.State.Ready
	if ready.SessionID == "" || ready.User == nil || ready.User.ID != srv.AppID() {
		t.Fatalf("READY = %+v, want a session and the bot user %s", ready, srv.AppID())
	}
	ids := srv.Identifies()
	if len(ids) != 1 || ids[0].Intents != int(discordgo.IntentsGuilds) || !ids[0].Compress || ids[0].Shard != [2]int{0, 1} {
		t.Fatalf("identifies = %+v, want one with GUILDS intent, compression, shard 0/1", ids)
	}

	ctx := testContext(t)
	resp, err := srv.Invoke(ctx, alice.ID, "", "ping", discordtest.Option{Name: "word", Value: "hi"}, discordtest.Option{Name: "who", Value: bob.ID})
	if err != nil {
		t.Fatal(err)
	}
	i := <-got
	if i.Member == nil || i.Member.User.ID != alice.ID || i.GuildID != srv.Guild().ID || i.ChannelID != srv.Guild().DefaultChannelID {
		t.Fatalf("interaction member/guild/channel = %+v %s %s", i.Member, i.GuildID, i.ChannelID)
	}
	if i.Member.Permissions&discordgo.PermissionUseSlashCommands == 0 {
		t.Errorf("member permissions %d lack USE_APPLICATION_COMMANDS", i.Member.Permissions)
	}
	data := i.ApplicationCommandData()
	if data.Resolved == nil || data.Resolved.Users[bob.ID] == nil || data.Resolved.Members[bob.ID] == nil {
		t.Errorf("resolved = %+v, want Bob as user and member", data.Resolved)
	}
	if resp.Type != discordtest.CallbackMessage || resp.Content != "pong hi <@"+bob.ID+">" {
		t.Fatalf("response = %+v", resp)
	}
	m, ok := srv.Message(resp.MessageID)
	if !ok || m.Type != 20 || m.InteractionID != i.ID || m.ChannelID != i.ChannelID {
		t.Fatalf("response message = %+v", m)
	}
	if !slices.Equal(m.Pings.Users, []string{bob.ID}) {
		t.Errorf("pings = %v, want only Bob", m.Pings.Users)
	}
	call, err := srv.WaitForCall(ctx, func(c discordtest.Call) bool { return c.Route == discordtest.RouteInteractionCallback })
	if err != nil {
		t.Fatal(err)
	}
	if call.Status != http.StatusNoContent || call.Host != "discord.com" {
		t.Errorf("callback call = %d to %q, want 204 to discord.com", call.Status, call.Host)
	}
	noViolations(t, srv)
}

func TestSubcommandAndChoices(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, discordgo.IntentsGuilds)
	register(t, srv, s)
	alice := srv.AddUser("Alice")
	s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		sub := i.ApplicationCommandData().Options[0]
		_ = s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: sub.Name + "=" + sub.GetOption("style").StringValue(), Flags: discordgo.MessageFlagsEphemeral},
		})
	})
	open(t, srv, s)
	ctx := testContext(t)
	style := discordtest.Option{Name: "style", Options: []discordtest.Option{{Name: "style", Value: "png"}}}
	resp, err := srv.Invoke(ctx, alice.ID, "", "board", style)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "style=png" || !resp.Ephemeral() {
		t.Fatalf("response = %q ephemeral=%v", resp.Content, resp.Ephemeral())
	}
	bad := discordtest.Option{Name: "style", Options: []discordtest.Option{{Name: "style", Value: "gif"}}}
	if _, err := srv.SendCommand(alice.ID, "", "board", bad); err == nil {
		t.Fatal("a value outside the registered choices was dispatched")
	}
	noViolations(t, srv)
}

func TestInvocationsDiscordWouldNotSend(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, discordgo.IntentsGuilds)
	register(t, srv, s)
	perm := int64(discordgo.PermissionManageGuild)
	if _, err := s.ApplicationCommandCreate(srv.AppID(), "", &discordgo.ApplicationCommand{Name: "admin", Description: "Referees only", DefaultMemberPermissions: &perm}); err != nil {
		t.Fatal(err)
	}
	alice := srv.AddUser("Alice")
	open(t, srv, s)
	tests := []struct {
		name string
		cmd  string
		opts []discordtest.Option
	}{
		{"unregistered command", "nope", nil},
		{"unknown option", "ping", []discordtest.Option{{Name: "word", Value: "x"}, {Name: "extra", Value: "y"}}},
		{"wrong type", "ping", []discordtest.Option{{Name: "word", Value: 3}}},
		{"missing required", "play", []discordtest.Option{{Name: "level", Value: 2}}},
		{"focused outside autocomplete", "play", []discordtest.Option{{Name: "game", Value: "hi", Focused: true}}},
		{"unknown user", "ping", []discordtest.Option{{Name: "word", Value: "x"}, {Name: "who", Value: "123"}}},
		{"hidden by default_member_permissions", "admin", nil},
	}
	for _, tc := range tests {
		if _, err := srv.SendCommand(alice.ID, "", tc.cmd, tc.opts...); err == nil {
			t.Errorf("%s: dispatched, want refused", tc.name)
		}
	}
	if _, err := srv.SendCommand(srv.Guild().OwnerID, "", "admin"); err != nil {
		t.Errorf("the guild owner cannot use /admin: %v", err)
	}
}

func TestLateResponseIsViolation(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, discordgo.IntentsGuilds)
	register(t, srv, s)
	alice := srv.AddUser("Alice")
	release := make(chan struct{})
	errs := make(chan error, 1)
	s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		<-release
		errs <- s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "too late"},
		})
	})
	open(t, srv, s)
	in, err := srv.SendCommand(alice.ID, "", "ping", discordtest.Option{Name: "word", Value: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.WaitForGateway(testContext(t), func(e discordtest.GatewayEvent) bool {
		return e.Type == "INTERACTION_CREATE"
	}); err != nil {
		t.Fatal(err)
	}
	srv.Advance(3100 * time.Millisecond)
	if v := srv.Violations(); len(v) != 1 || !strings.HasPrefix(v[0], "unanswered:") {
		t.Fatalf("before the answer, violations = %v, want one unanswered", v)
	}
	close(release)
	err = <-errs
	if status, code := restCode(err); status != 404 || code != 10062 {
		t.Fatalf("late respond error = %v, want 404 Unknown interaction (10062)", err)
	}
	v := srv.Violations()
	if len(v) != 1 || !strings.HasPrefix(v[0], "late-response:") {
		t.Fatalf("violations = %v, want exactly one late-response", v)
	}
	if _, err := srv.WaitForResponse(testContext(t), in.ID); err == nil {
		t.Fatal("WaitForResponse succeeded for a late answer")
	}
}

func TestSecondResponseIsRefused(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, discordgo.IntentsGuilds)
	register(t, srv, s)
	alice := srv.AddUser("Alice")
	errs := make(chan error, 1)
	s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		r := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
		if err := s.InteractionRespond(i.Interaction, r); err != nil {
			errs <- err
			return
		}
		errs <- s.InteractionRespond(i.Interaction, r)
	})
	open(t, srv, s)
	if _, err := srv.SendCommand(alice.ID, "", "ping", discordtest.Option{Name: "word", Value: "x"}); err != nil {
		t.Fatal(err)
	}
	if status, code := restCode(<-errs); status != 400 || code != 40060 {
		t.Fatalf("second response: status %d code %d, want 400 40060", status, code)
	}
	expectViolation(t, srv, 0, "duplicate-response")
}

func TestDeferThenFollowupAndTokenExpiry(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, discordgo.IntentsGuilds)
	register(t, srv, s)
	alice := srv.AddUser("Alice")
	interactions := make(chan *discordgo.Interaction, 1)
	s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		if err := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral},
		}); err != nil {
			t.Errorf("defer: %v", err)
		}
		interactions <- i.Interaction
	})
	open(t, srv, s)
	ctx := testContext(t)
	in, err := srv.SendCommand(alice.ID, "", "ping", discordtest.Option{Name: "word", Value: "x"})
	if err != nil {
		t.Fatal(err)
	}
	i := <-interactions
	resp, err := srv.WaitForResponse(ctx, in.ID)
	if err != nil {
		t.Fatal(err)
	}
	loading, _ := srv.Message(resp.MessageID)
	if !loading.Loading() || !loading.Ephemeral() {
		t.Fatalf("deferred message flags = %d, want loading and ephemeral", loading.Flags)
	}

	// The first followup completes the deferred message and keeps it
	// ephemeral, whatever its own flags say.
	first, err := s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "done"})
	if err != nil {
		t.Fatal(err)
	}
	if first.ID != resp.MessageID || first.Flags&discordgo.MessageFlagsEphemeral == 0 || first.Flags&discordgo.MessageFlagsLoading != 0 {
		t.Fatalf("first followup = id %s flags %d, want the original %s, ephemeral, not loading", first.ID, first.Flags, resp.MessageID)
	}
	second, err := s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "public"})
	if err != nil {
		t.Fatal(err)
	}
	if second.ID == first.ID || second.Flags&discordgo.MessageFlagsEphemeral != 0 {
		t.Fatalf("second followup = %+v, want a new public message", second)
	}
	edited, err := s.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: ptr("edited")})
	if err != nil || edited.Content != "edited" || edited.EditedTimestamp == nil {
		t.Fatalf("edit @original = %+v, %v", edited, err)
	}
	noViolations(t, srv)

	// Fifteen minutes later the token is dead.
	srv.Advance(15*time.Minute + time.Second)
	_, err = s.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: ptr("too late")})
	if status, code := restCode(err); status != 401 || code != 50027 {
		t.Fatalf("edit after 15 min: %v, want 401 Invalid Webhook Token (50027)", err)
	}
	expectViolation(t, srv, 0, "expired-token")
	if fu := srv.Followups(in.ID); len(fu) != 1 || fu[0].Content != "public" {
		t.Errorf("followups = %+v, want the one public message", fu)
	}
}

func ptr[T any](v T) *T { return &v }

func TestAutocompleteChoicesLimit(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, discordgo.IntentsGuilds)
	register(t, srv, s)
	alice := srv.AddUser("Alice")
	results := make(chan error, 2)
	focusedValues := make(chan any, 2)
	s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		var focused *discordgo.ApplicationCommandInteractionDataOption
		for _, o := range i.ApplicationCommandData().Options {
			if o.Focused {
				focused = o
			}
		}
		focusedValues <- focused.Value
		n := 25
		if focused.Name == "level" {
			n = 26
		}
		var choices []*discordgo.ApplicationCommandOptionChoice
		for k := range n {
			var v any = fmt.Sprintf("game-%d", k)
			if focused.Name == "level" {
				v = k
			}
			choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: fmt.Sprint("choice ", k), Value: v})
		}
		results <- s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: choices},
		})
	})
	open(t, srv, s)
	ctx := testContext(t)

	in, err := srv.SendAutocomplete(alice.ID, "", "play", discordtest.Option{Name: "game", Value: "hi", Focused: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := <-results; err != nil {
		t.Fatalf("25 choices refused: %v", err)
	}
	resp, err := srv.WaitForResponse(ctx, in.ID)
	if err != nil || len(resp.Choices) != 25 || resp.Type != discordtest.CallbackAutocomplete {
		t.Fatalf("autocomplete response = %+v, %v", resp, err)
	}
	if v := <-focusedValues; v != "hi" {
		t.Fatalf("focused value = %v", v)
	}

	// An integer option's partial input still arrives as a string.
	if _, err := srv.SendAutocomplete(alice.ID, "", "play", discordtest.Option{Name: "game", Value: "hique"}, discordtest.Option{Name: "level", Value: 3, Focused: true}); err != nil {
		t.Fatal(err)
	}
	if v := <-focusedValues; v != "3" {
		t.Fatalf("focused integer value = %#v, want the string \"3\"", v)
	}
	if status, _ := restCode(<-results); status != 400 {
		t.Fatalf("26 choices: status %d, want 400", status)
	}
	expectViolation(t, srv, 0, "invalid-request")
}

func TestReconnectResumesAndReplaysMissedEvents(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, discordgo.IntentsGuilds)
	register(t, srv, s)
	alice := srv.AddUser("Alice")
	var mu sync.Mutex
	var seen []string
	s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		mu.Lock()
		seen = append(seen, i.ID)
		mu.Unlock()
		_ = s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "ok"},
		})
	})
	open(t, srv, s)
	ctx := testContext(t)
	before := srv.Sessions()[0]

	srv.RequestReconnect()
	// Dispatched while the bot reconnects: kept and replayed on RESUME.
	in, err := srv.SendCommand(alice.ID, "", "ping", discordtest.Option{Name: "word", Value: "missed"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.WaitForGateway(ctx, func(e discordtest.GatewayEvent) bool { return e.Type == "RESUMED" }); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.WaitForResponse(ctx, in.ID); err != nil {
		t.Fatal(err)
	}
	after := srv.Sessions()
	if len(after) != 1 || after[0].ID != before.ID || after[0].Resumes != 1 || !after[0].Connected {
		t.Fatalf("sessions after reconnect = %+v, want %s resumed once", after, before.ID)
	}
	if n := len(srv.Identifies()); n != 1 {
		t.Errorf("%d identifies, want 1 (the bot should resume, not identify)", n)
	}
	resume, err := srv.WaitForGateway(ctx, func(e discordtest.GatewayEvent) bool { return e.FromClient && e.Op == 6 })
	if err != nil || !bytes.Contains(resume.Data, []byte(before.ID)) {
		t.Fatalf("RESUME frame = %s, %v", resume.Data, err)
	}
	// Live events still flow after the resume.
	if _, err := srv.Invoke(ctx, alice.ID, "", "ping", discordtest.Option{Name: "word", Value: "live"}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if len(seen) != 2 {
		t.Errorf("bot saw %d interactions, want 2 (each once)", len(seen))
	}
	mu.Unlock()
	noViolations(t, srv)
}

func TestDroppedConnectionResumes(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, discordgo.IntentsGuilds)
	register(t, srv, s)
	alice := srv.AddUser("Alice")
	s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		_ = s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		})
	})
	open(t, srv, s)
	ctx := testContext(t)
	srv.DropConnections()
	in, err := srv.SendCommand(alice.ID, "", "ping", discordtest.Option{Name: "word", Value: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.WaitForResponse(ctx, in.ID); err != nil {
		t.Fatal(err)
	}
	if ss := srv.Sessions(); len(ss) != 1 || ss[0].Resumes != 1 {
		t.Fatalf("sessions = %+v, want one resumed session", ss)
	}
	noViolations(t, srv)
}

func TestInvalidSessionReidentifies(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, discordgo.IntentsGuilds)
	register(t, srv, s)
	alice := srv.AddUser("Alice")
	s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		_ = s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "ok"},
		})
	})
	open(t, srv, s)
	ctx := testContext(t)
	old := srv.Sessions()[0]
	srv.InvalidateSession(false)
	fresh, err := srv.WaitForSession(ctx, func(ss discordtest.Session) bool { return ss.ID != old.ID && ss.Connected })
	if err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Identifies()); n != 2 {
		t.Fatalf("%d identifies, want 2", n)
	}
	for _, ss := range srv.Sessions() {
		if ss.ID == old.ID && !ss.Invalid {
			t.Fatalf("old session %s still valid", old.ID)
		}
	}
	if _, err := srv.Invoke(ctx, alice.ID, "", "ping", discordtest.Option{Name: "word", Value: "x"}); err != nil {
		t.Fatalf("command after re-identify on %s: %v", fresh.ID, err)
	}
	noViolations(t, srv)
}

func TestRateLimitIsRetried(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, 0)
	channel := srv.Guild().DefaultChannelID
	for _, global := range []bool{false, true} {
		srv.InjectRateLimit(discordtest.RateLimit{Route: discordtest.RouteMessageCreate, RetryAfter: 300 * time.Millisecond, Global: global})
		start := len(srv.Calls())
		m, err := s.ChannelMessageSend(channel, "after the limit")
		if err != nil {
			t.Fatalf("global=%v: send after 429: %v", global, err)
		}
		calls := srv.Calls()[start:]
		if len(calls) != 2 || calls[0].Status != 429 || !calls[0].Injected || calls[1].Status != 200 {
			t.Fatalf("global=%v: calls = %+v, want 429 then 200", global, calls)
		}
		if gap := calls[1].At.Sub(calls[0].At); gap < 300*time.Millisecond {
			t.Errorf("global=%v: retried after %v, before retry_after", global, gap)
		}
		if got, _ := srv.Message(m.ID); got.Content != "after the limit" {
			t.Errorf("global=%v: message = %+v", global, got)
		}
	}
	if err := srv.InjectFailure(discordtest.RouteMessageCreate, 502, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ChannelMessageSend(channel, "after a 502"); err != nil {
		t.Fatalf("discordgo did not retry the 502: %v", err)
	}
	noViolations(t, srv)
}

func TestMessageLimits(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token, MaxUploadBytes: 1024})
	s := newSession(t, srv, 0)
	channel := srv.Guild().DefaultChannelID
	button := func(id, label string) discordgo.MessageComponent {
		return discordgo.Button{CustomID: id, Label: label, Style: discordgo.PrimaryButton}
	}
	row := func(cs ...discordgo.MessageComponent) discordgo.MessageComponent {
		return discordgo.ActionsRow{Components: cs}
	}
	rows := func(n int) []discordgo.MessageComponent {
		var out []discordgo.MessageComponent
		for k := range n {
			out = append(out, row(button(fmt.Sprint("b", k), "B")))
		}
		return out
	}
	buttons := func(n int) []discordgo.MessageComponent {
		var out []discordgo.MessageComponent
		for k := range n {
			out = append(out, button(fmt.Sprint("b", k), "B"))
		}
		return out
	}
	embeds := func(n, size int) []*discordgo.MessageEmbed {
		var out []*discordgo.MessageEmbed
		for range n {
			out = append(out, &discordgo.MessageEmbed{Description: strings.Repeat("e", size)})
		}
		return out
	}
	tests := []struct {
		name   string
		msg    *discordgo.MessageSend
		status int
		code   int
	}{
		{"2000 characters", &discordgo.MessageSend{Content: strings.Repeat("é", 2000)}, 200, 0},
		{"2001 characters", &discordgo.MessageSend{Content: strings.Repeat("x", 2001)}, 400, 50035},
		{"empty", &discordgo.MessageSend{}, 400, 50006},
		{"components only", &discordgo.MessageSend{Components: rows(1)}, 400, 50006},
		{"5 rows of buttons", &discordgo.MessageSend{Content: "x", Components: rows(5)}, 200, 0},
		{"6 rows", &discordgo.MessageSend{Content: "x", Components: rows(6)}, 400, 50035},
		{"5 buttons in a row", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(buttons(5)...)}}, 200, 0},
		{"6 buttons in a row", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(buttons(6)...)}}, 400, 50035},
		{"custom_id of 100", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(button(strings.Repeat("c", 100), "B"))}}, 200, 0},
		{"custom_id of 101", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(button(strings.Repeat("c", 101), "B"))}}, 400, 50035},
		{"label of 81", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(button("b", strings.Repeat("l", 81)))}}, 400, 50035},
		{"duplicate custom_id", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(button("b", "1"), button("b", "2"))}}, 400, 50035},
		{"button without custom_id", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(button("", "B"))}}, 400, 50035},
		{"link button", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{row(discordgo.Button{Label: "Rules", Style: discordgo.LinkButton, URL: "https://example.org"})}}, 200, 0},
		{"bare button outside a row", &discordgo.MessageSend{Content: "x", Components: []discordgo.MessageComponent{button("b", "B")}}, 400, 50035},
		{"10 embeds", &discordgo.MessageSend{Embeds: embeds(10, 10)}, 200, 0},
		{"11 embeds", &discordgo.MessageSend{Embeds: embeds(11, 10)}, 400, 50035},
		{"embeds over 6000", &discordgo.MessageSend{Embeds: embeds(2, 3001)}, 400, 50035},
		{"file of 1024 bytes", &discordgo.MessageSend{Files: []*discordgo.File{{Name: "a.png", ContentType: "image/png", Reader: bytes.NewReader(make([]byte, 1024))}}}, 200, 0},
		{"file of 1025 bytes", &discordgo.MessageSend{Files: []*discordgo.File{{Name: "a.png", ContentType: "image/png", Reader: bytes.NewReader(make([]byte, 1025))}}}, 413, 40005},
		{"users in parse and list", &discordgo.MessageSend{Content: "x", AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{discordgo.AllowedMentionTypeUsers}, Users: []string{"1"}}}, 400, 50035},
	}
	for _, tc := range tests {
		before := len(srv.Violations())
		_, err := s.ChannelMessageSendComplex(channel, tc.msg)
		status, code := restCode(err)
		if err == nil {
			status = 200
		}
		if status != tc.status || code != tc.code {
			t.Errorf("%s: status %d code %d (%v), want %d %d", tc.name, status, code, err, tc.status, tc.code)
			continue
		}
		after := len(srv.Violations())
		if (tc.status != 200) != (after == before+1) {
			t.Errorf("%s: violations went from %d to %d", tc.name, before, after)
		}
	}
}

func TestAllowedMentionsRecorded(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, 0)
	alice, bob := srv.AddUser("Alice"), srv.AddUser("Bob")
	role, err := srv.AddRole("", "Referee", 0)
	if err != nil {
		t.Fatal(err)
	}
	channel := srv.Guild().DefaultChannelID
	content := fmt.Sprintf("<@%s> <@!%s> <@&%s> @everyone <@999>", alice.ID, bob.ID, role.ID)
	tests := []struct {
		name     string
		allowed  *discordgo.MessageAllowedMentions
		users    []string
		roles    []string
		everyone bool
	}{
		{"absent: everything", nil, []string{alice.ID, bob.ID}, []string{role.ID}, true},
		{"empty: nothing", &discordgo.MessageAllowedMentions{}, nil, nil, false},
		{"one user", &discordgo.MessageAllowedMentions{Users: []string{alice.ID}}, []string{alice.ID}, nil, false},
		{"parse users and roles", &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{discordgo.AllowedMentionTypeUsers, discordgo.AllowedMentionTypeRoles}}, []string{alice.ID, bob.ID}, []string{role.ID}, false},
	}
	for _, tc := range tests {
		m, err := s.ChannelMessageSendComplex(channel, &discordgo.MessageSend{Content: content, AllowedMentions: tc.allowed})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got, _ := srv.Message(m.ID)
		if !slices.Equal(got.Pings.Users, tc.users) || !slices.Equal(got.Pings.Roles, tc.roles) || got.Pings.Everyone != tc.everyone {
			t.Errorf("%s: pings = %+v, want users %v roles %v everyone %v", tc.name, got.Pings, tc.users, tc.roles, tc.everyone)
		}
		if len(m.Mentions) != len(tc.users) {
			t.Errorf("%s: message.mentions has %d users, want %d", tc.name, len(m.Mentions), len(tc.users))
		}
	}
	// A reply pings the replied-to author only when replied_user allows.
	first, err := s.ChannelMessageSend(channel, "hello")
	if err != nil {
		t.Fatal(err)
	}
	reply, err := s.ChannelMessageSendComplex(channel, &discordgo.MessageSend{
		Content: "re", Reference: first.Reference(), AllowedMentions: &discordgo.MessageAllowedMentions{},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := srv.Message(reply.ID); got.ReferenceID != first.ID || got.Type != 19 || len(got.Pings.Users) != 0 {
		t.Errorf("reply = %+v", got)
	}
	// Editing never notifies.
	edited, err := s.ChannelMessageEdit(channel, first.ID, "<@"+alice.ID+">")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := srv.Message(edited.ID); len(got.Pings.Users) != 0 || got.Edits != 1 {
		t.Errorf("edited message pings = %+v edits %d", got.Pings, got.Edits)
	}
	noViolations(t, srv)
}

func TestButtonsAndUpdateMessage(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, discordgo.IntentsGuilds)
	alice := srv.AddUser("Alice")
	pressed := make(chan *discordgo.InteractionCreate, 1)
	s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		if i.Type != discordgo.InteractionMessageComponent {
			return
		}
		err := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseUpdateMessage,
			Data: &discordgo.InteractionResponseData{
				Content: "accepted by " + i.Member.User.Username,
				Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.Button{CustomID: "accept:g1:1", Label: "Accept", Disabled: true},
				}}},
			},
		})
		if err != nil {
			t.Errorf("update: %v", err)
		}
		pressed <- i
	})
	open(t, srv, s)
	msg, err := s.ChannelMessageSendComplex(srv.Guild().DefaultChannelID, &discordgo.MessageSend{
		Content: "Challenge!",
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{CustomID: "accept:g1:1", Label: "Accept", Style: discordgo.SuccessButton},
			discordgo.Button{CustomID: "decline:g1:1", Label: "Decline", Style: discordgo.DangerButton},
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.PressButton(alice.ID, msg.ID, "nope"); err == nil {
		t.Fatal("pressing a button that is not on the message was dispatched")
	}
	in, err := srv.PressButton(alice.ID, msg.ID, "accept:g1:1")
	if err != nil {
		t.Fatal(err)
	}
	i := <-pressed
	data := i.MessageComponentData()
	if data.CustomID != "accept:g1:1" || i.Message == nil || i.Message.ID != msg.ID || len(i.Message.Components) != 1 {
		t.Fatalf("component interaction = %+v on %+v", data, i.Message)
	}
	resp, err := srv.WaitForResponse(testContext(t), in.ID)
	if err != nil || resp.MessageID != msg.ID {
		t.Fatalf("response = %+v, %v", resp, err)
	}
	got, _ := srv.Message(msg.ID)
	if got.Content != "accepted by alice" || len(got.Buttons()) != 1 || !got.Buttons()[0].Disabled {
		t.Fatalf("updated message = %+v", got)
	}
	if _, err := srv.PressButton(alice.ID, msg.ID, "accept:g1:1"); err == nil {
		t.Fatal("a disabled button was pressed")
	}
	noViolations(t, srv)
}

func TestThreadsArchiveAndUnarchive(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, discordgo.IntentsGuilds)
	open(t, srv, s)
	channel := srv.Guild().DefaultChannelID
	if _, err := s.ThreadStart(channel, "default type", 0, 60); !isCode(err, 403, 50013) {
		t.Fatalf("private thread without Create Private Threads: %v, want 50013", err)
	}
	expectViolation(t, srv, 0, "forbidden")
	bot, _ := srv.BotRole("")
	if err := srv.SetRolePermissions(bot.ID, bot.Permissions|discordtest.PermCreatePrivateThreads); err != nil {
		t.Fatal(err)
	}

	private, err := s.ThreadStart(channel, "default type", 0, 60)
	if err != nil {
		t.Fatal(err)
	}
	if private.Type != discordgo.ChannelTypeGuildPrivateThread {
		t.Errorf("thread without a type is %d, want a private thread (API v9 default)", private.Type)
	}
	thread, err := s.ThreadStartComplex(channel, &discordgo.ThreadStart{Name: "hique: alice vs bob", Type: discordgo.ChannelTypeGuildPublicThread, AutoArchiveDuration: 10080})
	if err != nil {
		t.Fatal(err)
	}
	if thread.ThreadMetadata == nil || thread.ThreadMetadata.AutoArchiveDuration != 10080 || thread.ParentID != channel {
		t.Fatalf("thread = %+v", thread)
	}
	if _, err := s.ChannelMessageSend(thread.ID, "your move"); err != nil {
		t.Fatal(err)
	}
	start, err := s.ChannelMessageSend(channel, "a game")
	if err != nil {
		t.Fatal(err)
	}
	fromMsg, err := s.MessageThreadStart(channel, start.ID, "from a message", 1440)
	if err != nil || fromMsg.ID != start.ID {
		t.Fatalf("thread from message = %+v, %v; want the message's ID", fromMsg, err)
	}
	expectViolation(t, srv, 0, "forbidden") // the same one: nothing new
	if _, err := s.MessageThreadStart(channel, start.ID, "again", 1440); err == nil {
		t.Fatal("a second thread on one message was created")
	}
	expectViolation(t, srv, 1, "invalid-request")

	srv.Advance(7*24*time.Hour + time.Minute)
	if th, _ := srv.Channel(thread.ID); !th.Archived {
		t.Fatal("a week of silence did not archive the thread")
	}
	ctx := testContext(t)
	if _, err := srv.WaitForGateway(ctx, func(e discordtest.GatewayEvent) bool {
		return e.Type == "THREAD_UPDATE" && bytes.Contains(e.Data, []byte(thread.ID))
	}); err != nil {
		t.Fatal(err)
	}
	// threads.mdx: "Sending a message will automatically unarchive the
	// thread, unless the thread has been locked by a moderator."
	if _, err := s.ChannelMessageSend(thread.ID, "still there?"); err != nil {
		t.Fatalf("send to an archived thread: %v, want it unarchived by the post", err)
	}
	if th, _ := srv.Channel(thread.ID); th.Archived {
		t.Fatal("a post left its thread archived")
	}
	srv.Advance(7*24*time.Hour + time.Minute)
	archived := false
	if _, err := s.ChannelEdit(thread.ID, &discordgo.ChannelEdit{Archived: &archived}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ChannelMessageSend(thread.ID, "back"); err != nil {
		t.Fatalf("send after unarchive: %v", err)
	}
	if th, _ := srv.Channel(thread.ID); th.Archived || th.MessageCount != 3 {
		t.Fatalf("thread after unarchive = %+v", th)
	}
}

func TestPrivilegedIntentRefused(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, discordgo.IntentsGuilds|discordgo.IntentMessageContent)
	s.ShouldReconnectOnError = false
	if err := s.Open(); err == nil {
		_ = s.Close()
		t.Fatal("IDENTIFY with MESSAGE_CONTENT was accepted")
	}
	expectViolation(t, srv, 0, "gateway")
	ev, err := srv.WaitForGateway(testContext(t), func(e discordtest.GatewayEvent) bool { return e.CloseCode != 0 })
	if err != nil || ev.CloseCode != 4014 {
		t.Fatalf("close = %+v, %v; want 4014", ev, err)
	}
}

func TestShardsGetTheirGuildsInteractions(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	g0 := srv.Guild()
	var g1 discordtest.Guild
	for range 100 {
		srv.Advance(time.Millisecond)
		g := srv.AddGuild("Other")
		if shard(g.ID) != shard(g0.ID) {
			g1 = g
			break
		}
	}
	if g1.ID == "" {
		t.Fatal("no guild on the other shard")
	}
	alice := srv.AddUser("Alice")
	if err := srv.Join(g1.ID, alice.ID); err != nil {
		t.Fatal(err)
	}
	seen := map[int]chan string{0: make(chan string, 2), 1: make(chan string, 2)}
	for id := range 2 {
		s := newSession(t, srv, discordgo.IntentsGuilds)
		s.ShardID, s.ShardCount = id, 2
		if id == 0 {
			register(t, srv, s)
			if _, err := s.ApplicationCommandBulkOverwrite(srv.AppID(), "", testCommands); err != nil {
				t.Fatal(err)
			}
		}
		s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
			seen[id] <- i.GuildID
			_ = s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
		})
		if err := s.Open(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
	}
	ctx := testContext(t)
	for id := range 2 {
		if _, err := srv.WaitForSession(ctx, func(ss discordtest.Session) bool {
			return ss.Shard == [2]int{id, 2} && ss.Connected && ss.Heartbeats > 0
		}); err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range []discordtest.Guild{g0, g1} {
		if _, err := srv.Invoke(ctx, alice.ID, g.DefaultChannelID, "ping", discordtest.Option{Name: "word", Value: "x"}); err != nil {
			t.Fatal(err)
		}
		if got := <-seen[shard(g.ID)]; got != g.ID {
			t.Fatalf("shard %d got guild %s, want %s", shard(g.ID), got, g.ID)
		}
	}
	noViolations(t, srv)
}

func shard(guildID string) int {
	var id uint64
	fmt.Sscan(guildID, &id)
	return int((id >> 22) % 2)
}

func TestHTTPClientReachesFakeFromAnyHost(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	client := srv.HTTPClient()
	for _, url := range []string{"https://discord.com/api/v9/users/@me", "https://discordapp.com/api/v10/users/@me"} {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Header.Set("Authorization", "Bot "+token)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("%s: status %d", url, resp.StatusCode)
		}
	}
	noViolations(t, srv)
	req, _ := http.NewRequest(http.MethodGet, "https://discord.com/api/v9/users/@me", nil)
	req.Header.Set("Authorization", "Bot wrong")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Fatalf("wrong token: status %d", resp.StatusCode)
	}
	expectViolation(t, srv, 0, "unauthorized")
	req, _ = http.NewRequest(http.MethodGet, "https://discord.com/api/v9/voice/regions", nil)
	req.Header.Set("Authorization", "Bot "+token)
	resp, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	expectViolation(t, srv, 1, "unsupported")
}

// BenchmarkInteractionRoundTrip measures one slash command from dispatch to
// the recorded initial response, through a real discordgo session: the part
// of Discord's 3-second budget that the fake and discordgo take.
func BenchmarkInteractionRoundTrip(b *testing.B) {
	srv, err := discordtest.New(discordtest.Options{Token: token})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	s, err := discordgo.New("Bot " + token)
	if err != nil {
		b.Fatal(err)
	}
	s.Client, s.Dialer, s.Identify.Intents, s.LogLevel = srv.HTTPClient(), srv.Dialer(), discordgo.IntentsGuilds, -1
	if _, err := s.ApplicationCommandBulkOverwrite(srv.AppID(), "", testCommands); err != nil {
		b.Fatal(err)
	}
	s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		_ = s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "pong"},
		})
	})
	if err := s.Open(); err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := srv.WaitConnected(ctx); err != nil {
		b.Fatal(err)
	}
	alice := srv.AddUser("Alice")
	word := discordtest.Option{Name: "word", Value: "x"}
	var latency time.Duration
	for b.Loop() {
		resp, err := srv.Invoke(ctx, alice.ID, "", "ping", word)
		if err != nil {
			b.Fatal(err)
		}
		latency += resp.Latency
	}
	b.ReportMetric(float64(latency.Microseconds())/float64(b.N), "µs-to-answer/op")
}

// isCode reports whether err is a REST error with this status and code.
func isCode(err error, status, code int) bool {
	st, c := restCode(err)
	return st == status && c == code
}
