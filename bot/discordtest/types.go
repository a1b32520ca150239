package discordtest

import (
	"encoding/json"
	"slices"
	"time"
)

// InteractionType is Discord's interaction type.
type InteractionType int

// Interaction types.
const (
	InteractionPing         InteractionType = 1
	InteractionCommand      InteractionType = 2
	InteractionComponent    InteractionType = 3
	InteractionAutocomplete InteractionType = 4
	InteractionModalSubmit  InteractionType = 5
)

// String names the interaction type as Discord's documentation does.
func (t InteractionType) String() string {
	switch t {
	case InteractionPing:
		return "PING"
	case InteractionCommand:
		return "APPLICATION_COMMAND"
	case InteractionComponent:
		return "MESSAGE_COMPONENT"
	case InteractionAutocomplete:
		return "APPLICATION_COMMAND_AUTOCOMPLETE"
	case InteractionModalSubmit:
		return "MODAL_SUBMIT"
	}
	return "UNKNOWN"
}

// Interaction callback (response) types.
const (
	CallbackPong            = 1
	CallbackMessage         = 4 // CHANNEL_MESSAGE_WITH_SOURCE
	CallbackDeferredMessage = 5 // DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
	CallbackDeferredUpdate  = 6 // DEFERRED_UPDATE_MESSAGE
	CallbackUpdateMessage   = 7 // UPDATE_MESSAGE
	CallbackAutocomplete    = 8 // APPLICATION_COMMAND_AUTOCOMPLETE_RESULT
	CallbackModal           = 9
	// CallbackLaunchActivity launches the application's Activity, for a
	// command, a component or a modal submission, with no message
	// (activities/how-activities-work.mdx).
	CallbackLaunchActivity = 12
)

// Message flags the fake understands.
const (
	FlagSuppressEmbeds        = 1 << 2
	FlagEphemeral             = 1 << 6
	FlagLoading               = 1 << 7
	FlagSuppressNotifications = 1 << 12
	FlagComponentsV2          = 1 << 15
)

// Channel types the fake models.
const (
	ChannelText          = 0
	ChannelDM            = 1
	ChannelPublicThread  = 11
	ChannelPrivateThread = 12
)

// Permission bits the fake uses.
const (
	PermAdministrator         int64 = 1 << 3
	PermManageChannels        int64 = 1 << 4
	PermAddReactions          int64 = 1 << 6
	PermViewChannel           int64 = 1 << 10
	PermSendMessages          int64 = 1 << 11
	PermEmbedLinks            int64 = 1 << 14
	PermAttachFiles           int64 = 1 << 15
	PermReadMessageHistory    int64 = 1 << 16
	PermMentionEveryone       int64 = 1 << 17
	PermUseApplicationCommand int64 = 1 << 31
	PermManageThreads         int64 = 1 << 34
	PermCreatePublicThreads   int64 = 1 << 35
	PermSendMessagesInThreads int64 = 1 << 38

	// PermAll is every permission bit Discord defines today.
	PermAll int64 = 1<<51 - 1

	// PermCreatePrivateThreads lets a member start private threads.
	PermCreatePrivateThreads int64 = 1 << 36

	// PermBotDefault is what the bot's own role in each guild may do: what
	// the invite link of a game bot asks for, and no more (no Manage
	// Threads, no Create Private Threads: a real server grants neither
	// unless asked).
	PermBotDefault = PermViewChannel | PermSendMessages | PermSendMessagesInThreads |
		PermCreatePublicThreads | PermEmbedLinks | PermAttachFiles | PermReadMessageHistory |
		PermUseApplicationCommand

	// PermEveryoneDefault is what a new guild's @everyone role may do.
	PermEveryoneDefault = PermViewChannel | PermSendMessages | PermEmbedLinks |
		PermAttachFiles | PermReadMessageHistory | PermAddReactions |
		PermUseApplicationCommand | PermCreatePublicThreads | PermSendMessagesInThreads
)

