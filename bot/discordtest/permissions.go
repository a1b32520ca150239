package discordtest

import (
	"fmt"
	"slices"
)

// Overwrite is a channel's permission overwrite for a role (ID a role's
// ID; the guild's ID is @everyone) or for one member (Member set).
// Discord: resources/channel.mdx, "Overwrite Object".
type Overwrite struct {
	ID     string
	Member bool
	Allow  int64
	Deny   int64
}

// missingAccess is Discord's answer to a request about a channel the bot
// cannot see (JSON error code 50001, topics/opcodes-and-status-codes.mdx).
func missingAccess() *apiError { return newError(403, 50001, "forbidden", "Missing Access") }

// missingPermissions is Discord's answer to a request the bot sees but may
// not make there (JSON error code 50013).
func missingPermissions() *apiError {
	return newError(403, 50013, "forbidden", "Missing Permissions")
}

// channelPermissionsLocked computes a member's permissions in a channel as
// Discord documents it (topics/permissions.mdx, "Permission Overwrites"):
// the guild base (@everyone's and the member's roles; Administrator or
// ownership grant everything), then the channel's @everyone overwrite,
// then the role overwrites together (deny, then allow), then the member's
// own overwrite. A thread has its parent's permissions. Implicit denials
// ("Implicit Permissions") follow: without View Channel nothing is left;
// without Send Messages (in a thread: Send Messages in Threads, "Thread
// permissions") Mention Everyone, Attach Files and Embed Links go too.
// A private thread the member is not in, without Manage Threads, is not
// viewable (topics/threads.mdx, "Private Threads").
func (s *Server) channelPermissionsLocked(ch *Channel, userID string) int64 {
	g, ok := s.guilds[ch.GuildID]
	if !ok {
		return 0
	}
	base, member := s.permissionsLocked(g, userID)
	if !member {
		return 0
	}
	if base&PermAdministrator != 0 || base == PermAll {
		return PermAll
	}
	where := ch
	if ch.IsThread() {
		if parent, ok := s.channels[ch.ParentID]; ok {
			where = parent
		}
	}
	perms := base
	var roles []string
	if m := g.members[userID]; m != nil {
		roles = m.roles
	}
	for _, o := range where.Overwrites {
		if !o.Member && o.ID == g.ID {
			perms = perms&^o.Deny | o.Allow
		}
	}
	var allow, deny int64
	for _, o := range where.Overwrites {
		if !o.Member && o.ID != g.ID && slices.Contains(roles, o.ID) {
			allow |= o.Allow
			deny |= o.Deny
		}
	}
	perms = perms&^deny | allow
	for _, o := range where.Overwrites {
		if o.Member && o.ID == userID {
			perms = perms&^o.Deny | o.Allow
		}
	}
	if perms&PermViewChannel == 0 {
		return 0
	}
	if ch.Type == ChannelPrivateThread && !slices.Contains(ch.Members, userID) && perms&PermManageThreads == 0 {
		return 0
	}
	if perms&sendPermission(ch) == 0 {
		perms &^= PermMentionEveryone | PermAttachFiles | PermEmbedLinks
	}
	return perms
}

// requireLocked refuses a request of the bot in ch unless it has every
// permission of need there: 50001 when it cannot see the channel, 50013
// when it sees it but lacks one of need.
func (s *Server) requireLocked(ch *Channel, need int64) *apiError {
	if ch.Type == ChannelDM {
		return nil
	}
	perms := s.channelPermissionsLocked(ch, s.bot.ID)
	if perms&PermViewChannel == 0 {
		return missingAccess()
	}
	if perms&need != need {
		return missingPermissions()
	}
	return nil
}

// sendPermission is what posting in ch takes: Send Messages, or in a
// thread Send Messages in Threads (topics/threads.mdx, "Permissions").
func sendPermission(ch *Channel) int64 {
	if ch.IsThread() {
		return PermSendMessagesInThreads
	}
	return PermSendMessages
}

// SetOverwrites replaces a channel's permission overwrites, as a server's
// admin would in its settings, and dispatches CHANNEL_UPDATE.
func (s *Server) SetOverwrites(channelID string, overwrites ...Overwrite) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, ok := s.channels[channelID]
	if !ok || ch.IsThread() || ch.Type == ChannelDM {
		return fmt.Errorf("set overwrites: %s is not a guild text channel", channelID)
	}
	ch.Overwrites = slices.Clone(overwrites)
	s.dispatchGuildLocked(ch.GuildID, IntentGuilds, "CHANNEL_UPDATE", s.channelJSONLocked(ch))
	s.notifyLocked()
	return nil
}

// SetRolePermissions changes a role's guild permissions.
func (s *Server) SetRolePermissions(roleID string, permissions int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.roles[roleID]
	if !ok {
		return fmt.Errorf("set role permissions: no role %s", roleID)
	}
	r.Permissions = permissions
	s.notifyLocked()
	return nil
}

