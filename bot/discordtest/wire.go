package discordtest

import (
	"maps"
	"slices"
	"strconv"
	"time"
)

// This file renders the fake's state as Discord's JSON objects.

type wireUser struct {
	ID            string  `json:"id"`
	Username      string  `json:"username"`
	Discriminator string  `json:"discriminator"`
	GlobalName    *string `json:"global_name"`
	Avatar        *string `json:"avatar"`
	Bot           bool    `json:"bot,omitempty"`
	PublicFlags   int     `json:"public_flags"`
}

func userJSON(u *User) wireUser {
	w := wireUser{ID: u.ID, Username: u.Username, Discriminator: "0", Bot: u.Bot}
	if u.GlobalName != "" {
		g := u.GlobalName
		w.GlobalName = &g
	}
	return w
}

func timestamp(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000000+00:00")
}

func optTimestamp(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := timestamp(t)
	return &s
}

type wireMember struct {
	User        *wireUser `json:"user,omitempty"`
	Nick        *string   `json:"nick"`
	Avatar      *string   `json:"avatar"`
	Roles       []string  `json:"roles"`
	JoinedAt    string    `json:"joined_at"`
	Deaf        bool      `json:"deaf"`
	Mute        bool      `json:"mute"`
	Flags       int       `json:"flags"`
	Pending     bool      `json:"pending"`
	Permissions string    `json:"permissions,omitempty"`
}

func (s *Server) memberJSONLocked(g *guildRec, m *memberRec, withUser bool, withPerms bool) wireMember {
	w := wireMember{Roles: append([]string{}, m.roles...), JoinedAt: timestamp(m.joinedAt)}
	if withUser {
		u := userJSON(s.users[m.userID])
		w.User = &u
	}
	if withPerms {
		p, _ := s.permissionsLocked(g, m.userID)
		w.Permissions = strconv.FormatInt(p, 10)
	}
	return w
}

type wireRole struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Color       int    `json:"color"`
	Hoist       bool   `json:"hoist"`
	Position    int    `json:"position"`
	Permissions string `json:"permissions"`
	Managed     bool   `json:"managed"`
	Mentionable bool   `json:"mentionable"`
	Flags       int    `json:"flags"`
}

func roleJSON(r *Role, position int) wireRole {
	return wireRole{ID: r.ID, Name: r.Name, Position: position, Permissions: strconv.FormatInt(r.Permissions, 10)}
}

type wireThreadMeta struct {
	Archived            bool   `json:"archived"`
	AutoArchiveDuration int    `json:"auto_archive_duration"`
	ArchiveTimestamp    string `json:"archive_timestamp"`
	Locked              bool   `json:"locked"`
	Invitable           *bool  `json:"invitable,omitempty"`
	CreateTimestamp     string `json:"create_timestamp"`
}

type wireChannel struct {
	ID                   string          `json:"id"`
	Type                 int             `json:"type"`
	GuildID              string          `json:"guild_id,omitempty"`
	Name                 string          `json:"name,omitempty"`
	Position             *int            `json:"position,omitempty"`
	PermissionOverwrites []any           `json:"permission_overwrites,omitempty"`
	ParentID             *string         `json:"parent_id,omitempty"`
	Topic                *string         `json:"topic,omitempty"`
	NSFW                 bool            `json:"nsfw"`
	LastMessageID        *string         `json:"last_message_id"`
	RateLimitPerUser     int             `json:"rate_limit_per_user"`
	Flags                int             `json:"flags"`
	OwnerID              string          `json:"owner_id,omitempty"`
	MessageCount         *int            `json:"message_count,omitempty"`
	MemberCount          *int            `json:"member_count,omitempty"`
	TotalMessageSent     *int            `json:"total_message_sent,omitempty"`
	ThreadMetadata       *wireThreadMeta `json:"thread_metadata,omitempty"`
	Recipients           []wireUser      `json:"recipients,omitempty"`
	NewlyCreated         bool            `json:"newly_created,omitempty"`
}

