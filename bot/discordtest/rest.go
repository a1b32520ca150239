package discordtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Routes the fake serves, as "METHOD /path" with Discord's parameters in
// braces. Call.Route holds one of these; InjectRateLimit and InjectFailure
// take them.
const (
	RouteGateway              = "GET /gateway"
	RouteGatewayBot           = "GET /gateway/bot"
	RouteUserMe               = "GET /users/@me"
	RouteUser                 = "GET /users/{user_id}"
	RouteDMCreate             = "POST /users/@me/channels"
	RouteGlobalCommands       = "GET /applications/{application_id}/commands"
	RouteGlobalCommandsPut    = "PUT /applications/{application_id}/commands"
	RouteGlobalCommandCreate  = "POST /applications/{application_id}/commands"
	RouteGlobalCommand        = "GET /applications/{application_id}/commands/{command_id}"
	RouteGlobalCommandDelete  = "DELETE /applications/{application_id}/commands/{command_id}"
	RouteGuildCommands        = "GET /applications/{application_id}/guilds/{guild_id}/commands"
	RouteGuildCommandsPut     = "PUT /applications/{application_id}/guilds/{guild_id}/commands"
	RouteGuildCommandCreate   = "POST /applications/{application_id}/guilds/{guild_id}/commands"
	RouteGuildCommand         = "GET /applications/{application_id}/guilds/{guild_id}/commands/{command_id}"
	RouteGuildCommandDelete   = "DELETE /applications/{application_id}/guilds/{guild_id}/commands/{command_id}"
	RouteInteractionCallback  = "POST /interactions/{interaction_id}/{interaction_token}/callback"
	RouteFollowupCreate       = "POST /webhooks/{application_id}/{interaction_token}"
	RouteWebhookMessage       = "GET /webhooks/{application_id}/{interaction_token}/messages/{message_id}"
	RouteWebhookMessageEdit   = "PATCH /webhooks/{application_id}/{interaction_token}/messages/{message_id}"
	RouteWebhookMessageDelete = "DELETE /webhooks/{application_id}/{interaction_token}/messages/{message_id}"
	RouteChannel              = "GET /channels/{channel_id}"
	RouteChannelEdit          = "PATCH /channels/{channel_id}"
	RouteChannelMessages      = "GET /channels/{channel_id}/messages"
	RouteMessageCreate        = "POST /channels/{channel_id}/messages"
	RouteMessage              = "GET /channels/{channel_id}/messages/{message_id}"
	RouteMessageEdit          = "PATCH /channels/{channel_id}/messages/{message_id}"
	RouteMessageDelete        = "DELETE /channels/{channel_id}/messages/{message_id}"
	RouteThreadFromMessage    = "POST /channels/{channel_id}/messages/{message_id}/threads"
	RouteThreadCreate         = "POST /channels/{channel_id}/threads"
	RouteThreadMemberAdd      = "PUT /channels/{channel_id}/thread-members/{user_id}"
	RouteTyping               = "POST /channels/{channel_id}/typing"
	RouteGuild                = "GET /guilds/{guild_id}"
	RouteGuildChannels        = "GET /guilds/{guild_id}/channels"
	RouteGuildRoles           = "GET /guilds/{guild_id}/roles"
	RouteGuildMember          = "GET /guilds/{guild_id}/members/{user_id}"
	RouteOAuthToken           = "POST /oauth2/token"
	RouteActivityInstance     = "GET /applications/{application_id}/activity-instances/{instance_id}"
)

// Discord's limits that the fake enforces.
const (
	maxEmbeds                  = 10
	maxEmbedTotal              = 6000
	maxContent                 = 2000
	maxAttachmentsPerMessage   = 10
	maxActionRows              = 5
	maxButtonsPerRow           = 5
	maxCustomID                = 100
	maxButtonLabel             = 80
	maxAutocompleteChoices     = 25
	maxAllowedMentionIDs       = 100
	maxSelectOptions           = 25
	maxCommandsPerScope        = 100
	maxCommandOptions          = 25
	maxThreadName              = 100
	defaultThreadArchiveMinute = 1440
)