// Gateway intents the fake knows. GUILD_MEMBERS, GUILD_PRESENCES and
// MESSAGE_CONTENT are privileged: the application must have them enabled
// (Options.PrivilegedIntents) to identify with them.
const (
	IntentGuilds         = 1 << 0
	IntentGuildMembers   = 1 << 1
	IntentGuildPresences = 1 << 8
	IntentGuildMessages  = 1 << 9
	IntentDirectMessages = 1 << 12
	IntentMessageContent = 1 << 15

	privilegedIntents = IntentGuildMembers | IntentGuildPresences | IntentMessageContent
)

// User is a Discord user known to the fake.
type User struct {
	ID         string
	Username   string
	GlobalName string
	Bot        bool
}

// Guild is a guild (server) known to the fake.
type Guild struct {
	ID               string
	Name             string
	OwnerID          string
	DefaultChannelID string // the "general" text channel made with the guild
}

// Role is a guild role. The @everyone role has the guild's ID.
type Role struct {
	ID          string
	GuildID     string
	Name        string
	Permissions int64
}

// Channel is a guild text channel, a thread, or a DM channel.
type Channel struct {
	ID       string
	Type     int
	GuildID  string
	Name     string
	Topic    string
	ParentID string // a thread's channel
	OwnerID  string // a thread's creator

	// Thread state. LastActivity is what auto-archiving counts from.
	Archived            bool
	Locked              bool
	AutoArchiveDuration int // minutes: 60, 1440, 4320 or 10080
	ArchiveTimestamp    time.Time
	LastActivity        time.Time
	Members             []string // a thread's members (user IDs)
	StarterMessageID    string   // set for a thread started from a message
	MessageCount        int

	// Overwrites are a text channel's permission overwrites (SetOverwrites).
	Overwrites []Overwrite

	CreatedAt time.Time
}

// IsThread reports whether the channel is a thread.
func (c Channel) IsThread() bool {
	return c.Type == ChannelPublicThread || c.Type == ChannelPrivateThread
}

// Message is a message as the fake keeps it: what the bot sent, after
// Discord's processing (ephemeral flag, loading state, pings).
type Message struct {
	ID            string
	ChannelID     string
	GuildID       string
	Type          int
	AuthorID      string
	WebhookID     string // the application ID for interaction responses and followups
	InteractionID string // the interaction this message answers, if any
	// InteractionUserID is who invoked that interaction; only they see an
	// ephemeral message.
	InteractionUserID string
	Content           string
	Embeds            []Embed
	Components        []Component
	Attachments       []Attachment
	Flags             int
	// Pings are the users, roles and @everyone this message notified when
	// it was created, after allowed_mentions. Edits never notify.
	Pings       Pings
	ReferenceID string // message_reference.message_id of a reply
	ThreadID    string // the thread started from this message
	CreatedAt   time.Time
	EditedAt    time.Time // zero when never edited
	Edits       int
	Deleted     bool
}

// Ephemeral reports whether only the interaction's user sees the message.
func (m Message) Ephemeral() bool { return m.Flags&FlagEphemeral != 0 }

// Loading reports whether the message is a deferred "is thinking..." one.
func (m Message) Loading() bool { return m.Flags&FlagLoading != 0 }

// Buttons lists the message's buttons, row by row.
func (m Message) Buttons() []Component {
	var out []Component
	for _, row := range m.Components {
		for _, c := range row.Components {
			if c.Type == ComponentButton {
				out = append(out, c)
			}
		}
	}
	return out
}

// Selects lists the message's select menus, row by row.
func (m Message) Selects() []Component {
	var out []Component
	for _, row := range m.Components {
		for _, c := range row.Components {
			if c.Type != ComponentButton {
				out = append(out, c)
			}
		}
	}
	return out
}

// Component finds the message's component with the custom id.
func (m Message) Component(customID string) (Component, bool) {
	for _, row := range m.Components {
		for _, c := range row.Components {
			if c.CustomID == customID {
				return c, true
			}
		}
	}
	return Component{}, false
}

func (m Message) clone() Message {
	m.Embeds = cloneEmbeds(m.Embeds)
	m.Components = cloneComponents(m.Components)
	m.Attachments = slices.Clone(m.Attachments)
	m.Pings = Pings{Users: slices.Clone(m.Pings.Users), Roles: slices.Clone(m.Pings.Roles), Everyone: m.Pings.Everyone}
	return m
}

