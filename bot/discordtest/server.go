package discordtest

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Options configure a Server. The zero value is usable.
type Options struct {
	// Token is the bot token the fake accepts, with or without the "Bot "
	// prefix. Empty accepts any token, as long as it is sent.
	Token string
	// OpenAPI checks the JSON body of every request against Discord's
	// OpenAPI description (openapi.go); each mismatch is a violation.
	OpenAPI bool
	// AppID is the application's ID, which is also the bot user's ID.
	// Empty picks a snowflake.
	AppID string
	// BotName is the bot user's name; empty means "Arbiter".
	BotName string
	// GuildName names the guild made at start; empty means "Test Guild".
	GuildName string
	// Now is the base clock; nil means time.Now. Advance adds to it.
	Now func() time.Time
	// HeartbeatInterval is sent in HELLO; zero means Discord's 41.25 s.
	// The fake closes (4009) a connection that stays silent for more than
	// twice as long plus a second.
	HeartbeatInterval time.Duration
	// ResponseDeadline is how long an interaction waits for its first
	// response; zero means Discord's 3 s.
	ResponseDeadline time.Duration
	// TokenLifetime is how long an interaction token serves followups and
	// edits; zero means Discord's 15 minutes.
	TokenLifetime time.Duration
	// MaxUploadBytes bounds each uploaded file; zero means 10 MiB,
	// Discord's limit for a guild without boosts.
	MaxUploadBytes int64
	// MaxInlineAnswerBytes bounds an HTTP interactions endpoint's answer
	// that carries files inline (multipart); zero means 150 KB. Discord
	// does not document the bound, but fails such answers above about
	// that size (discord/discord-api-docs#5250): files belong in an edit
	// after a deferral.
	MaxInlineAnswerBytes int
	// PrivilegedIntents are the privileged intents enabled for the
	// application (IntentGuildMembers, IntentGuildPresences,
	// IntentMessageContent). IDENTIFY asking for others is refused with
	// close code 4014, as Discord does.
	PrivilegedIntents int
	// Logger receives the fake's debug log; nil discards it.
	Logger *slog.Logger
	// Activity says the application has Activities enabled: only then is
	// a LAUNCH_ACTIVITY (12) answer accepted (interactions/
	// receiving-and-responding.mdx, "Interaction Callback Type": "Only
	// available for apps with Activities enabled").
	Activity bool
	// ClientSecret is the application's OAuth2 client secret, which the
	// token exchange (POST /oauth2/token) requires; empty refuses every
	// exchange.
	ClientSecret string
}

const (
	defaultHeartbeat = 41250 * time.Millisecond
	defaultDeadline  = 3 * time.Second
	defaultTokenLife = 15 * time.Minute
	defaultMaxUpload = 10 << 20
	// defaultMaxInlineAnswer is where inline multipart answers fail
	// (discord/discord-api-docs#5250).
	defaultMaxInlineAnswer = 150_000
	maxRequestBytes        = 100 << 20
	sessionBufferSize      = 10000
	discordEpochMs         = 1420070400000
)

// Server is a fake Discord. Its methods are safe for concurrent use.
type Server struct {
	opts      Options
	log       *slog.Logger
	http      *httptest.Server
	addr      string
	wsURL     string
	transport *http.Transport
	routes    []*route
	keys      signingKeys

	// endpointClient posts to the bot's HTTP interactions endpoint.
	endpointClient *http.Client

	mu      sync.Mutex
	changed chan struct{}
	closed  bool
	offset  time.Duration
	lastID  uint64
	connSeq int

	bot        User
	users      map[string]*User
	guilds     map[string]*guildRec
	guildOrder []string
	roles      map[string]*Role
	channels   map[string]*Channel
	chanOrder  []string
	messages   map[string]*Message
	chanMsgs   map[string][]string
	nonces     map[string]string // enforced nonce -> the bot's message created with it
	dmChannels map[string]string // user ID -> DM channel ID
	dmsClosed  map[string]bool   // users who take no direct messages from the bot
	commands   map[string][]*AppCommand
	inters     map[string]*interactionRec
	interOrder []string
	tokens     map[string]*interactionRec
	sessions   map[string]*sessionRec
	sessOrder  []*sessionRec
	conns      map[*gwConn]struct{}
	calls      []Call
	gwLog      []GatewayEvent
	identifies []Identify
	violations []string
	faults     []*fault
	// OAuth2 and Activities (activity.go).
	oauthCodes  map[string]*oauthCode
	oauthTokens map[string]*oauthToken
	activities  map[string]*activityRec

	wg sync.WaitGroup
}