// BotRole returns the role the bot got when it joined a guild ("" means
// the start guild): the role its invite's permissions made.
func (s *Server) BotRole(guildID string) (Role, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.guildOrStartLocked(guildID)
	if !ok {
		return Role{}, false
	}
	for _, id := range g.members[s.bot.ID].roles {
		if r := s.roles[id]; r != nil {
			return *r, true
		}
	}
	return Role{}, false
}

// ChannelPermissions returns a member's permissions in a channel or
// thread, computed as Discord does (see channelPermissionsLocked).
func (s *Server) ChannelPermissions(channelID, userID string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, ok := s.channels[channelID]
	if !ok {
		return 0
	}
	return s.channelPermissionsLocked(ch, userID)
}

// StartThread opens a thread in a text channel as a member (a student)
// would from Discord's client: the member is its only member, and the bot
// is not in it until it joins.
func (s *Server) StartThread(userID, parentID, name string, private bool) (Channel, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	parent, ok := s.channels[parentID]
	if !ok || parent.Type != ChannelText {
		return Channel{}, fmt.Errorf("start thread: %s is not a text channel", parentID)
	}
	typ, need := ChannelPublicThread, PermCreatePublicThreads
	if private {
		typ, need = ChannelPrivateThread, PermCreatePrivateThreads
	}
	if s.channelPermissionsLocked(parent, userID)&need == 0 {
		return Channel{}, fmt.Errorf("start thread: user %s may not create that thread in %s", userID, parentID)
	}
	t := s.newThreadLocked(s.newIDLocked(), parent, typ, &threadPayload{Name: name}, userID)
	s.notifyLocked()
	return cloneChannel(t), nil
}

// SetThreadState archives or locks a thread as a moderator would, and
// dispatches THREAD_UPDATE.
func (s *Server) SetThreadState(threadID string, archived, locked bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.channels[threadID]
	if !ok || !t.IsThread() {
		return fmt.Errorf("set thread state: %s is not a thread", threadID)
	}
	now := s.nowLocked()
	if t.Archived != archived {
		t.Archived, t.ArchiveTimestamp = archived, now
	}
	t.Locked = locked
	s.dispatchGuildLocked(t.GuildID, IntentGuilds, "THREAD_UPDATE", s.channelJSONLocked(t))
	s.notifyLocked()
	return nil
}

// threadEditAllowedLocked checks the bot's right to PATCH a thread with p,
// as topics/threads.mdx ("Editing & Deleting Threads") documents it:
// setting archived to false needs the bot to be in the thread (or Manage
// Threads), and the thread's creator or Manage Threads when it is locked;
// name, archiving and auto_archive_duration need the creator or Manage
// Threads; locked and rate_limit_per_user need Manage Threads.
func (s *Server) threadEditAllowedLocked(t *Channel, p *channelPatch) *apiError {
	if err := s.requireLocked(t, 0); err != nil {
		return err
	}
	perms := s.channelPermissionsLocked(t, s.bot.ID)
	manage := perms&PermManageThreads != 0
	creator := t.OwnerID == s.bot.ID
	member := slices.Contains(t.Members, s.bot.ID)
	switch {
	case (p.Locked.Set || p.RateLimitPerUser.Set) && !manage:
		return missingPermissions()
	case p.Archived.Set && !p.Archived.V && t.Archived && !member && !manage:
		return missingPermissions()
	case p.Archived.Set && !p.Archived.V && t.Locked && !creator && !manage:
		return missingPermissions()
	case (p.Name.Set || p.AutoArchiveDuration.Set || p.Archived.Set && p.Archived.V) && !creator && !manage:
		return missingPermissions()
	}
	return nil
}

// postableThreadLocked lets the bot post in a thread it may send in:
// an archived thread is unarchived by the post (topics/threads.mdx,
// "Active & Archived Threads": "Sending a message will automatically
// unarchive the thread, unless the thread has been locked"); a locked
// thread takes no message from a bot without Manage Threads ("Locked
// Threads"): 50083 when it is archived too, else 50013.
func (s *Server) postableThreadLocked(t *Channel) *apiError {
	if !t.IsThread() {
		return nil
	}
	if t.Locked && s.channelPermissionsLocked(t, s.bot.ID)&PermManageThreads == 0 {
		if t.Archived {
			return archivedThread()
		}
		return missingPermissions()
	}
	if t.Archived {
		now := s.nowLocked()
		t.Archived, t.ArchiveTimestamp, t.LastActivity = false, now, now
		s.dispatchGuildLocked(t.GuildID, IntentGuilds, "THREAD_UPDATE", s.channelJSONLocked(t))
	}
	return nil
}