// handler serves one route under the server lock.
type handler func(s *Server, q *request) (*reply, *apiError)

type route struct {
	name   string
	method string
	segs   []string
	auth   bool
	handle handler
}

type request struct {
	route     *route
	method    string
	path      string
	version   int
	params    map[string]string
	query     url.Values
	header    http.Header
	body      []byte
	files     []upload
	multipart bool
}

type upload struct {
	field       string
	filename    string
	contentType string
	data        []byte
}

type reply struct {
	status int
	body   any // marshalled as JSON; nil means no content
}

func ok(body any) *reply      { return &reply{status: http.StatusOK, body: body} }
func created(body any) *reply { return &reply{status: http.StatusCreated, body: body} }
func noContent() *reply       { return &reply{status: http.StatusNoContent} }

// apiError is an error answer in Discord's format. A non-empty kind makes
// it a violation.
type apiError struct {
	status  int
	code    int
	message string
	errors  map[string]any
	kind    string
	detail  string
}

// Error describes the answer and why it was given.
func (e *apiError) Error() string {
	if e.detail != "" {
		return e.message + ": " + e.detail
	}
	return e.message
}

func (e *apiError) body() map[string]any {
	b := map[string]any{"message": e.message, "code": e.code}
	if e.errors != nil {
		b["errors"] = e.errors
	}
	return b
}

func newError(status, code int, kind, message string) *apiError {
	return &apiError{status: status, code: code, message: message, kind: kind}
}

func unknownChannel() *apiError { return newError(404, 10003, "not-found", "Unknown Channel") }
func unknownMessage() *apiError { return newError(404, 10008, "not-found", "Unknown Message") }
func unknownGuild() *apiError   { return newError(404, 10004, "not-found", "Unknown Guild") }
func unknownUser() *apiError    { return newError(404, 10013, "not-found", "Unknown User") }

// cannotMessageUser is 50007 (topics/opcodes-and-status-codes.mdx, "JSON
// Error Codes": "Cannot send messages to this user").
func cannotMessageUser() *apiError {
	return newError(403, 50007, "forbidden", "Cannot send messages to this user")
}
func unknownMember() *apiError { return newError(404, 10007, "not-found", "Unknown Member") }
func unknownCommand() *apiError {
	return newError(404, 10063, "not-found", "Unknown application command")
}
func unknownWebhook() *apiError { return newError(404, 10015, "token-invalid", "Unknown Webhook") }
func unknownApp() *apiError     { return newError(404, 10002, "not-found", "Unknown Application") }
func archivedThread() *apiError { return newError(400, 50083, "archived-thread", "Thread is archived") }
func emptyMessage() *apiError {
	return newError(400, 50006, "invalid-request", "Cannot send an empty message")
}
func invalidJSON(err error) *apiError {
	e := newError(400, 50109, "invalid-request", "The request body contains invalid JSON.")
	e.detail = err.Error()
	return e
}

// formError is Discord's 50035 "Invalid Form Body" with the error at a
// dotted path ("components.0.components.1.custom_id").
func formError(path, code, message string) *apiError {
	leaf := map[string]any{"_errors": []any{map[string]any{"code": code, "message": message}}}
	tree := leaf
	parts := strings.Split(path, ".")
	for i := len(parts) - 1; i >= 0; i-- {
		tree = map[string]any{parts[i]: tree}
	}
	return &apiError{status: 400, code: 50035, message: "Invalid Form Body", errors: tree, kind: "invalid-request", detail: path + ": " + message}
}

func maxLen(path string, n int) *apiError {
	return formError(path, "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", n))
}

func required(path string) *apiError {
	return formError(path, "BASE_TYPE_REQUIRED", "This field is required")
}

