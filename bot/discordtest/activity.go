package discordtest

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// This file is what a Discord Activity's backend meets: the OAuth2
// authorization code exchange (topics/oauth2.mdx, "Authorization Code
// Grant"), the current user by bearer token (resources/user.mdx, "Get
// Current User"), and the Activity instances (resources/application.mdx,
// "Get Application Activity Instance"). The Embedded App SDK's authorize
// runs in Discord's client; AuthorizeCode stands for it.

// Lifetimes of OAuth2 credentials. Discord does not document a code's
// lifetime; RFC 6749 section 4.1.2 (which topics/oauth2.mdx points to)
// recommends at most ten minutes, and the fake holds to that. An access
// token lives expires_in = 604800 s ("Access Token Response").
const (
	codeLife   = 10 * time.Minute
	accessLife = 604800 * time.Second
)

// oauthCode is an authorization code Discord's client gave an Activity.
type oauthCode struct {
	user   string
	scopes []string
	issued time.Time
	used   bool
	tokens []string // the access tokens it was exchanged for
}

// oauthToken is an access token.
type oauthToken struct {
	user    string
	scopes  []string
	expires time.Time
}

// activityRec is a running Activity instance.
type activityRec struct {
	id       string
	launchID string
	channel  string
	guild    string
	users    []string
}

// AuthorizeCode returns the code Discord's client gives the Embedded App
// SDK's authorize command when user consents to scopes: it can be
// exchanged once, within ten minutes, by the application's client id and
// secret.
func (s *Server) AuthorizeCode(userID string, scopes ...string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	code := "code-" + s.newIDLocked()
	s.oauthCodes[code] = &oauthCode{user: userID, scopes: slices.Clone(scopes), issued: s.nowLocked()}
	return code
}

// StartActivity runs an instance of the application's Activity in a
// guild channel with users connected to it, as a launch (the
// LAUNCH_ACTIVITY answer, or the Entry Point command) does. An empty id
// makes one in Discord's form, "i-LAUNCH-gc-GUILD-CHANNEL"; the SDK's
// DiscordSDKMock always says "123456789012345678". It returns the id.
func (s *Server) StartActivity(id, channelID string, userIDs ...string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, ok := s.channels[channelID]
	if !ok {
		return "", fmt.Errorf("discordtest: no channel %s", channelID)
	}
	launch := s.newIDLocked()
	if id == "" {
		id = fmt.Sprintf("i-%s-gc-%s-%s", launch, ch.GuildID, ch.ID)
	}
	s.activities[id] = &activityRec{id: id, launchID: launch, channel: ch.ID, guild: ch.GuildID, users: slices.Clone(userIDs)}
	return id, nil
}

// oauthError answers as an OAuth2 endpoint does (RFC 6749 section 5.2).
// It is not a breach: a backend meeting it was handed a bad code.
func oauthError(status int, code, desc string) *reply {
	return &reply{status: status, body: map[string]string{"error": code, "error_description": desc}}
}

// handleOAuthToken is POST /oauth2/token with grant_type
// authorization_code. "All calls to the OAuth2 endpoints require either
// HTTP Basic authentication or client_id and client_secret supplied in the
// form data body" (topics/oauth2.mdx, "Authorization Code Grant"); the
// body is form-encoded ("Access Token Exchange Example"). A code serves
// once (RFC 6749 section 4.1.2: a second use is refused, and the tokens
// it gave are revoked).
func (s *Server) handleOAuthToken(q *request) (*reply, *apiError) {
	if ct := q.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/x-www-form-urlencoded") {
		return oauthError(400, "invalid_request", "the body must be application/x-www-form-urlencoded"), nil
	}
	form, err := url.ParseQuery(string(q.body))
	if err != nil {
		return oauthError(400, "invalid_request", "malformed form body"), nil
	}
	id, secret, basic := parseBasic(q.header.Get("Authorization"))
	if !basic {
		id, secret = form.Get("client_id"), form.Get("client_secret")
	}
	if id != s.opts.AppID || s.opts.ClientSecret == "" || secret != s.opts.ClientSecret {
		return oauthError(401, "invalid_client", "Invalid client"), nil
	}
	if form.Get("grant_type") != "authorization_code" {
		return oauthError(400, "unsupported_grant_type", "Unsupported grant type"), nil
	}
	code, known := s.oauthCodes[form.Get("code")]
	now := s.nowLocked()
	switch {
	case !known:
		return oauthError(400, "invalid_grant", `Invalid "code" in request.`), nil
	case code.used:
		for _, t := range code.tokens {
			delete(s.oauthTokens, t)
		}
		return oauthError(400, "invalid_grant", `Invalid "code" in request.`), nil
	case now.Sub(code.issued) > codeLife:
		return oauthError(400, "invalid_grant", `Invalid "code" in request.`), nil
	}
	code.used = true
	tok := "access-" + s.newIDLocked()
	s.oauthTokens[tok] = &oauthToken{user: code.user, scopes: code.scopes, expires: now.Add(accessLife)}
	code.tokens = append(code.tokens, tok)
	return ok(map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": int(accessLife / time.Second),
		"refresh_token": "refresh-" + s.newIDLocked(), "scope": strings.Join(code.scopes, " ")}), nil
}