func (s *Server) channelJSONLocked(c *Channel) wireChannel {
	w := wireChannel{ID: c.ID, Type: c.Type, GuildID: c.GuildID, Name: c.Name}
	if msgs := s.chanMsgs[c.ID]; len(msgs) > 0 {
		last := msgs[len(msgs)-1]
		w.LastMessageID = &last
	}
	switch c.Type {
	case ChannelText:
		pos := 0
		topic := c.Topic
		w.Position, w.Topic = &pos, &topic
		w.PermissionOverwrites = []any{}
		for _, o := range c.Overwrites {
			typ := 0
			if o.Member {
				typ = 1
			}
			w.PermissionOverwrites = append(w.PermissionOverwrites, map[string]any{
				"id": o.ID, "type": typ, "allow": strconv.FormatInt(o.Allow, 10), "deny": strconv.FormatInt(o.Deny, 10),
			})
		}
	case ChannelDM:
		w.Name = ""
		for _, id := range c.Members {
			if u, ok := s.users[id]; ok && id != s.bot.ID {
				w.Recipients = append(w.Recipients, userJSON(u))
			}
		}
	case ChannelPublicThread, ChannelPrivateThread:
		parent := c.ParentID
		w.ParentID = &parent
		w.OwnerID = c.OwnerID
		count, members := c.MessageCount, len(c.Members)
		w.MessageCount, w.TotalMessageSent, w.MemberCount = &count, &count, &members
		meta := &wireThreadMeta{
			Archived:            c.Archived,
			AutoArchiveDuration: c.AutoArchiveDuration,
			ArchiveTimestamp:    timestamp(c.ArchiveTimestamp),
			Locked:              c.Locked,
			CreateTimestamp:     timestamp(c.CreatedAt),
		}
		if c.Type == ChannelPrivateThread {
			inv := true
			meta.Invitable = &inv
		}
		w.ThreadMetadata = meta
	}
	return w
}

type wireAttachment struct {
	ID          string `json:"id"`
	Filename    string `json:"filename"`
	Description string `json:"description,omitempty"`
	ContentType string `json:"content_type,omitempty"`
	Size        int    `json:"size"`
	URL         string `json:"url"`
	ProxyURL    string `json:"proxy_url"`
	Ephemeral   bool   `json:"ephemeral,omitempty"`
}

type wireMessageInteraction struct {
	ID   string   `json:"id"`
	Type int      `json:"type"`
	Name string   `json:"name"`
	User wireUser `json:"user"`
}

type wireInteractionMetadata struct {
	ID                           string            `json:"id"`
	Type                         int               `json:"type"`
	User                         wireUser          `json:"user"`
	AuthorizingIntegrationOwners map[string]string `json:"authorizing_integration_owners"`
	InteractedMessageID          string            `json:"interacted_message_id,omitempty"`
}

type wireReference struct {
	Type      int    `json:"type"`
	MessageID string `json:"message_id"`
	ChannelID string `json:"channel_id"`
	GuildID   string `json:"guild_id,omitempty"`
}

type wireMessage struct {
	ID                  string                   `json:"id"`
	Type                int                      `json:"type"`
	ChannelID           string                   `json:"channel_id"`
	GuildID             string                   `json:"guild_id,omitempty"`
	Author              wireUser                 `json:"author"`
	Content             string                   `json:"content"`
	Timestamp           string                   `json:"timestamp"`
	EditedTimestamp     *string                  `json:"edited_timestamp"`
	TTS                 bool                     `json:"tts"`
	MentionEveryone     bool                     `json:"mention_everyone"`
	Mentions            []wireUser               `json:"mentions"`
	MentionRoles        []string                 `json:"mention_roles"`
	Attachments         []wireAttachment         `json:"attachments"`
	Embeds              []Embed                  `json:"embeds"`
	Components          []Component              `json:"components"`
	Pinned              bool                     `json:"pinned"`
	Flags               int                      `json:"flags"`
	WebhookID           string                   `json:"webhook_id,omitempty"`
	ApplicationID       string                   `json:"application_id,omitempty"`
	Interaction         *wireMessageInteraction  `json:"interaction,omitempty"`
	InteractionMetadata *wireInteractionMetadata `json:"interaction_metadata,omitempty"`
	MessageReference    *wireReference           `json:"message_reference,omitempty"`
	Thread              *wireChannel             `json:"thread,omitempty"`
}