func buildRoutes() []*route {
	table := []struct {
		name   string
		auth   bool
		handle handler
	}{
		{RouteGateway, false, (*Server).handleGateway},
		{RouteGatewayBot, true, (*Server).handleGatewayBot},
		{RouteUserMe, false, (*Server).handleUserMe}, // a Bot or a Bearer token
		{RouteOAuthToken, false, (*Server).handleOAuthToken},
		{RouteActivityInstance, true, (*Server).handleActivityInstance},
		{RouteUser, true, (*Server).handleUser},
		{RouteDMCreate, true, (*Server).handleDMCreate},
		{RouteGlobalCommands, true, (*Server).handleCommandsList},
		{RouteGlobalCommandsPut, true, (*Server).handleCommandsPut},
		{RouteGlobalCommandCreate, true, (*Server).handleCommandCreate},
		{RouteGlobalCommand, true, (*Server).handleCommandGet},
		{RouteGlobalCommandDelete, true, (*Server).handleCommandDelete},
		{RouteGuildCommands, true, (*Server).handleCommandsList},
		{RouteGuildCommandsPut, true, (*Server).handleCommandsPut},
		{RouteGuildCommandCreate, true, (*Server).handleCommandCreate},
		{RouteGuildCommand, true, (*Server).handleCommandGet},
		{RouteGuildCommandDelete, true, (*Server).handleCommandDelete},
		{RouteInteractionCallback, false, (*Server).handleCallback},
		{RouteFollowupCreate, false, (*Server).handleFollowup},
		{RouteWebhookMessage, false, (*Server).handleWebhookMessageGet},
		{RouteWebhookMessageEdit, false, (*Server).handleWebhookMessageEdit},
		{RouteWebhookMessageDelete, false, (*Server).handleWebhookMessageDelete},
		{RouteChannel, true, (*Server).handleChannelGet},
		{RouteChannelEdit, true, (*Server).handleChannelEdit},
		{RouteChannelMessages, true, (*Server).handleMessagesList},
		{RouteMessageCreate, true, (*Server).handleMessageCreate},
		{RouteMessage, true, (*Server).handleMessageGet},
		{RouteMessageEdit, true, (*Server).handleMessageEdit},
		{RouteMessageDelete, true, (*Server).handleMessageDelete},
		{RouteThreadFromMessage, true, (*Server).handleThreadFromMessage},
		{RouteThreadCreate, true, (*Server).handleThreadCreate},
		{RouteThreadMemberAdd, true, (*Server).handleThreadMemberAdd},
		{RouteTyping, true, (*Server).handleTyping},
		{RouteGuild, true, (*Server).handleGuildGet},
		{RouteGuildChannels, true, (*Server).handleGuildChannels},
		{RouteGuildRoles, true, (*Server).handleGuildRoles},
		{RouteGuildMember, true, (*Server).handleGuildMember},
	}
	out := make([]*route, 0, len(table))
	for _, t := range table {
		method, path, _ := strings.Cut(t.name, " ")
		out = append(out, &route{name: t.name, method: method, segs: strings.Split(strings.Trim(path, "/"), "/"), auth: t.auth, handle: t.handle})
	}
	return out
}

// matchRoute finds the route for a path. It reports whether any route has
// the path with another method (for 405).
func matchRoute(routes []*route, method string, segs []string) (*route, map[string]string, bool) {
	pathKnown := false
	for _, r := range routes {
		params, ok := matchSegs(r.segs, segs)
		if !ok {
			continue
		}
		if r.method != method {
			pathKnown = true
			continue
		}
		return r, params, true
	}
	return nil, nil, pathKnown
}

func matchSegs(pattern, segs []string) (map[string]string, bool) {
	if len(pattern) != len(segs) {
		return nil, false
	}
	var params map[string]string
	for i, p := range pattern {
		if strings.HasPrefix(p, "{") {
			if segs[i] == "" {
				return nil, false
			}
			if params == nil {
				params = map[string]string{}
			}
			params[strings.Trim(p, "{}")] = segs[i]
			continue
		}
		if p != segs[i] {
			return nil, false
		}
	}
	return params, true
}

