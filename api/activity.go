package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"arbiter/commands"
	"arbiter/internal/httplimit"
	"arbiter/store"
)

// ActivityConfig is what the Discord Activity's token exchange needs.
// With no ClientID and ClientSecret the exchange refuses every request.
type ActivityConfig struct {
	// ClientID is the application's id (DISCORD_CLIENT_ID), which the page's
	// SDK also needs.
	ClientID string
	// ClientSecret is the application's OAuth2 secret
	// (DISCORD_CLIENT_SECRET); never logged.
	ClientSecret string
	// BotToken is the bot's token (DISCORD_TOKEN), for Get Application
	// Activity Instance, which takes a Bot token.
	BotToken string
	// API is Discord's API base; default https://discord.com/api/v10.
	API string
	// Client makes the requests to Discord; default one with a 10 s
	// timeout.
	Client *http.Client
}

// activityRequest is what the Activity's page sends: the code its SDK's
// authorize gave, and the instance it runs in (the SDK's instanceId).
type activityRequest struct {
	Code     string `json:"code"`
	Instance string `json:"instance"`
}

// activityAnswer is the session the page then uses as a bearer token,
// and its game.
type activityAnswer struct {
	Session string `json:"session"`
	Game    string `json:"game"`
	User    string `json:"user"`
}

// activityInstance is Discord's Activity Instance object
// (resources/application.mdx, "Get Application Activity Instance").
type activityInstance struct {
	ApplicationID string `json:"application_id"`
	InstanceID    string `json:"instance_id"`
	Location      struct {
		Kind      string `json:"kind"`
		ChannelID string `json:"channel_id"`
		GuildID   string `json:"guild_id"`
	} `json:"location"`
	Users []string `json:"users"`
}

// How often the token exchange may be asked for, a minute: each asks
// Discord with the client secret, so a client address gets a few (an
// Activity opened again and again) and all together a class's worth.
const (
	activityPerAddress = 10
	activityInAll      = 120
)

// wellFormedID reports whether s looks like an OAuth2 authorization code
// or an Activity instance id: 1 to 128 letters, digits, '-' and '_'
// (Discord's codes are 30 letters and digits, topics/oauth2.mdx). Anything
// else is refused without asking Discord.
func wellFormedID(s string) bool {
	if len(s) == 0 || len(s) > 128 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// activityToken exchanges the Activity's OAuth2 code for the user, checks
// that the user is in the Activity instance, and starts a session for
// the game of the instance's channel. Every refusal changes nothing.
func (s *Server) activityToken(w http.ResponseWriter, r *http.Request) {
	cfg := s.activity
	if cfg.ClientID == "" || cfg.ClientSecret == "" {
		writeError(w, http.StatusNotFound, "no_activity", "this server has no Discord Activity (DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET are not set)")
		return
	}
	var req activityRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil || !wellFormedID(req.Code) || !wellFormedID(req.Instance) {
		writeError(w, http.StatusBadRequest, "bad_request", `send {"code": the SDK's authorize code, "instance": the SDK's instanceId}`)
		return
	}
	if !s.activityRate.take(httplimit.ClientAddress(r), s.now()) {
		w.Header().Set("Retry-After", "60")
		writeError(w, http.StatusTooManyRequests, "too_many", "too many sign-ins at once; close the Activity and open it again in a minute")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
	defer cancel()
	user, err := s.discordUser(ctx, req.Code)
	if err != nil {
		s.log.Info("activity: code refused", "err", err)
		writeError(w, http.StatusUnauthorized, "bad_code", "Discord did not accept this authorization; close the Activity and open it again")
		return
	}
	inst, err := s.activityInstance(ctx, req.Instance)
	if err != nil || !slices.Contains(inst.Users, user.ID) || inst.ApplicationID != cfg.ClientID {
		s.log.Info("activity: instance refused", "instance", req.Instance, "user", user.ID, "err", err)
		writeError(w, http.StatusForbidden, "not_in_instance", "you are not in this Activity; open it from the game's channel")
		return
	}
	g, err := s.svc.GameIn(ctx, inst.Location.ChannelID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, "no_game", "there is no game going on in this channel; /play starts one")
		return
	case err != nil:
		writeError(w, http.StatusServiceUnavailable, "unavailable", "the game cannot be read right now; try again")
		return
	case g.Guild != inst.Location.GuildID:
		writeError(w, http.StatusForbidden, "not_in_instance", "this Activity is not in the game's server")
		return
	}
	tok, _, err := s.newSession(r.Context(), grant{user: user, guild: g.Guild, channel: g.Channel, game: g.ID})
	if err != nil {
		writeError(w, http.StatusInternalServerError, "failed", "the session could not be made; try again")
		return
	}
	writeJSON(w, http.StatusOK, activityAnswer{Session: tok, Game: g.ID, User: user.ID})
}

// discordUser exchanges an authorization code (topics/oauth2.mdx,
// "Authorization Code Grant") and reads its user (GET /users/@me).
func (s *Server) discordUser(ctx context.Context, code string) (commands.User, error) {
	cfg := s.activity
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cfg.API+"/oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		return commands.User{}, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(cfg.ClientID, cfg.ClientSecret)
	var tok struct {
		AccessToken string `json:"access_token"`
		Scope       string `json:"scope"`
	}
	if err := s.discordJSON(req, &tok); err != nil {
		return commands.User{}, fmt.Errorf("token exchange: %w", err)
	}
	if !slices.Contains(strings.Fields(tok.Scope), "identify") {
		return commands.User{}, fmt.Errorf("token exchange: scope %q lacks identify", tok.Scope)
	}
	req, err = http.NewRequestWithContext(ctx, http.MethodGet, cfg.API+"/users/@me", nil)
	if err != nil {
		return commands.User{}, err
	}
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	var u struct {
		ID         string `json:"id"`
		Username   string `json:"username"`
		GlobalName string `json:"global_name"`
	}
	if err := s.discordJSON(req, &u); err != nil {
		return commands.User{}, fmt.Errorf("reading the user: %w", err)
	}
	if u.ID == "" {
		return commands.User{}, errors.New("reading the user: no id")
	}
	name := u.GlobalName
	if name == "" {
		name = u.Username
	}
	return commands.User{ID: u.ID, Name: name}, nil
}

// activityInstance looks an Activity instance up (resources/application.mdx,
// "Get Application Activity Instance"; a Bot token).
func (s *Server) activityInstance(ctx context.Context, instance string) (activityInstance, error) {
	cfg := s.activity
	var inst activityInstance
	req, err := http.NewRequestWithContext(ctx, http.MethodGet,
		cfg.API+"/applications/"+url.PathEscape(cfg.ClientID)+"/activity-instances/"+url.PathEscape(instance), nil)
	if err != nil {
		return inst, err
	}
	req.Header.Set("Authorization", "Bot "+cfg.BotToken)
	err = s.discordJSON(req, &inst)
	return inst, err
}

// discordJSON sends req to Discord and reads its JSON answer into v.
func (s *Server) discordJSON(req *http.Request, v any) error {
	resp, err := s.activity.Client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: %s: %.200s", req.Method, req.URL.Path, resp.Status, body)
	}
	return json.Unmarshal(body, v)
}