// parseBasic reads HTTP Basic credentials.
func parseBasic(header string) (id, secret string, ok bool) {
	r := http.Request{Header: http.Header{"Authorization": {header}}}
	return r.BasicAuth()
}

// userByBearer answers GET /users/@me for an OAuth2 access token: "For
// OAuth2, this requires the identify scope" (resources/user.mdx, "Get
// Current User").
func (s *Server) userByBearer(token string) (*reply, *apiError) {
	t, known := s.oauthTokens[token]
	if !known || s.nowLocked().After(t.expires) {
		return &reply{status: 401, body: map[string]any{"message": "401: Unauthorized", "code": 0}}, nil
	}
	if !slices.Contains(t.scopes, "identify") {
		return &reply{status: 401, body: map[string]any{"message": "401: Unauthorized", "code": 0}}, nil
	}
	u, found := s.users[t.user]
	if !found {
		return nil, unknownUser()
	}
	return ok(userJSON(u)), nil
}

// handleActivityInstance is Get Application Activity Instance: "The route
// requires a Bot token of the application. It returns a serialized active
// activity instance for the given application, if found, otherwise it
// returns a 404" (activities/development-guides/multiplayer-experience.mdx,
// "Using the Activity Instance API").
func (s *Server) handleActivityInstance(q *request) (*reply, *apiError) {
	a, found := s.activities[q.params["instance_id"]]
	if !found || q.params["application_id"] != s.opts.AppID {
		return nil, newError(404, 0, "not-found", "404: Not Found")
	}
	return ok(map[string]any{
		"application_id": s.opts.AppID,
		"instance_id":    a.id,
		"launch_id":      a.launchID,
		"location":       map[string]string{"id": "gc-" + a.guild + "-" + a.channel, "kind": "gc", "channel_id": a.channel, "guild_id": a.guild},
		"users":          slices.Clone(a.users),
	}), nil
}

// checkEntryPoint checks a PRIMARY_ENTRY_POINT command: "Entry Point
// commands can only be global", option-less, with a handler of 1
// (APP_HANDLER) or 2 (DISCORD_LAUNCH_ACTIVITY)
// (activities/development-guides/user-actions.mdx, "Setting Up an Entry
// Point Command"; application-commands.mdx, "Entry Point handlers"); the
// handler is for Entry Point commands only.
func checkEntryPoint(at func(string) string, c *AppCommand) *apiError {
	if c.Type != CommandEntryPoint {
		if c.Handler != 0 {
			return formError(at("handler"), "BASE_TYPE_INVALID", "handler is only for PRIMARY_ENTRY_POINT commands")
		}
		return nil
	}
	switch {
	case c.GuildID != "":
		return formError(at("type"), "APPLICATION_COMMAND_INVALID", "Entry Point commands can only be global")
	case len(c.Options) > 0:
		return formError(at("options"), "APPLICATION_COMMAND_INVALID", "Entry Point commands take no options")
	case c.Handler != 1 && c.Handler != 2:
		return formError(at("handler"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
	case !validCommandName(c.Name):
		return formError(at("name"), "APPLICATION_COMMAND_INVALID_NAME", fmt.Sprintf("Command name %q is invalid", c.Name))
	}
	return nil
}

// addDefaultEntryPointLocked is what enabling Activities does: "an Entry
// Point command (named "Launch") is automatically created for your app
// with DISCORD_LAUNCH_ACTIVITY (2) set as the Entry Point handler"
// (application-commands.mdx, "Default Entry Point command"). A global
// bulk overwrite "will overwrite all types of application commands"
// ("Bulk Overwrite Global Application Commands"), so one that leaves it
// out removes it.
func (s *Server) addDefaultEntryPointLocked() {
	s.commands[""] = append(s.commands[""], &AppCommand{ID: s.newIDLocked(), ApplicationID: s.opts.AppID,
		Version: s.newIDLocked(), Type: CommandEntryPoint, Name: "launch", Description: "Launch an Activity", Handler: 2})
}

// EntryPoint returns the application's Entry Point command, if it has one.
func (s *Server) EntryPoint() (AppCommand, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.commands[""] {
		if c.Type == CommandEntryPoint {
			return *c, true
		}
	}
	return AppCommand{}, false
}
