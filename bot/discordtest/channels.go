package discordtest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

func errCannotExecuteOnChannelType() *apiError {
	return newError(400, 50024, "invalid-request", "Cannot execute action on this channel type")
}

func (s *Server) channelLocked(id string) (*Channel, *apiError) {
	c, ok := s.channels[id]
	if !ok {
		return nil, unknownChannel()
	}
	return c, nil
}

// visibleMessageLocked finds a message of a channel that the bot can see
// through channel routes (not deleted, not ephemeral).
func (s *Server) visibleMessageLocked(ch *Channel, id string) (*Message, *apiError) {
	m, ok := s.messages[id]
	if !ok || m.ChannelID != ch.ID || m.Deleted || m.Ephemeral() {
		return nil, unknownMessage()
	}
	return m, nil
}

// sweepLocked auto-archives threads whose inactivity outlasted their
// auto_archive_duration, dispatching THREAD_UPDATE as Discord does.
func (s *Server) sweepLocked() {
	now := s.nowLocked()
	for _, id := range s.chanOrder {
		c := s.channels[id]
		if !c.IsThread() || c.Archived || c.AutoArchiveDuration <= 0 {
			continue
		}
		deadline := c.LastActivity.Add(time.Duration(c.AutoArchiveDuration) * time.Minute)
		if now.Before(deadline) {
			continue
		}
		c.Archived, c.ArchiveTimestamp = true, deadline
		s.dispatchGuildLocked(c.GuildID, IntentGuilds, "THREAD_UPDATE", s.channelJSONLocked(c))
		s.notifyLocked()
	}
}

func validArchiveDuration(m int) bool {
	return m == 60 || m == 1440 || m == 4320 || m == 10080
}

func archiveDurationError() *apiError {
	return formError("auto_archive_duration", "BASE_TYPE_CHOICES", "Value must be one of {60, 1440, 4320, 10080}.")
}

func (s *Server) handleChannelGet(q *request) (*reply, *apiError) {
	ch, err := s.channelLocked(q.params["channel_id"])
	if err != nil {
		return nil, err
	}
	if err := s.requireLocked(ch, 0); err != nil {
		return nil, err
	}
	return ok(s.channelJSONLocked(ch)), nil
}

type channelPatch struct {
	Name                field[string] `json:"name"`
	Topic               field[string] `json:"topic"`
	Archived            field[bool]   `json:"archived"`
	Locked              field[bool]   `json:"locked"`
	AutoArchiveDuration field[int]    `json:"auto_archive_duration"`
	Invitable           field[bool]   `json:"invitable"`
	RateLimitPerUser    field[int]    `json:"rate_limit_per_user"`
}