type guildRec struct {
	Guild
	roleIDs  []string
	members  map[string]*memberRec
	joinedAt time.Time
}

type memberRec struct {
	userID   string
	roles    []string
	joinedAt time.Time
}

// TB is the part of testing.TB that Start uses; *testing.T and *testing.B
// meet it. The package names it itself so that it need not import testing.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// Start starts a Server for a test and closes it when the test ends. It
// fails the test if the server cannot start.
func Start(tb TB, opts Options) *Server {
	tb.Helper()
	s, err := New(opts)
	if err != nil {
		tb.Fatalf("start fake discord: %v", err)
	}
	tb.Cleanup(s.Close)
	return s
}

// New starts a Server on 127.0.0.1. Close stops it.
func New(opts Options) (*Server, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.HeartbeatInterval <= 0 {
		opts.HeartbeatInterval = defaultHeartbeat
	}
	if opts.ResponseDeadline <= 0 {
		opts.ResponseDeadline = defaultDeadline
	}
	if opts.TokenLifetime <= 0 {
		opts.TokenLifetime = defaultTokenLife
	}
	if opts.MaxUploadBytes <= 0 {
		opts.MaxUploadBytes = defaultMaxUpload
	}
	if opts.MaxInlineAnswerBytes <= 0 {
		opts.MaxInlineAnswerBytes = defaultMaxInlineAnswer
	}
	if opts.BotName == "" {
		opts.BotName = "Arbiter"
	}
	if opts.GuildName == "" {
		opts.GuildName = "Test Guild"
	}
	opts.Token = strings.TrimPrefix(opts.Token, "Bot ")
	s := &Server{
		opts:       opts,
		log:        opts.Logger,
		changed:    make(chan struct{}),
		users:      map[string]*User{},
		guilds:     map[string]*guildRec{},
		roles:      map[string]*Role{},
		channels:   map[string]*Channel{},
		messages:   map[string]*Message{},
		nonces:     map[string]string{},
		chanMsgs:   map[string][]string{},
		dmChannels: map[string]string{},
		dmsClosed:  map[string]bool{},
		commands:   map[string][]*AppCommand{},
		inters:     map[string]*interactionRec{},
		tokens:     map[string]*interactionRec{},
		sessions:   map[string]*sessionRec{},
		conns:      map[*gwConn]struct{}{},
		routes:     buildRoutes(),

		oauthCodes:  map[string]*oauthCode{},
		oauthTokens: map[string]*oauthToken{},
		activities:  map[string]*activityRec{},
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	keys, err := newSigningKeys(rand.Reader)
	if err != nil {
		return nil, err
	}
	s.keys = keys
	s.endpointClient = &http.Client{Transport: &http.Transport{Proxy: nil}, Timeout: 30 * time.Second}
	if opts.AppID == "" {
		s.opts.AppID = s.newIDLocked()
	} else if _, err := strconv.ParseUint(opts.AppID, 10, 64); err != nil {
		return nil, fmt.Errorf("application id %q is not a snowflake: %w", opts.AppID, err)
	}
	s.bot = User{ID: s.opts.AppID, Username: opts.BotName, Bot: true}
	s.users[s.bot.ID] = &s.bot
	if opts.Activity {
		s.addDefaultEntryPointLocked()
	}

	s.http = httptest.NewUnstartedServer(http.HandlerFunc(s.serveHTTP))
	s.http.Start()
	s.addr = s.http.Listener.Addr().String()
	s.wsURL = "ws://" + s.addr + "/gateway"
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	s.transport = &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return dialer.DialContext(ctx, network, s.addr)
		},
		MaxIdleConnsPerHost: 16,
	}

	s.mu.Lock()
	owner := s.addUserLocked("owner", false)
	s.addGuildLocked(opts.GuildName, owner.ID)
	s.mu.Unlock()
	return s, nil
}

