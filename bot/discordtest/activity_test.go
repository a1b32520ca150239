package discordtest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"arbiter/bot/discordtest"

	"github.com/bwmarrin/discordgo"
)

// call sends a request to the fake as an Activity's backend would.
func call(t *testing.T, srv *discordtest.Server, method, path, auth, form string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(method, "https://discord.com/api/v10"+path, strings.NewReader(form))
	if form != "" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := srv.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var out map[string]any
	_ = json.Unmarshal(data, &out)
	return resp.StatusCode, out
}

// TestOAuthCodeExchange: a code serves once, within ten minutes, to the
// application's id and secret; its token reads its user with identify.
func TestOAuthCodeExchange(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token, ClientSecret: "secret"})
	ann := srv.AddUser("Ann")
	exchange := func(code, id, secret string) (int, map[string]any) {
		form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "client_id": {id}, "client_secret": {secret}}
		return call(t, srv, "POST", "/oauth2/token", "", form.Encode())
	}
	code := srv.AuthorizeCode(ann.ID, "identify")
	if status, out := exchange(code, srv.AppID(), "wrong"); status != 401 || out["error"] != "invalid_client" {
		t.Errorf("wrong secret: %d %v", status, out)
	}
	status, out := exchange(code, srv.AppID(), "secret")
	tok, _ := out["access_token"].(string)
	if status != 200 || tok == "" || out["scope"] != "identify" {
		t.Fatalf("exchange: %d %v", status, out)
	}
	if status, me := call(t, srv, "GET", "/users/@me", "Bearer "+tok, ""); status != 200 || me["id"] != ann.ID {
		t.Errorf("GET /users/@me with the token: %d %v", status, me)
	}
	if status, out := exchange(code, srv.AppID(), "secret"); status != 400 || out["error"] != "invalid_grant" {
		t.Errorf("the code again: %d %v", status, out)
	}
	if status, _ := call(t, srv, "GET", "/users/@me", "Bearer "+tok, ""); status != 401 {
		t.Errorf("the token of a replayed code still reads the user: %d", status)
	}
	late := srv.AuthorizeCode(ann.ID, "identify")
	srv.Advance(10*time.Minute + time.Second)
	if status, out := exchange(late, srv.AppID(), "secret"); status != 400 || out["error"] != "invalid_grant" {
		t.Errorf("a code after ten minutes: %d %v", status, out)
	}
	if status, out := exchange("made-up", srv.AppID(), "secret"); status != 400 || out["error"] != "invalid_grant" {
		t.Errorf("a made-up code: %d %v", status, out)
	}
	_, out = exchange(srv.AuthorizeCode(ann.ID, "guilds"), srv.AppID(), "secret")
	if status, _ := call(t, srv, "GET", "/users/@me", "Bearer "+out["access_token"].(string), ""); status != 401 {
		t.Errorf("a token without identify reads the user: %d", status)
	}
}

// TestActivityInstances: the lookup takes the bot's token and answers 404
// for an unknown instance.
func TestActivityInstances(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	ann := srv.AddUser("Ann")
	id, err := srv.StartActivity("", srv.Guild().DefaultChannelID, ann.ID)
	if err != nil {
		t.Fatal(err)
	}
	path := "/applications/" + srv.AppID() + "/activity-instances/" + id
	if status, _ := call(t, srv, "GET", path, "", ""); status != 401 {
		t.Errorf("without a token: %d; want 401", status)
	}
	status, out := call(t, srv, "GET", path, "Bot "+token, "")
	loc, _ := out["location"].(map[string]any)
	if status != 200 || out["instance_id"] != id || loc["channel_id"] != srv.Guild().DefaultChannelID || loc["guild_id"] != srv.Guild().ID {
		t.Errorf("lookup: %d %v", status, out)
	}
	if users, _ := out["users"].([]any); len(users) != 1 || users[0] != ann.ID {
		t.Errorf("users %v", out["users"])
	}
	if status, _ := call(t, srv, "GET", "/applications/"+srv.AppID()+"/activity-instances/i-unknown", "Bot "+token, ""); status != 404 {
		t.Errorf("an unknown instance: %d; want 404", status)
	}
}

// TestLaunchActivityOnlyWithActivities: a LAUNCH_ACTIVITY answer is taken
// when the application has Activities enabled, refused otherwise.
func TestLaunchActivityOnlyWithActivities(t *testing.T) {
	t.Parallel()
	for _, enabled := range []bool{false, true} {
		srv := discordtest.Start(t, discordtest.Options{Token: token, Activity: enabled})
		s := newSession(t, srv, discordgo.IntentsGuilds)
		register(t, srv, s)
		alice := srv.AddUser("Alice")
		errs := make(chan error, 1)
		s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
			errs <- s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseType(12)})
		})
		open(t, srv, s)
		if _, err := srv.SendCommand(alice.ID, "", "ping", discordtest.Option{Name: "word", Value: "x"}); err != nil {
			t.Fatal(err)
		}
		err := <-errs
		if enabled != (err == nil) {
			t.Errorf("Activities enabled %v: answering LAUNCH_ACTIVITY: %v", enabled, err)
		}
	}
}

// TestEntryPointRules: Activities bring one global Entry Point command; a
// guild one, a second one, or one with options is refused.
func TestEntryPointRules(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token, Activity: true})
	if _, ok := srv.EntryPoint(); !ok {
		t.Fatal("no default Entry Point command")
	}
	put := func(path, body string) int {
		req, _ := http.NewRequest("PUT", "https://discord.com/api/v10"+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bot "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := srv.HTTPClient().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	global := "/applications/" + srv.AppID() + "/commands"
	guild := "/applications/" + srv.AppID() + "/guilds/" + srv.Guild().ID + "/commands"
	entry := `{"type":4,"name":"launch","description":"Launch","handler":2}`
	if code := put(guild, "["+entry+"]"); code != 400 {
		t.Errorf("an Entry Point in a guild: %d; want 400", code)
	}
	if code := put(global, "["+entry+`,{"type":4,"name":"other","description":"x","handler":2}]`); code != 400 {
		t.Errorf("two Entry Points: %d; want 400", code)
	}
	if code := put(global, `[{"type":4,"name":"launch","description":"Launch","handler":3}]`); code != 400 {
		t.Errorf("a handler of 3: %d; want 400", code)
	}
	if code := put(global, "["+entry+"]"); code != 200 {
		t.Errorf("one Entry Point: %d; want 200", code)
	}
	if code := put(global, `[]`); code != 200 {
		t.Fatalf("an empty overwrite: %d", code)
	}
	if _, ok := srv.EntryPoint(); ok {
		t.Errorf("a bulk overwrite without it kept the Entry Point")
	}
}
