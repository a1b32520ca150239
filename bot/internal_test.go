package bot

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"arbiter/commands"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/open"

	"github.com/bwmarrin/discordgo"
)

func TestAppCommands(t *testing.T) {
	specs := []commands.CommandSpec{
		{Name: "play", Description: strings.Repeat("d", 120), Options: []commands.OptionSpec{
			{Name: "opponent", Description: "who", Type: commands.OptUser},
			{Name: "game", Description: "which", Type: commands.OptString, Required: true, Choices: []commands.Choice{{Name: "Sixes", Value: "sixes"}}},
			{Name: "level", Description: "how strong", Type: commands.OptInteger, Min: 1, Max: 5, Choices: []commands.Choice{{Name: "one", Value: "1"}}},
			{Name: "thread", Description: "where", Type: commands.OptBoolean},
		}},
		{Name: "referee", Description: "tools", Subcommands: []commands.CommandSpec{
			{Name: "abort", Description: "abort"},
			{Name: "extend", Description: "extend", Options: []commands.OptionSpec{{Name: "by", Description: "how long", Type: commands.OptString, Required: true}}},
		}},
	}
	got, err := appCommands(specs, true)
	if err != nil {
		t.Fatal(err)
	}
	play := got[0]
	if n := len([]rune(play.Description)); n != 100 || !strings.HasSuffix(play.Description, "…") {
		t.Errorf("description of %d characters: %q", n, play.Description)
	}
	var names []string
	for _, o := range play.Options {
		names = append(names, o.Name)
	}
	if strings.Join(names, " ") != "game opponent level thread" {
		t.Errorf("options in order %v, want the required one first, the rest as given", names)
	}
	level := play.Options[2]
	if level.Type != discordgo.ApplicationCommandOptionInteger || *level.MinValue != 1 || level.MaxValue != 5 || level.Choices[0].Value != int64(1) {
		t.Errorf("level = %+v (choice %#v)", level, level.Choices[0].Value)
	}
	if play.Options[0].Choices[0].Value != "sixes" || play.Options[1].Type != discordgo.ApplicationCommandOptionUser || play.Options[3].Type != discordgo.ApplicationCommandOptionBoolean {
		t.Errorf("options = %+v", play.Options)
	}
	ref := got[1]
	if len(ref.Options) != 2 || ref.Options[1].Type != discordgo.ApplicationCommandOptionSubCommand || ref.Options[1].Options[0].Name != "by" {
		t.Errorf("/referee = %+v", ref.Options)
	}
	if ref.Contexts == nil || len(*ref.Contexts) != 1 || (*ref.Contexts)[0] != discordgo.InteractionContextGuild {
		t.Errorf("contexts = %v, want guild only", ref.Contexts)
	}

	bad := []commands.CommandSpec{{Name: "x", Description: "x", Options: []commands.OptionSpec{
		{Name: "n", Description: "n", Type: commands.OptInteger, Choices: []commands.Choice{{Name: "two", Value: "two"}}},
	}}}
	if _, err := appCommands(bad, true); err == nil || !strings.Contains(err.Error(), `"two"`) {
		t.Errorf("a non-integer choice of an integer option: %v", err)
	}
	if guild, err := appCommands(specs, false); err != nil || guild[0].Contexts != nil || got[0].Contexts == nil {
		t.Errorf("contexts: global %v, guild %v (%v); want them on global commands only", got[0].Contexts, guild[0].Contexts, err)
	}
	if _, err := appCommands(commands.CommandSet(games.Registry().Names()), true); err != nil {
		t.Errorf("Arbiter's own command set: %v", err)
	}
}