// Close stops the server and closes every gateway connection. Close a
// discordgo session before its server, or it will keep reconnecting.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	conns := make([]*gwConn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
		s.closeOutLocked(c)
	}
	s.notifyLocked()
	s.mu.Unlock()
	for _, c := range conns {
		c.ws.Close()
	}
	s.http.Close()
	s.transport.CloseIdleConnections()
	s.endpointClient.CloseIdleConnections()
	s.wg.Wait()
}

// URL is the base URL of the fake's HTTP server (http://127.0.0.1:port).
func (s *Server) URL() string { return s.http.URL }

// GatewayURL is the websocket URL that GET /gateway and /gateway/bot name.
func (s *Server) GatewayURL() string { return s.wsURL }

// HTTPClient returns a client whose transport sends every request, whatever
// its scheme and host, to the fake. Give it to discordgo: session.Client.
func (s *Server) HTTPClient() *http.Client {
	return &http.Client{Transport: redirectTransport{s: s}, Timeout: 20 * time.Second}
}

// Dialer returns a websocket dialer that connects to the fake whatever the
// URL's host, without proxies. Give it to discordgo: session.Dialer.
func (s *Server) Dialer() *websocket.Dialer {
	d := &net.Dialer{Timeout: 5 * time.Second}
	return &websocket.Dialer{
		NetDialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, s.addr)
		},
		HandshakeTimeout: 5 * time.Second,
	}
}

type redirectTransport struct{ s *Server }

// RoundTrip sends the request to the fake, keeping the original host in
// the Host header.
func (t redirectTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	out := req.Clone(req.Context())
	out.URL.Scheme = "http"
	out.URL.Host = t.s.addr
	if out.Host == "" {
		out.Host = req.URL.Host
	}
	return t.s.transport.RoundTrip(out)
}

// AppID is the application's ID (also the bot user's ID).
func (s *Server) AppID() string { return s.opts.AppID }

// BotUser is the bot's user.
func (s *Server) BotUser() User { return s.bot }

// Now is the fake's clock: the base clock plus every Advance.
func (s *Server) Now() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.nowLocked()
}

func (s *Server) nowLocked() time.Time { return s.opts.Now().Add(s.offset).UTC() }

// Advance moves the fake's clock forward by d: interaction tokens age,
// response deadlines pass and threads auto-archive as if d had elapsed.
func (s *Server) Advance(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.offset += d
	s.sweepLocked()
	s.notifyLocked()
}

// newIDLocked returns a fresh snowflake stamped with the fake's clock.
func (s *Server) newIDLocked() string {
	ms := uint64(s.opts.Now().Add(s.offset).UnixMilli() - discordEpochMs)
	id := ms<<22 | 1<<17
	if id <= s.lastID {
		id = s.lastID + 1
	}
	s.lastID = id
	return strconv.FormatUint(id, 10)
}

func randomToken(prefix string) string {
	b := make([]byte, 48)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return prefix + base64.RawURLEncoding.EncodeToString(b)
}

// notifyLocked wakes every waiter.
func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *Server) violateLocked(kind, format string, args ...any) {
	v := kind + ": " + fmt.Sprintf(format, args...)
	s.log.Warn("discordtest violation", "violation", v)
	s.violations = append(s.violations, v)
}