// Pings are whom a message notified.
type Pings struct {
	Users    []string
	Roles    []string
	Everyone bool
}

// Attachment is a file attached to a message.
type Attachment struct {
	ID          string
	Filename    string
	ContentType string
	Description string
	Size        int
	Data        []byte
	URL         string
}

// Embed is a rich embed, with Discord's JSON field names.
type Embed struct {
	Type        string       `json:"type,omitempty"`
	Title       string       `json:"title,omitempty"`
	Description string       `json:"description,omitempty"`
	URL         string       `json:"url,omitempty"`
	Timestamp   string       `json:"timestamp,omitempty"`
	Color       int          `json:"color,omitempty"`
	Footer      *EmbedFooter `json:"footer,omitempty"`
	Image       *EmbedMedia  `json:"image,omitempty"`
	Thumbnail   *EmbedMedia  `json:"thumbnail,omitempty"`
	Author      *EmbedAuthor `json:"author,omitempty"`
	Fields      []EmbedField `json:"fields,omitempty"`
}

// EmbedFooter is an embed's footer.
type EmbedFooter struct {
	Text    string `json:"text"`
	IconURL string `json:"icon_url,omitempty"`
}

// EmbedMedia is an embed's image or thumbnail.
type EmbedMedia struct {
	URL    string `json:"url"`
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
}

// EmbedAuthor is an embed's author line.
type EmbedAuthor struct {
	Name    string `json:"name"`
	URL     string `json:"url,omitempty"`
	IconURL string `json:"icon_url,omitempty"`
}

// EmbedField is one field of an embed.
type EmbedField struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Inline bool   `json:"inline,omitempty"`
}

func cloneEmbeds(in []Embed) []Embed {
	if in == nil {
		return nil
	}
	out := make([]Embed, len(in))
	for i, e := range in {
		e.Fields = slices.Clone(e.Fields)
		if e.Footer != nil {
			f := *e.Footer
			e.Footer = &f
		}
		if e.Image != nil {
			m := *e.Image
			e.Image = &m
		}
		if e.Thumbnail != nil {
			m := *e.Thumbnail
			e.Thumbnail = &m
		}
		if e.Author != nil {
			a := *e.Author
			e.Author = &a
		}
		out[i] = e
	}
	return out
}

// Component types.
const (
	ComponentActionRow    = 1
	ComponentButton       = 2
	ComponentStringSelect = 3
	ComponentTextInput    = 4
	ComponentUserSelect   = 5
	ComponentRoleSelect   = 6
	ComponentMentionable  = 7
	ComponentChannel      = 8
)

// Button styles.
const (
	ButtonPrimary   = 1
	ButtonSecondary = 2
	ButtonSuccess   = 3
	ButtonDanger    = 4
	ButtonLink      = 5
	ButtonPremium   = 6
)

// Component is a message component (action row, button, select menu, text
// input), with Discord's JSON field names.
type Component struct {
	Type        int            `json:"type"`
	ID          int            `json:"id,omitempty"`
	Style       int            `json:"style,omitempty"`
	Label       string         `json:"label,omitempty"`
	CustomID    string         `json:"custom_id,omitempty"`
	URL         string         `json:"url,omitempty"`
	SKUID       string         `json:"sku_id,omitempty"`
	Disabled    bool           `json:"disabled,omitempty"`
	Emoji       *Emoji         `json:"emoji,omitempty"`
	Components  []Component    `json:"components,omitempty"`
	Options     []SelectOption `json:"options,omitempty"`
	Placeholder string         `json:"placeholder,omitempty"`
	MinValues   *int           `json:"min_values,omitempty"`
	MaxValues   *int           `json:"max_values,omitempty"`
	Value       string         `json:"value,omitempty"`
	Required    *bool          `json:"required,omitempty"`
	MinLength   *int           `json:"min_length,omitempty"`
	MaxLength   *int           `json:"max_length,omitempty"`
}