func (s *Server) handleChannelEdit(q *request) (*reply, *apiError) {
	ch, err := s.channelLocked(q.params["channel_id"])
	if err != nil {
		return nil, err
	}
	var p channelPatch
	if err := q.decode(&p); err != nil {
		return nil, err
	}
	if p.Name.Set {
		if n := utf8.RuneCountInString(p.Name.V); n < 1 || n > maxThreadName {
			return nil, formError("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
		}
	}
	now := s.nowLocked()
	if !ch.IsThread() {
		if ch.Type != ChannelText {
			return nil, errCannotExecuteOnChannelType()
		}
		if err := s.requireLocked(ch, PermManageChannels); err != nil {
			return nil, err
		}
		if p.Archived.Set || p.Locked.Set || p.AutoArchiveDuration.Set {
			return nil, formError("archived", "BASE_TYPE_INVALID", "Thread fields apply to threads only")
		}
		if p.Name.Set {
			ch.Name = p.Name.V
		}
		if p.Topic.Set {
			ch.Topic = p.Topic.V
		}
		s.dispatchGuildLocked(ch.GuildID, IntentGuilds, "CHANNEL_UPDATE", s.channelJSONLocked(ch))
		return ok(s.channelJSONLocked(ch)), nil
	}
	if err := s.threadEditAllowedLocked(ch, &p); err != nil {
		return nil, err
	}
	unarchive := p.Archived.Set && !p.Archived.V
	if ch.Archived && !unarchive {
		return nil, archivedThread()
	}
	if p.AutoArchiveDuration.Set && !validArchiveDuration(p.AutoArchiveDuration.V) {
		return nil, archiveDurationError()
	}
	if p.Name.Set {
		ch.Name = p.Name.V
	}
	if p.AutoArchiveDuration.Set {
		ch.AutoArchiveDuration = p.AutoArchiveDuration.V
	}
	if p.Locked.Set {
		ch.Locked = p.Locked.V
	}
	if p.Archived.Set && p.Archived.V != ch.Archived {
		ch.Archived, ch.ArchiveTimestamp = p.Archived.V, now
		if !ch.Archived {
			ch.LastActivity = now
		}
	}
	s.dispatchGuildLocked(ch.GuildID, IntentGuilds, "THREAD_UPDATE", s.channelJSONLocked(ch))
	return ok(s.channelJSONLocked(ch)), nil
}

func (s *Server) handleMessagesList(q *request) (*reply, *apiError) {
	ch, err := s.channelLocked(q.params["channel_id"])
	if err != nil {
		return nil, err
	}
	if err := s.requireLocked(ch, 0); err != nil {
		return nil, err
	}
	if s.channelPermissionsLocked(ch, s.bot.ID)&PermReadMessageHistory == 0 {
		return ok([]wireMessage{}), nil // "no messages will be returned"
	}
	limit := 50
	if v := q.query.Get("limit"); v != "" {
		n, perr := strconv.Atoi(v)
		if perr != nil || n < 1 || n > 100 {
			return nil, formError("limit", "NUMBER_TYPE_MAX", "int value should be between 1 and 100.")
		}
		limit = n
	}
	before, after := q.query.Get("before"), q.query.Get("after")
	var out []wireMessage
	ids := s.chanMsgs[ch.ID]
	for i := len(ids) - 1; i >= 0 && len(out) < limit; i-- {
		m := s.messages[ids[i]]
		if m.Deleted || m.Ephemeral() {
			continue
		}
		if before != "" && !snowflakeLess(m.ID, before) {
			continue
		}
		if after != "" && !snowflakeLess(after, m.ID) {
			continue
		}
		out = append(out, s.messageJSONLocked(m, false))
	}
	if out == nil {
		out = []wireMessage{}
	}
	return ok(out), nil
}

func snowflakeLess(a, b string) bool {
	x, _ := strconv.ParseUint(a, 10, 64)
	y, _ := strconv.ParseUint(b, 10, 64)
	return x < y
}

func (s *Server) handleMessageCreate(q *request) (*reply, *apiError) {
	ch, err := s.channelLocked(q.params["channel_id"])
	if err != nil {
		return nil, err
	}
	need := sendPermission(ch)
	if len(q.files) > 0 {
		need |= PermAttachFiles
	}
	if err := s.requireLocked(ch, need); err != nil {
		return nil, err
	}
	if err := s.dmRefusedLocked(ch); err != nil {
		return nil, err
	}
	p, err := parsePayload(q.body)
	if err != nil {
		return nil, err
	}
	if err := s.checkPayload(p, q.files); err != nil {
		return nil, err
	}
	if err := s.postableThreadLocked(ch); err != nil {
		return nil, err
	}
	nonce, err := nonceOf(p)
	if err != nil {
		return nil, err
	}
	enforced := nonce != "" && p.EnforceNonce
	if enforced {
		if m := s.noncedLocked(nonce); m != nil {
			return ok(s.messageJSONLocked(m, false)), nil
		}
	}
	m := &Message{ID: s.newIDLocked(), ChannelID: ch.ID, GuildID: ch.GuildID, AuthorID: s.bot.ID, CreatedAt: s.nowLocked()}
	m.Flags = s.channelFlagsLocked(q, p)
	replyAuthor := ""
	if p.MessageReference.Set && !p.MessageReference.Null && p.MessageReference.V.MessageID != "" {
		ref := p.MessageReference.V
		target, found := s.messages[ref.MessageID]
		if !found || target.Deleted || target.Ephemeral() || (ref.ChannelID != "" && ref.ChannelID != ch.ID) || target.ChannelID != ch.ID {
			if ref.FailIfNotExists == nil || *ref.FailIfNotExists {
				return nil, formError("message_reference", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message")
			}
		} else {
			m.Type, m.ReferenceID, replyAuthor = 19, target.ID, target.AuthorID
		}
	}
	s.fillNew(m, p, q.files)
	if isEmpty(m) {
		return nil, emptyMessage()
	}
	m.Pings = s.pingsLocked(ch, m.Content, p.AllowedMentions, replyAuthor)
	s.storeMessageLocked(m, ch)
	if enforced {
		s.nonces[nonce] = m.ID
	}
	return ok(s.messageJSONLocked(m, false)), nil
}

// noncedLocked returns the message the bot created with nonce in the last
// nonceWindow, in any channel (Discord checks "the same author"), or nil.
func (s *Server) noncedLocked(nonce string) *Message {
	m := s.messages[s.nonces[nonce]]
	if m == nil || m.Deleted || s.nowLocked().Sub(m.CreatedAt) >= nonceWindow {
		return nil
	}
	return m
}

// channelFlagsLocked keeps the flags a channel message may carry. Discord
// silently drops the others; dropping EPHEMERAL is a violation, because the
// bot meant to hide something that is now public.
func (s *Server) channelFlagsLocked(q *request, p *messagePayload) int {
	if !p.Flags.Set {
		return 0
	}
	allowed := FlagSuppressEmbeds | FlagSuppressNotifications
	if p.Flags.V&FlagEphemeral != 0 {
		s.violateLocked("ignored-flag", "%s %s: EPHEMERAL (64) is ignored on channel messages; the message is public", q.method, q.path)
	}
	return p.Flags.V & allowed
}

// routeMessageLocked returns the channel and message a
// /channels/{channel_id}/messages/{message_id} request names, when the bot
// can see them.
func (s *Server) routeMessageLocked(q *request) (*Channel, *Message, *apiError) {
	ch, err := s.channelLocked(q.params["channel_id"])
	if err != nil {
		return nil, nil, err
	}
	if err := s.requireLocked(ch, 0); err != nil {
		return nil, nil, err
	}
	m, err := s.visibleMessageLocked(ch, q.params["message_id"])
	if err != nil {
		return nil, nil, err
	}
	return ch, m, nil
}

func (s *Server) handleMessageGet(q *request) (*reply, *apiError) {
	_, m, err := s.routeMessageLocked(q)
	if err != nil {
		return nil, err
	}
	return ok(s.messageJSONLocked(m, false)), nil
}

func (s *Server) handleMessageEdit(q *request) (*reply, *apiError) {
	ch, m, err := s.routeMessageLocked(q)
	if err != nil {
		return nil, err
	}
	if m.AuthorID != s.bot.ID {
		return nil, newError(403, 50005, "forbidden", "Cannot edit a message authored by another user")
	}
	if ch.IsThread() && ch.Archived {
		return nil, archivedThread()
	}
	if ch.IsThread() && ch.Locked && s.channelPermissionsLocked(ch, s.bot.ID)&PermManageThreads == 0 {
		return nil, missingPermissions() // threads.mdx, "Locked Threads"
	}
	edited, err := s.editedCopy(m, q)
	if err != nil {
		return nil, err
	}
	edited.EditedAt = s.nowLocked()
	edited.Edits++
	*m = edited
	s.dispatchMessageLocked("MESSAGE_UPDATE", m, ch)
	return ok(s.messageJSONLocked(m, false)), nil
}

func (s *Server) handleMessageDelete(q *request) (*reply, *apiError) {
	ch, m, err := s.routeMessageLocked(q)
	if err != nil {
		return nil, err
	}
	if ch.IsThread() && ch.Archived {
		return nil, archivedThread()
	}
	s.deleteMessageLocked(m, ch)
	return noContent(), nil
}

func (s *Server) deleteMessageLocked(m *Message, ch *Channel) {
	m.Deleted = true
	if !m.Ephemeral() {
		intent := IntentGuildMessages
		if ch.Type == ChannelDM {
			intent = IntentDirectMessages
		}
		s.dispatchGuildLocked(ch.GuildID, intent, "MESSAGE_DELETE", map[string]string{"id": m.ID, "channel_id": m.ChannelID, "guild_id": m.GuildID})
	}
}

type threadPayload struct {
	Name                string     `json:"name"`
	AutoArchiveDuration field[int] `json:"auto_archive_duration"`
	Type                field[int] `json:"type"`
	Invitable           *bool      `json:"invitable"`
	RateLimitPerUser    int        `json:"rate_limit_per_user"`
}

func (p *threadPayload) check() *apiError {
	if n := utf8.RuneCountInString(p.Name); n < 1 || n > maxThreadName {
		return formError("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
	}
	if p.AutoArchiveDuration.Set && !p.AutoArchiveDuration.Null && !validArchiveDuration(p.AutoArchiveDuration.V) {
		return archiveDurationError()
	}
	return nil
}

func (p *threadPayload) duration() int {
	if p.AutoArchiveDuration.Set && !p.AutoArchiveDuration.Null {
		return p.AutoArchiveDuration.V
	}
	return defaultThreadArchiveMinute
}

// newThreadLocked makes a thread of parent whose creator (and only
// member) is owner.
func (s *Server) newThreadLocked(id string, parent *Channel, typ int, p *threadPayload, owner string) *Channel {
	now := s.nowLocked()
	t := &Channel{
		ID: id, Type: typ, GuildID: parent.GuildID, Name: p.Name, ParentID: parent.ID, OwnerID: owner,
		AutoArchiveDuration: p.duration(), ArchiveTimestamp: now, LastActivity: now,
		Members: []string{owner}, CreatedAt: now,
	}
	s.channels[t.ID] = t
	s.chanOrder = append(s.chanOrder, t.ID)
	created := s.channelJSONLocked(t)
	created.NewlyCreated = true
	s.dispatchGuildLocked(t.GuildID, IntentGuilds, "THREAD_CREATE", created)
	return t
}

// handleThreadCreate starts a thread without a message. In API v9 the type
// defaults to a PRIVATE thread (12), as Discord documents; v10 requires it.
func (s *Server) handleThreadCreate(q *request) (*reply, *apiError) {
	parent, err := s.channelLocked(q.params["channel_id"])
	if err != nil {
		return nil, err
	}
	if parent.Type != ChannelText {
		return nil, errCannotExecuteOnChannelType()
	}
	var p threadPayload
	if err := q.decode(&p); err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	typ := ChannelPrivateThread
	switch {
	case p.Type.Set && !p.Type.Null:
		typ = p.Type.V
		if typ != ChannelPublicThread && typ != ChannelPrivateThread {
			return nil, formError("type", "BASE_TYPE_CHOICES", fmt.Sprintf("Value must be one of {10, 11, 12}; the fake models 11 and 12, not %d.", typ))
		}
	case q.version >= 10:
		return nil, required("type")
	}
	need := PermCreatePublicThreads
	if typ == ChannelPrivateThread {
		need = PermCreatePrivateThreads
	}
	if err := s.requireLocked(parent, need); err != nil {
		return nil, err
	}
	t := s.newThreadLocked(s.newIDLocked(), parent, typ, &p, s.bot.ID)
	return created(s.channelJSONLocked(t)), nil
}

// handleThreadFromMessage starts a public thread from a message; the
// thread's ID is the message's.
func (s *Server) handleThreadFromMessage(q *request) (*reply, *apiError) {
	parent, err := s.channelLocked(q.params["channel_id"])
	if err != nil {
		return nil, err
	}
	if parent.Type != ChannelText {
		return nil, errCannotExecuteOnChannelType()
	}
	m, err := s.visibleMessageLocked(parent, q.params["message_id"])
	if err != nil {
		return nil, err
	}
	if m.ThreadID != "" {
		return nil, newError(400, 160004, "invalid-request", "A thread has already been created for this message")
	}
	var p threadPayload
	if err := q.decode(&p); err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	if err := s.requireLocked(parent, PermCreatePublicThreads); err != nil {
		return nil, err
	}
	t := s.newThreadLocked(m.ID, parent, ChannelPublicThread, &p, s.bot.ID)
	t.StarterMessageID = m.ID
	m.ThreadID = t.ID
	return created(s.channelJSONLocked(t)), nil
}

func (s *Server) handleThreadMemberAdd(q *request) (*reply, *apiError) {
	t, err := s.channelLocked(q.params["channel_id"])
	if err != nil {
		return nil, err
	}
	if !t.IsThread() {
		return nil, errCannotExecuteOnChannelType()
	}
	if err := s.requireLocked(t, 0); err != nil {
		return nil, err
	}
	if t.Archived {
		return nil, archivedThread()
	}
	userID := q.params["user_id"]
	if userID == "@me" {
		userID = s.bot.ID
	}
	g := s.guilds[t.GuildID]
	if _, member := g.members[userID]; !member {
		return nil, unknownMember()
	}
	if !slices.Contains(t.Members, userID) {
		t.Members = append(t.Members, userID)
	}
	return noContent(), nil
}

func (s *Server) handleTyping(q *request) (*reply, *apiError) {
	ch, err := s.channelLocked(q.params["channel_id"])
	if err != nil {
		return nil, err
	}
	if err := s.requireLocked(ch, sendPermission(ch)); err != nil {
		return nil, err
	}
	return noContent(), nil
}

func (s *Server) guildLocked(id string) (*guildRec, *apiError) {
	g, ok := s.guilds[id]
	if !ok {
		return nil, unknownGuild()
	}
	return g, nil
}

func (s *Server) handleGuildGet(q *request) (*reply, *apiError) {
	g, err := s.guildLocked(q.params["guild_id"])
	if err != nil {
		return nil, err
	}
	return ok(s.guildJSONLocked(g)), nil
}

func (s *Server) handleGuildChannels(q *request) (*reply, *apiError) {
	g, err := s.guildLocked(q.params["guild_id"])
	if err != nil {
		return nil, err
	}
	out := []wireChannel{}
	for _, id := range s.chanOrder {
		if c := s.channels[id]; c.GuildID == g.ID && !c.IsThread() {
			out = append(out, s.channelJSONLocked(c))
		}
	}
	return ok(out), nil
}

func (s *Server) handleGuildRoles(q *request) (*reply, *apiError) {
	g, err := s.guildLocked(q.params["guild_id"])
	if err != nil {
		return nil, err
	}
	return ok(s.guildJSONLocked(g).Roles), nil
}

func (s *Server) handleGuildMember(q *request) (*reply, *apiError) {
	g, err := s.guildLocked(q.params["guild_id"])
	if err != nil {
		return nil, err
	}
	m, found := g.members[q.params["user_id"]]
	if !found {
		return nil, unknownMember()
	}
	return ok(s.memberJSONLocked(g, m, true, false)), nil
}

type wireSelf struct {
	wireUser
	Verified   bool `json:"verified"`
	MFAEnabled bool `json:"mfa_enabled"`
	Flags      int  `json:"flags"`
}

func (s *Server) handleUserMe(q *request) (*reply, *apiError) {
	if tok, bearer := strings.CutPrefix(q.header.Get("Authorization"), "Bearer "); bearer {
		return s.userByBearer(tok)
	}
	if err := s.checkAuth(q.header.Get("Authorization")); err != nil {
		return nil, err
	}
	return ok(wireSelf{wireUser: userJSON(&s.bot), Verified: true}), nil
}

func (s *Server) handleUser(q *request) (*reply, *apiError) {
	u, found := s.users[q.params["user_id"]]
	if !found {
		return nil, unknownUser()
	}
	return ok(userJSON(u)), nil
}

// handleDMCreate is Create DM (resources/user.mdx, "Create DM"): the DM
// channel with recipient_id, the one there is if it exists. Opening one
// needs no shared server; posting in it does (see dmRefusedLocked).
func (s *Server) handleDMCreate(q *request) (*reply, *apiError) {
	var body struct {
		RecipientID string `json:"recipient_id"`
	}
	if err := q.decode(&body); err != nil {
		return nil, err
	}
	if body.RecipientID == "" {
		return nil, required("recipient_id")
	}
	if _, found := s.users[body.RecipientID]; !found || body.RecipientID == s.bot.ID {
		return nil, unknownUser()
	}
	return ok(s.channelJSONLocked(s.dmChannelLocked(body.RecipientID))), nil
}

// dmRefusedLocked is 50007 for a post in a DM channel whose user takes no
// direct messages from the bot: they closed them (CloseDMs), or share no
// server with it, as Discord refuses "Cannot send messages to this user"
// (topics/opcodes-and-status-codes.mdx, "JSON Error Codes").
func (s *Server) dmRefusedLocked(ch *Channel) *apiError {
	if ch.Type != ChannelDM {
		return nil
	}
	for _, id := range ch.Members {
		if id == s.bot.ID {
			continue
		}
		if s.dmsClosed[id] {
			return cannotMessageUser()
		}
		shared := false
		for _, g := range s.guilds {
			if _, member := g.members[id]; member {
				shared = true
			}
		}
		if !shared {
			return cannotMessageUser()
		}
	}
	return nil
}

func (s *Server) handleGateway(q *request) (*reply, *apiError) {
	return ok(map[string]string{"url": s.wsURL}), nil
}

func (s *Server) handleGatewayBot(q *request) (*reply, *apiError) {
	return ok(map[string]any{
		"url":    s.wsURL,
		"shards": 1,
		"session_start_limit": map[string]int{
			"total": 1000, "remaining": 1000 - len(s.identifies), "reset_after": 86400000, "max_concurrency": 1,
		},
	}), nil
}