// splitAPIPath strips "/api/vN/" and returns N and the path's segments.
func splitAPIPath(p string) (int, []string, error) {
	rest, ok := strings.CutPrefix(p, "/api/")
	if !ok {
		return 0, nil, fmt.Errorf("path %q is not under /api/", p)
	}
	version := 6 // Discord's default for unversioned paths
	if strings.HasPrefix(rest, "v") {
		vs, tail, _ := strings.Cut(rest[1:], "/")
		v, err := strconv.Atoi(vs)
		if err != nil {
			return 0, nil, fmt.Errorf("path %q: bad API version %q", p, vs)
		}
		version, rest = v, tail
	}
	if version != 9 && version != 10 {
		return version, nil, fmt.Errorf("API version %d is not served (use v9 or v10)", version)
	}
	return version, strings.Split(strings.Trim(rest, "/"), "/"), nil
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/gateway", "/gateway/":
		s.serveGateway(w, r, false)
		return
	case resumePath, resumePath + "/":
		s.serveGateway(w, r, true)
		return
	}
	s.serveREST(w, r)
}

func (s *Server) serveREST(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBytes+1))
	if err != nil {
		http.Error(w, "read body: "+err.Error(), http.StatusBadRequest)
		return
	}
	q := &request{method: r.Method, path: r.URL.Path, query: r.URL.Query(), header: r.Header}
	call := Call{Method: r.Method, Query: r.URL.RawQuery, Host: r.Host}

	var (
		rep  *reply
		aerr *apiError
		hdr  = http.Header{}
	)
	version, segs, perr := splitAPIPath(r.URL.Path)
	q.version = version
	call.Path = "/" + strings.Join(segs, "/")
	if perr != nil {
		call.Path = r.URL.Path
		aerr = newError(404, 0, "unsupported", "404: Not Found")
		aerr.detail = perr.Error()
	} else {
		rt, params, pathKnown := matchRoute(s.routes, r.Method, segs)
		switch {
		case rt != nil:
			q.route, q.params = rt, params
			call.Route, call.Params = rt.name, params
		case pathKnown:
			aerr = newError(405, 0, "unsupported", "405: Method Not Allowed")
			aerr.detail = r.Method + " " + call.Path
		default:
			aerr = newError(404, 0, "unsupported", "404: Not Found")
			aerr.detail = "the fake does not serve " + r.Method + " " + call.Path
		}
	}
	if aerr == nil && len(raw) > maxRequestBytes {
		aerr = newError(413, 40005, "too-large", "Request entity too large")
	}
	if aerr == nil {
		aerr = q.parseBody(r.Header.Get("Content-Type"), raw)
	}
	call.Body = q.body
	for _, f := range q.files {
		call.Files = append(call.Files, FileInfo{Field: f.field, Filename: f.filename, ContentType: f.contentType, Size: len(f.data)})
	}

	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		http.Error(w, errClosed.Error(), http.StatusServiceUnavailable)
		return
	}
	now := s.nowLocked()
	call.At = now
	// The spec describes JSON bodies; the OAuth2 token endpoint takes a
	// form (topics/oauth2.mdx) and is not in it: handleOAuthToken checks it.
	if aerr == nil && s.opts.OpenAPI && q.route.name != RouteOAuthToken {
		s.checkOpenAPILocked(r.Method, call.Path, q.body)
	}
	if aerr == nil {
		if f := s.takeFaultLocked(q.route.name); f != nil {
			rep = f.answer(now, hdr, q.route.name)
			call.Injected = true
		}
	}
	if aerr == nil && rep == nil && q.route.auth {
		aerr = s.checkAuth(r.Header.Get("Authorization"))
	}
	if aerr == nil && rep == nil {
		s.sweepLocked()
		rep, aerr = q.route.handle(s, q)
	}
	if aerr != nil {
		rep = &reply{status: aerr.status, body: aerr.body()}
		if aerr.kind != "" && !(r.Method == http.MethodGet && aerr.kind == "not-found") {
			detail := aerr.Error()
			s.violateLocked(aerr.kind, "%s %s: %s", r.Method, call.Path, detail)
		}
	}
	var out []byte
	if rep.body != nil {
		out, err = json.Marshal(rep.body)
		if err != nil {
			rep = &reply{status: 500, body: nil}
			out = []byte(`{"message":"500: Internal Server Error","code":0}`)
		}
	}
	call.Status = rep.status
	call.Response = out
	call.Seq = len(s.calls) + 1
	s.calls = append(s.calls, call)
	if !call.Injected && q.route != nil {
		rateLimitHeaders(hdr, q.route.name, now)
	}
	s.notifyLocked()
	s.mu.Unlock()

	s.log.Debug("discordtest rest", "method", r.Method, "path", call.Path, "status", rep.status)
	for k, v := range hdr {
		w.Header()[k] = v
	}
	if out != nil {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(rep.status)
	if out != nil {
		_, _ = w.Write(out)
	}
}