// Violations lists every breach of Discord's rules the fake saw, oldest
// first, each as "kind: detail". Kinds: late-response, duplicate-response,
// unanswered, token-invalid, expired-token, invalid-request, too-large,
// archived-thread, not-found, forbidden (50001 and 50013 included),
// unauthorized, ignored-flag, ignored-field,
// unsupported, gateway, endpoint (an HTTP interactions endpoint refused a
// genuine request). An interaction still unanswered after its deadline
// is reported as unanswered when Violations is called.
func (s *Server) Violations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := slices.Clone(s.violations)
	now := s.nowLocked()
	for _, id := range s.interOrder {
		in := s.inters[id]
		if in.response == nil && !in.late && !in.failed && now.Sub(in.DispatchedAt) > s.opts.ResponseDeadline {
			out = append(out, fmt.Sprintf("unanswered: interaction %s (%s) got no response within %v", in.ID, in.describe(), s.opts.ResponseDeadline))
		}
	}
	return out
}

// wait blocks until check, run under the lock, reports true.
func (s *Server) wait(ctx context.Context, what string, check func() bool) error {
	for {
		s.mu.Lock()
		ok := check()
		ch, closed := s.changed, s.closed
		s.mu.Unlock()
		if ok {
			return nil
		}
		if closed {
			return fmt.Errorf("wait for %s: server closed", what)
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("wait for %s: %w", what, ctx.Err())
		}
	}
}

// waitFor waits until match accepts an item of the snapshot, taken under
// the lock; match itself runs outside it, so it may call the Server.
func waitFor[T any](ctx context.Context, s *Server, what string, snapshot func() []T, match func(T) bool) (T, error) {
	var zero T
	for {
		s.mu.Lock()
		items := snapshot()
		ch, closed := s.changed, s.closed
		s.mu.Unlock()
		for _, it := range items {
			if match(it) {
				return it, nil
			}
		}
		if closed {
			return zero, fmt.Errorf("wait for %s: server closed", what)
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return zero, fmt.Errorf("wait for %s: %w", what, ctx.Err())
		}
	}
}

// Calls returns every REST call so far, oldest first.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

// WaitForCall waits for a recorded call (past or future) that match accepts.
func (s *Server) WaitForCall(ctx context.Context, match func(Call) bool) (Call, error) {
	return waitFor(ctx, s, "call", func() []Call { return slices.Clone(s.calls) }, match)
}

// GatewayLog returns every gateway frame so far, oldest first.
func (s *Server) GatewayLog() []GatewayEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.gwLog)
}

// WaitForGateway waits for a gateway frame (past or future) that match
// accepts.
func (s *Server) WaitForGateway(ctx context.Context, match func(GatewayEvent) bool) (GatewayEvent, error) {
	return waitFor(ctx, s, "gateway event", func() []GatewayEvent { return slices.Clone(s.gwLog) }, match)
}

// Identifies returns every IDENTIFY received, oldest first.
func (s *Server) Identifies() []Identify {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := slices.Clone(s.identifies)
	for i := range out {
		out[i].Properties = cloneMap(out[i].Properties)
	}
	return out
}

// Sessions returns the gateway sessions, oldest first.
func (s *Server) Sessions() []Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessionsLocked()
}

// WaitForSession waits until some session satisfies match, and returns it.
func (s *Server) WaitForSession(ctx context.Context, match func(Session) bool) (Session, error) {
	return waitFor(ctx, s, "gateway session", s.sessionsLocked, match)
}

// WaitConnected waits until a valid session has a websocket attached, has
// been sent READY or RESUMED, and has sent its first heartbeat on it.
//
// Waiting for the heartbeat matters with discordgo: its heartbeat goroutine
// sends first and checks for Close later, so a Close right after Open makes
// that goroutine fail, close the next connection and reconnect, over and
// over. Once the first heartbeat is in, Close is safe.
func (s *Server) WaitConnected(ctx context.Context) (Session, error) {
	return s.WaitForSession(ctx, func(ss Session) bool { return ss.Connected && !ss.Invalid && ss.Heartbeats > 0 })
}