// messageJSONLocked renders a message; withGuild adds guild_id, as
// gateway events do and REST answers do not.
func (s *Server) messageJSONLocked(m *Message, withGuild bool) wireMessage {
	w := wireMessage{
		ID:              m.ID,
		Type:            m.Type,
		ChannelID:       m.ChannelID,
		Author:          userJSON(s.users[m.AuthorID]),
		Content:         m.Content,
		Timestamp:       timestamp(m.CreatedAt),
		EditedTimestamp: optTimestamp(m.EditedAt),
		MentionEveryone: m.Pings.Everyone,
		Mentions:        []wireUser{},
		MentionRoles:    append([]string{}, m.Pings.Roles...),
		Attachments:     []wireAttachment{},
		Embeds:          cloneEmbeds(m.Embeds),
		Components:      cloneComponents(m.Components),
		Flags:           m.Flags,
		WebhookID:       m.WebhookID,
	}
	if w.Embeds == nil {
		w.Embeds = []Embed{}
	}
	if w.Components == nil {
		w.Components = []Component{}
	}
	if withGuild {
		w.GuildID = m.GuildID
	}
	for _, id := range m.Pings.Users {
		if u, ok := s.users[id]; ok {
			w.Mentions = append(w.Mentions, userJSON(u))
		}
	}
	for _, a := range m.Attachments {
		w.Attachments = append(w.Attachments, wireAttachment{
			ID: a.ID, Filename: a.Filename, Description: a.Description, ContentType: a.ContentType,
			Size: a.Size, URL: a.URL, ProxyURL: a.URL, Ephemeral: m.Ephemeral(),
		})
	}
	if m.InteractionID != "" {
		w.ApplicationID = s.opts.AppID
		if in, ok := s.inters[m.InteractionID]; ok {
			u := userJSON(s.users[in.UserID])
			w.Interaction = &wireMessageInteraction{ID: in.ID, Type: int(in.Type), Name: in.CommandName, User: u}
			owners := map[string]string{}
			if in.GuildID != "" {
				owners["0"] = in.GuildID
			} else {
				owners["1"] = in.UserID
			}
			w.InteractionMetadata = &wireInteractionMetadata{ID: in.ID, Type: int(in.Type), User: u, AuthorizingIntegrationOwners: owners, InteractedMessageID: in.MessageID}
		}
	}
	if m.ReferenceID != "" {
		w.MessageReference = &wireReference{MessageID: m.ReferenceID, ChannelID: m.ChannelID, GuildID: m.GuildID}
	}
	if m.ThreadID != "" {
		if t, ok := s.channels[m.ThreadID]; ok {
			tw := s.channelJSONLocked(t)
			w.Thread = &tw
		}
	}
	return w
}

type wireGuild struct {
	ID                   string        `json:"id"`
	Name                 string        `json:"name"`
	Icon                 *string       `json:"icon"`
	OwnerID              string        `json:"owner_id"`
	Roles                []wireRole    `json:"roles"`
	Emojis               []any         `json:"emojis"`
	Stickers             []any         `json:"stickers"`
	Features             []string      `json:"features"`
	PreferredLocale      string        `json:"preferred_locale"`
	PremiumTier          int           `json:"premium_tier"`
	SystemChannelID      *string       `json:"system_channel_id"`
	JoinedAt             string        `json:"joined_at,omitempty"`
	Large                *bool         `json:"large,omitempty"`
	Unavailable          *bool         `json:"unavailable,omitempty"`
	MemberCount          *int          `json:"member_count,omitempty"`
	Members              []wireMember  `json:"members,omitempty"`
	Channels             []wireChannel `json:"channels,omitempty"`
	Threads              []wireChannel `json:"threads,omitempty"`
	VoiceStates          []any         `json:"voice_states,omitempty"`
	Presences            []any         `json:"presences,omitempty"`
	StageInstances       []any         `json:"stage_instances,omitempty"`
	GuildScheduledEvents []any         `json:"guild_scheduled_events,omitempty"`
}

func (s *Server) guildJSONLocked(g *guildRec) wireGuild {
	sys := g.DefaultChannelID
	w := wireGuild{
		ID: g.ID, Name: g.Name, OwnerID: g.OwnerID, Roles: []wireRole{}, Emojis: []any{}, Stickers: []any{},
		Features: []string{}, PreferredLocale: "en-US", SystemChannelID: &sys,
	}
	for i, id := range g.roleIDs {
		w.Roles = append(w.Roles, roleJSON(s.roles[id], i))
	}
	return w
}

// guildCreateJSONLocked is the GUILD_CREATE payload: the guild with its
// channels, active threads and (without GUILD_MEMBERS) only the bot's member.
func (s *Server) guildCreateJSONLocked(g *guildRec, intents int) wireGuild {
	w := s.guildJSONLocked(g)
	large, unavailable, count := false, false, len(g.members)
	w.JoinedAt, w.Large, w.Unavailable, w.MemberCount = timestamp(g.joinedAt), &large, &unavailable, &count
	w.Channels, w.Threads = []wireChannel{}, []wireChannel{}
	w.VoiceStates, w.Presences, w.StageInstances, w.GuildScheduledEvents = []any{}, []any{}, []any{}, []any{}
	for _, id := range s.chanOrder {
		c := s.channels[id]
		if c.GuildID != g.ID {
			continue
		}
		if c.IsThread() {
			if !c.Archived {
				w.Threads = append(w.Threads, s.channelJSONLocked(c))
			}
			continue
		}
		w.Channels = append(w.Channels, s.channelJSONLocked(c))
	}
	w.Members = []wireMember{s.memberJSONLocked(g, g.members[s.bot.ID], true, false)}
	if intents&IntentGuildMembers != 0 {
		w.Members = w.Members[:0]
		for _, id := range slices.Sorted(maps.Keys(g.members)) {
			w.Members = append(w.Members, s.memberJSONLocked(g, g.members[id], true, false))
		}
	}
	return w
}