func TestOutgoing(t *testing.T) {
	var buttons []commands.Button
	for i := range 27 {
		buttons = append(buttons, commands.Button{ID: fmt.Sprintf("board:1:%d", i+1), Label: "B", Style: commands.ButtonStyle(i % 4)})
	}
	tests := []struct {
		name     string
		msg      commands.Message
		text     string
		rows     []int
		files    []string
		mentions string
	}{
		{"plain", commands.Message{Text: "hi <@1>", Mentions: []string{"1"}}, "hi <@1>", nil, nil, `{"parse":[],"users":["1"],"replied_user":false}`},
		{"no mentions", commands.Message{Text: "hi <@1>"}, "hi <@1>", nil, nil, `{"parse":[],"replied_user":false}`},
		{"empty", commands.Message{}, "Done.", nil, nil, `{"parse":[],"replied_user":false}`},
		{"seven buttons", commands.Message{Text: "b", Buttons: buttons[:7]}, "b", []int{5, 2}, nil, ""},
		{"27 buttons", commands.Message{Text: "b", Buttons: buttons}, "b", []int{5, 5, 5, 5, 5}, nil, ""},
		{"2000 characters", commands.Message{Text: strings.Repeat("é", 2000)}, strings.Repeat("é", 2000), nil, nil, ""},
		{"2001 characters", commands.Message{Text: strings.Repeat("x", 2001), Files: []commands.File{{Name: "board.png", Data: []byte{1}}}},
			"The answer is longer than a Discord message; here it is as a file.", nil, []string{"message.txt", "board.png"}, ""},
	}
	for _, tc := range tests {
		out := outgoing(tc.msg)
		if out.text != tc.text {
			t.Errorf("%s: text %.40q, want %.40q", tc.name, out.text, tc.text)
		}
		var rows []int
		for _, c := range out.components {
			rows = append(rows, len(c.(discordgo.ActionsRow).Components))
		}
		if fmt.Sprint(rows) != fmt.Sprint(tc.rows) {
			t.Errorf("%s: rows %v, want %v", tc.name, rows, tc.rows)
		}
		var files []string
		for _, f := range out.files() {
			files = append(files, f.Name)
			if f.ContentType == "" {
				t.Errorf("%s: file %s without a content type", tc.name, f.Name)
			}
		}
		if fmt.Sprint(files) != fmt.Sprint(tc.files) {
			t.Errorf("%s: files %v, want %v", tc.name, files, tc.files)
		}
		if tc.mentions != "" {
			raw, _ := json.Marshal(out.allowed)
			if string(raw) != tc.mentions {
				t.Errorf("%s: allowed mentions %s, want %s", tc.name, raw, tc.mentions)
			}
		}
	}
	// Each request gets fresh readers.
	out := outgoing(commands.Message{Files: []commands.File{{Name: "a.txt", Data: []byte("abc")}}})
	for range 2 {
		data, _ := io.ReadAll(out.files()[0].Reader)
		if string(data) != "abc" {
			t.Fatalf("file read %q", data)
		}
	}
	styles := map[discordgo.ButtonStyle]bool{}
	for _, c := range outgoing(commands.Message{Buttons: buttons[:4]}).components[0].(discordgo.ActionsRow).Components {
		styles[c.(discordgo.Button).Style] = true
	}
	if len(styles) != 4 {
		t.Errorf("four button styles became %v", styles)
	}
}

func TestAutocompleteResponse(t *testing.T) {
	var many []commands.Choice
	for i := range 30 {
		many = append(many, commands.Choice{Name: strconv.Itoa(i), Value: strconv.Itoa(i)})
	}
	r := autocompleteResponse(many, discordgo.ApplicationCommandOptionInteger)
	if len(r.Data.Choices) != 25 || r.Data.Choices[3].Value != int64(3) {
		t.Errorf("30 choices became %d, first value %#v", len(r.Data.Choices), r.Data.Choices[0].Value)
	}
	r = autocompleteResponse([]commands.Choice{{Name: "a1 b1", Value: "a1 b1"}, {Name: "x", Value: strings.Repeat("v", 101)}}, discordgo.ApplicationCommandOptionString)
	if len(r.Data.Choices) != 1 {
		t.Errorf("a value over 100 characters was offered: %+v", r.Data.Choices)
	}
	raw, _ := json.Marshal(wire(autocompleteResponse(nil, discordgo.ApplicationCommandOptionString)))
	if string(raw) != `{"type":8,"data":{"choices":[]}}` {
		t.Errorf("no choices marshal as %s", raw)
	}
}