// Messages returns the channel's messages, oldest first, deleted ones
// included (marked Deleted).
func (s *Server) Messages(channelID string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Message
	for _, id := range s.chanMsgs[channelID] {
		out = append(out, s.messages[id].clone())
	}
	return out
}

// Message returns a message by ID.
func (s *Server) Message(id string) (Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.messages[id]
	if !ok {
		return Message{}, false
	}
	return m.clone(), true
}

// WaitForMessage waits until some message, in its current state and not
// deleted, satisfies match. Messages are offered oldest first.
func (s *Server) WaitForMessage(ctx context.Context, match func(Message) bool) (Message, error) {
	return waitFor(ctx, s, "message", func() []Message {
		var out []Message
		for _, ch := range s.chanOrder {
			for _, id := range s.chanMsgs[ch] {
				if m := s.messages[id]; !m.Deleted {
					out = append(out, m.clone())
				}
			}
		}
		return out
	}, match)
}

// Channel returns a channel or thread by ID.
func (s *Server) Channel(id string) (Channel, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked()
	c, ok := s.channels[id]
	if !ok {
		return Channel{}, false
	}
	return cloneChannel(c), true
}

// Threads returns the threads whose parent is channelID, oldest first.
func (s *Server) Threads(channelID string) []Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked()
	var out []Channel
	for _, id := range s.chanOrder {
		if c := s.channels[id]; c.IsThread() && c.ParentID == channelID {
			out = append(out, cloneChannel(c))
		}
	}
	return out
}

func cloneChannel(c *Channel) Channel {
	out := *c
	out.Members = slices.Clone(c.Members)
	out.Overwrites = slices.Clone(c.Overwrites)
	return out
}

func cloneMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Guild returns the guild made at start.
func (s *Server) Guild() Guild {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.guilds[s.guildOrder[0]].Guild
}

// AddGuild makes another guild, owned by a new user, with a "general"
// text channel and an @everyone role.
func (s *Server) AddGuild(name string) Guild {
	s.mu.Lock()
	defer s.mu.Unlock()
	owner := s.addUserLocked(name+"-owner", false)
	g := s.addGuildLocked(name, owner.ID)
	s.notifyLocked()
	return g.Guild
}

func (s *Server) addGuildLocked(name, ownerID string) *guildRec {
	now := s.nowLocked()
	g := &guildRec{Guild: Guild{ID: s.newIDLocked(), Name: name, OwnerID: ownerID}, members: map[string]*memberRec{}, joinedAt: now}
	s.guilds[g.ID] = g
	s.guildOrder = append(s.guildOrder, g.ID)
	s.roles[g.ID] = &Role{ID: g.ID, GuildID: g.ID, Name: "@everyone", Permissions: PermEveryoneDefault}
	g.roleIDs = append(g.roleIDs, g.ID)
	botRole := &Role{ID: s.newIDLocked(), GuildID: g.ID, Name: s.bot.Username, Permissions: PermBotDefault}
	s.roles[botRole.ID] = botRole
	g.roleIDs = append(g.roleIDs, botRole.ID)
	g.members[ownerID] = &memberRec{userID: ownerID, joinedAt: now}
	g.members[s.bot.ID] = &memberRec{userID: s.bot.ID, roles: []string{botRole.ID}, joinedAt: now}
	ch := s.addChannelLocked(g.ID, "general")
	g.DefaultChannelID = ch.ID
	return g
}

// AddUser makes a user and makes them a member of the start guild with
// the given roles.
func (s *Server) AddUser(name string, roleIDs ...string) User {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.addUserLocked(name, false)
	g := s.guilds[s.guildOrder[0]]
	g.members[u.ID] = &memberRec{userID: u.ID, roles: slices.Clone(roleIDs), joinedAt: s.nowLocked()}
	s.notifyLocked()
	return *u
}