// parseBody reads a JSON or multipart/form-data body.
func (q *request) parseBody(contentType string, raw []byte) *apiError {
	if len(raw) == 0 {
		return nil
	}
	mediaType, params, err := mime.ParseMediaType(contentType)
	if err != nil || mediaType != "multipart/form-data" {
		q.body = raw
		return nil
	}
	q.multipart = true
	mr := multipart.NewReader(bytes.NewReader(raw), params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			e := newError(400, 50035, "invalid-request", "Invalid Form Body")
			e.detail = "multipart: " + err.Error()
			return e
		}
		data, err := io.ReadAll(p)
		if err != nil {
			e := newError(400, 50035, "invalid-request", "Invalid Form Body")
			e.detail = "multipart part: " + err.Error()
			return e
		}
		name := p.FormName()
		switch {
		case name == "payload_json":
			q.body = data
		case p.FileName() != "":
			ct := p.Header.Get("Content-Type")
			if ct == "" {
				ct = "application/octet-stream"
			}
			q.files = append(q.files, upload{field: name, filename: p.FileName(), contentType: ct, data: data})
		}
	}
}

// decode unmarshals the request body into v; an empty body leaves v alone.
func (q *request) decode(v any) *apiError {
	if len(bytes.TrimSpace(q.body)) == 0 {
		return nil
	}
	if err := json.Unmarshal(q.body, v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			path := typeErr.Field
			if path == "" {
				path = "_"
			}
			return formError(path, "BASE_TYPE_INVALID", fmt.Sprintf("Invalid value of type %s.", typeErr.Value))
		}
		return invalidJSON(err)
	}
	return nil
}

func (s *Server) checkAuth(header string) *apiError {
	token, ok := strings.CutPrefix(header, "Bot ")
	if !ok || token == "" || (s.opts.Token != "" && token != s.opts.Token) {
		e := newError(401, 0, "unauthorized", "401: Unauthorized")
		e.detail = "Authorization must be \"Bot <token>\" with the bot's token"
		return e
	}
	return nil
}

// rateLimitHeaders sets the headers of a request that did not hit a limit:
// a generous bucket that never makes discordgo wait.
func rateLimitHeaders(h http.Header, routeName string, now time.Time) {
	reset := now.Add(time.Second)
	h.Set("X-RateLimit-Limit", "50")
	h.Set("X-RateLimit-Remaining", "49")
	h.Set("X-RateLimit-Reset", formatEpoch(reset))
	h.Set("X-RateLimit-Reset-After", "1.000")
	h.Set("X-RateLimit-Bucket", bucketHash(routeName))
}

func formatEpoch(t time.Time) string {
	return strconv.FormatFloat(float64(t.UnixMilli())/1000, 'f', 3, 64)
}

func formatSeconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
}

func bucketHash(routeName string) string {
	h := fnv.New64a()
	_, _ = h.Write([]byte(routeName))
	return strconv.FormatUint(h.Sum64(), 16)
}

func ceilSeconds(d time.Duration) string {
	return strconv.Itoa(int(math.Ceil(d.Seconds())))
}
