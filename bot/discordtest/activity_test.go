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