// CloseDMs sets whether a user takes direct messages from the bot: with
// closed set, a post in their DM channel fails with 50007, as when a user
// turns off direct messages from a server's members.
func (s *Server) CloseDMs(userID string, closed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dmsClosed[userID] = closed
}

// DMChannel returns the id of the DM channel between a user and the bot,
// "" when none was opened.
func (s *Server) DMChannel(userID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dmChannels[userID]
}

func (s *Server) addUserLocked(name string, bot bool) *User {
	u := &User{ID: s.newIDLocked(), Username: strings.ToLower(name), GlobalName: name, Bot: bot}
	s.users[u.ID] = u
	return u
}

// Join makes a user a member of a guild with the given roles.
func (s *Server) Join(guildID, userID string, roleIDs ...string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.guilds[guildID]
	if !ok {
		return fmt.Errorf("join guild %s: no such guild", guildID)
	}
	if _, ok := s.users[userID]; !ok {
		return fmt.Errorf("join guild %s: no such user %s", guildID, userID)
	}
	for _, r := range roleIDs {
		if role, ok := s.roles[r]; !ok || role.GuildID != guildID {
			return fmt.Errorf("join guild %s: role %s is not the guild's", guildID, r)
		}
	}
	g.members[userID] = &memberRec{userID: userID, roles: slices.Clone(roleIDs), joinedAt: s.nowLocked()}
	s.notifyLocked()
	return nil
}

// guildOrStartLocked finds a guild by ID, "" meaning the start guild.
func (s *Server) guildOrStartLocked(id string) (*guildRec, bool) {
	if id == "" {
		id = s.guildOrder[0]
	}
	g, ok := s.guilds[id]
	return g, ok
}

// AddRole makes a role in a guild ("" means the start guild).
func (s *Server) AddRole(guildID, name string, permissions int64) (Role, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.guildOrStartLocked(guildID)
	if !ok {
		return Role{}, fmt.Errorf("add role %q: no such guild %s", name, guildID)
	}
	r := &Role{ID: s.newIDLocked(), GuildID: g.ID, Name: name, Permissions: permissions}
	s.roles[r.ID] = r
	g.roleIDs = append(g.roleIDs, r.ID)
	s.notifyLocked()
	return *r, nil
}

// AddChannel makes a text channel in a guild ("" means the start guild).
func (s *Server) AddChannel(guildID, name string) (Channel, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.guildOrStartLocked(guildID)
	if !ok {
		return Channel{}, fmt.Errorf("add channel %q: no such guild %s", name, guildID)
	}
	c := s.addChannelLocked(g.ID, name)
	s.notifyLocked()
	return cloneChannel(c), nil
}

func (s *Server) addChannelLocked(guildID, name string) *Channel {
	c := &Channel{ID: s.newIDLocked(), Type: ChannelText, GuildID: guildID, Name: name, CreatedAt: s.nowLocked()}
	s.channels[c.ID] = c
	s.chanOrder = append(s.chanOrder, c.ID)
	return c
}

// User returns a user by ID.
func (s *Server) User(id string) (User, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[id]
	if !ok {
		return User{}, false
	}
	return *u, true
}

// permissionsLocked computes a member's guild permissions from their roles.
func (s *Server) permissionsLocked(g *guildRec, userID string) (int64, bool) {
	m, ok := g.members[userID]
	if !ok {
		return 0, false
	}
	if userID == g.OwnerID {
		return PermAll, true
	}
	perms := s.roles[g.ID].Permissions
	for _, r := range m.roles {
		if role, ok := s.roles[r]; ok {
			perms |= role.Permissions
		}
	}
	if perms&PermAdministrator != 0 {
		return PermAll, true
	}
	return perms, true
}

var errClosed = errors.New("fake discord is closed")