func TestOptionText(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{"4 2 4 10", "4 2 4 10"},
		{float64(3), "3"},
		{float64(-12), "-12"},
		{2.5, "2.5"},
		{true, "true"},
		{false, "false"},
		{json.Number("7"), "7"},
		{nil, ""},
		{[]any{1}, "[1]"},
	}
	for _, tc := range tests {
		if got := optionText(tc.in); got != tc.want {
			t.Errorf("optionText(%#v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDeferDelay(t *testing.T) {
	b := &Bot{cfg: Config{DeferAfter: 1500 * time.Millisecond}}
	now := time.Now()
	id := func(created time.Time) string {
		return strconv.FormatInt((created.UnixMilli()-1420070400000)<<22, 10)
	}
	tests := []struct {
		name    string
		id      string
		want    time.Duration
		epsilon time.Duration
	}{
		{"fresh", id(now), 1500 * time.Millisecond, 0},
		{"a second late", id(now.Add(-time.Second)), time.Second, 5 * time.Millisecond},
		{"late", id(now.Add(-2500 * time.Millisecond)), 0, 0},
		{"from the future", id(now.Add(time.Hour)), 1500 * time.Millisecond, 0},
		{"not a snowflake", "x", 1500 * time.Millisecond, 0},
	}
	for _, tc := range tests {
		got := b.deferDelay(&discordgo.Interaction{ID: tc.id}, now)
		if (got - tc.want).Abs() > tc.epsilon {
			t.Errorf("%s: defer after %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestRedact(t *testing.T) {
	tests := []struct{ url, want string }{
		{"https://discord.com/api/v9/interactions/123/SECRET/callback", "https://discord.com/api/v9/interactions/123/***/callback"},
		{"https://discord.com/api/v9/webhooks/456/SECRET/messages/@original", "https://discord.com/api/v9/webhooks/456/***/messages/@original"},
		{"https://discord.com/api/v9/webhooks/456/SECRET?wait=true", "https://discord.com/api/v9/webhooks/456/***"},
		{"https://discord.com/api/v9/channels/789/messages", "https://discord.com/api/v9/channels/789/messages"},
	}
	for _, tc := range tests {
		err := fmt.Errorf("complete: %w", &url.Error{Op: "Post", URL: tc.url, Err: errors.New("connection refused")})
		got := redact(err)
		if strings.Contains(got, "SECRET") || !strings.Contains(got, tc.want) || !strings.Contains(got, "connection refused") {
			t.Errorf("redact(%s) = %q, want %s and the cause", tc.url, got, tc.want)
		}
	}
}

// TestConfigLogValue: a Config in a log line shows no token.
func TestConfigLogValue(t *testing.T) {
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, nil)).Info("start", "config", Config{Token: "SECRET", AppID: "42"})
	if strings.Contains(buf.String(), "SECRET") || !strings.Contains(buf.String(), "config.app_id=42") {
		t.Errorf("logged %q", buf.String())
	}
}

// failingTransport answers every request with an error: a Discord that
// cannot be reached, so that nothing leaves the machine.
type failingTransport struct{}

func (failingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("no network in this test")
}

// FuzzServeHTTP posts signed bodies to the interactions endpoint: whatever
// they hold, it answers 200, 400, 401 or 409 (an id seen before) and never
// panics.
func FuzzServeHTTP(f *testing.F) {
	for _, seed := range []string{
		`{"id":"1","type":1,"token":"t","application_id":"2"}`,
		`{"id":"1","type":2,"token":"t","guild_id":"3","channel_id":"4","member":{"user":{"id":"5","username":"ann"},"roles":["6"],"permissions":"0"},"data":{"name":"help"}}`,
		`{"id":"1","type":2,"token":"t","guild_id":"3","channel_id":"4","member":{"user":{"id":"5","username":"ann"}},"data":{"name":"play","options":[{"name":"game","type":3,"value":"sixes"},{"name":"thread","type":5,"value":true}]}}`,
		`{"id":"1","type":2,"token":"t","guild_id":"3","channel_id":"4","member":{"user":{"id":"5"}},"data":{"name":"referee","options":[{"name":"start","type":1,"options":[{"name":"p1","type":6,"value":"7"},null]}],"resolved":{"users":{"7":null}}}}`,
		`{"id":"1","type":4,"token":"t","guild_id":"3","channel_id":"4","member":{"user":{"id":"5"}},"data":{"name":"move","options":[{"name":"move","type":3,"value":"a1","focused":true}]}}`,
		`{"id":"1","type":3,"token":"t","guild_id":"3","channel_id":"4","member":{"user":{"id":"5"}},"data":{"custom_id":"resign:1:9","component_type":2}}`,
		`{"id":"1","type":3,"token":"t","data":{"custom_id":"nonsense"}}`,
		`{"id":"1","type":2,"token":"t","member":null,"data":{"name":"move"}}`,
		`{"type":9}`,
		`[1,2]`,
		``,
	} {
		f.Add([]byte(seed))
	}
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		f.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	reg := games.Registry()
	st, err := open.Store(context.Background(), store.Config{DataDir: f.TempDir(), Registry: reg, Logger: log})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = st.Close(context.Background()) })
	cfg := Config{Token: "t", PublicKey: pub, Logger: log, HTTPClient: &http.Client{Transport: failingTransport{}}, LibraryLogLevel: -1}
	s, err := NewSession(cfg)
	if err != nil {
		f.Fatal(err)
	}
	s.MaxRestRetries = 0
	svc := commands.New(commands.Config{}, st, reg, NewNotifier(s, log), log, nil)
	b := New(cfg, s, svc)
	f.Fuzz(func(t *testing.T, body []byte) {
		ts := strconv.FormatInt(time.Now().Unix(), 10)
		sig := ed25519.Sign(priv, append([]byte(ts), body...))
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
		req.Header.Set("X-Signature-Timestamp", ts)
		rec := httptest.NewRecorder()
		b.ServeHTTP(rec, req)
		b.inflight.Wait() // the deferred completions too (Wait would end the bot)
		switch rec.Code {
		case http.StatusOK:
			var resp struct {
				Type int `json:"type"`
			}
			if ct := rec.Header().Get("Content-Type"); ct == "application/json" {
				if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil || resp.Type < 1 || resp.Type > 9 {
					t.Fatalf("200 with %q: %v", rec.Body.String(), err)
				}
			}
		case http.StatusBadRequest, http.StatusConflict:
		case http.StatusRequestEntityTooLarge:
			if len(body) <= maxInteractionBytes {
				t.Fatalf("413 for %d bytes", len(body))
			}
		default:
			t.Fatalf("status %d for %q: %s", rec.Code, body, rec.Body.String())
		}
	})
}

// FuzzSignatureHeaders: whatever the signature and timestamp headers
// hold, they are refused with a reason or give a 64-byte signature and a
// timestamp of digits only; never a panic.
func FuzzSignatureHeaders(f *testing.F) {
	f.Add(strings.Repeat("ab", 64), "1700000000")
	f.Add(strings.Repeat("AB", 64), "-1")
	f.Add("zz", "")
	f.Add(strings.Repeat("g", 128), "17e9")
	f.Fuzz(func(t *testing.T, sig, stamp string) {
		h := http.Header{}
		h.Set("X-Signature-Ed25519", sig)
		h.Set("X-Signature-Timestamp", stamp)
		got, ts, why := signatureHeaders(h)
		if why != "" {
			if got != nil || ts != "" {
				t.Fatalf("refused (%s) yet gave %x %q", why, got, ts)
			}
			return
		}
		if len(got) != ed25519.SignatureSize || ts == "" || strings.Trim(ts, "0123456789") != "" {
			t.Fatalf("accepted %q %q as %x %q", sig, stamp, got, ts)
		}
	})
}

// TestPanicsAreAnswered: a panic in the game flow still answers the
// interaction, a command privately and an autocomplete with no choices,
// and the process lives on.
func TestPanicsAreAnswered(t *testing.T) {
	// No game flow: every call into it panics.
	b := &Bot{cfg: Config{DeferAfter: 10 * time.Second, Now: time.Now}, log: slog.New(slog.NewTextHandler(io.Discard, nil)), roles: newRoleNames(nil, time.Now)}
	id := strconv.FormatInt((time.Now().UnixMilli()-1420070400000)<<22, 10)
	member := &discordgo.Member{User: &discordgo.User{ID: "5", Username: "ann"}}
	for _, typ := range []discordgo.InteractionType{discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete} {
		i := &discordgo.Interaction{ID: id, Type: typ, GuildID: "3", ChannelID: "4", Member: member, Data: discordgo.ApplicationCommandInteractionData{
			Name:    "move",
			Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: "move", Type: discordgo.ApplicationCommandOptionString, Value: "a1", Focused: true}},
		}}
		var got []*discordgo.InteractionResponse
		b.answer(i, time.Now(), func(r *discordgo.InteractionResponse) error {
			got = append(got, r)
			return nil
		}, nil)
		if len(got) != 1 {
			t.Fatalf("%s: %d answers, want 1", typ, len(got))
		}
		r := got[0]
		switch typ {
		case discordgo.InteractionApplicationCommand:
			if r.Type != discordgo.InteractionResponseChannelMessageWithSource || r.Data.Flags&discordgo.MessageFlagsEphemeral == 0 || !strings.Contains(r.Data.Content, "went wrong") {
				t.Errorf("command answered %+v, want a private apology", r.Data)
			}
		default:
			if r.Type != discordgo.InteractionApplicationCommandAutocompleteResult || len(r.Data.Choices) != 0 {
				t.Errorf("autocomplete answered %+v, want no choices", r)
			}
		}
	}
}