// Emoji is a component's emoji.
type Emoji struct {
	ID       string `json:"id,omitempty"`
	Name     string `json:"name,omitempty"`
	Animated bool   `json:"animated,omitempty"`
}

// SelectOption is one option of a string select menu.
type SelectOption struct {
	Label       string `json:"label"`
	Value       string `json:"value"`
	Description string `json:"description,omitempty"`
	Emoji       *Emoji `json:"emoji,omitempty"`
	Default     bool   `json:"default,omitempty"`
}

func cloneComponents(in []Component) []Component {
	if in == nil {
		return nil
	}
	out := make([]Component, len(in))
	for i, c := range in {
		c.Components = cloneComponents(c.Components)
		c.Options = slices.Clone(c.Options)
		out[i] = c
	}
	return out
}

// Choice is an application command option choice, also an autocomplete
// result.
type Choice struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
}

// Interaction is an interaction the fake dispatched.
type Interaction struct {
	ID        string
	Token     string
	Type      InteractionType
	GuildID   string
	ChannelID string
	UserID    string
	// CommandName is the invoked command (commands and autocomplete).
	CommandName string
	// CustomID and MessageID name the component pressed and its message.
	CustomID  string
	MessageID string
	// DispatchedAt is when the fake sent it; the 3-second and 15-minute
	// clocks run from here.
	DispatchedAt time.Time
	// Payload is the interaction object exactly as dispatched.
	Payload json.RawMessage
}

// Response is the initial response to an interaction, as the fake
// accepted it.
type Response struct {
	InteractionID string
	Type          int // a Callback constant
	At            time.Time
	Latency       time.Duration // since DispatchedAt
	Content       string
	Flags         int
	Embeds        []Embed
	Components    []Component
	Choices       []Choice // autocomplete results
	Attachments   []Attachment
	// MessageID is the message the response created (4, 5) or updated
	// (6, 7); empty for autocomplete and modals.
	MessageID string
	// Body is the callback's JSON (payload_json for multipart).
	Body json.RawMessage
}

// Ephemeral reports whether the response asked for an ephemeral message.
func (r Response) Ephemeral() bool { return r.Flags&FlagEphemeral != 0 }

// Call is one REST request the fake received.
type Call struct {
	Seq    int
	At     time.Time
	Method string
	// Route is the matched route template, "METHOD /path/{param}", one of
	// the Route constants; "" when no route matched.
	Route  string
	Path   string // without the /api/vN prefix
	Query  string
	Host   string // the host the client addressed (discord.com)
	Params map[string]string
	// Body is the JSON body; for multipart requests, the payload_json part.
	Body  []byte
	Files []FileInfo
	// Status is the answer's HTTP status; Injected marks an answer made by
	// InjectRateLimit or InjectFailure.
	Status   int
	Injected bool
	Response []byte
}

// FileInfo describes a file uploaded with a multipart request.
type FileInfo struct {
	Field       string
	Filename    string
	ContentType string
	Size        int
}

// GatewayEvent is one gateway frame, in either direction.
type GatewayEvent struct {
	At         time.Time
	ConnID     int
	SessionID  string
	FromClient bool
	Op         int
	Type       string // dispatch event name for op 0
	Seq        int64
	Data       json.RawMessage
	// CloseCode is set for a close the fake sent or received (Op is -1).
	CloseCode int
}

// Identify is an IDENTIFY payload the fake accepted or refused.
type Identify struct {
	At             time.Time
	ConnID         int
	SessionID      string // the session it created; empty when refused
	Token          string
	Intents        int
	Shard          [2]int
	Compress       bool
	LargeThreshold int
	Properties     map[string]string
}

// Session is a gateway session.
type Session struct {
	ID        string
	Shard     [2]int
	Intents   int
	Compress  bool
	Connected bool // a websocket is attached
	Invalid   bool // invalidated: it can no longer be resumed
	Seq       int64
	Resumes   int
	// Heartbeats counts the heartbeats received on the attached websocket.
	Heartbeats int
	// ResumesOffURL counts the RESUMEs sent elsewhere than on READY's
	// resume_gateway_url (discordgo v0.29.0 resumes on the first URL); each
	// is also a violation.
	ResumesOffURL int
}
