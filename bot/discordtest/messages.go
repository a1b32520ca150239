package discordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// field is a JSON field that remembers whether it was present and whether
// it was null: in Discord's PATCH bodies an absent field keeps its value and
// a null one clears it.
type field[T any] struct {
	Set  bool
	Null bool
	V    T
}

// UnmarshalJSON records presence and nullness.
func (f *field[T]) UnmarshalJSON(b []byte) error {
	f.Set = true
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		var zero T
		f.Null, f.V = true, zero
		return nil
	}
	return json.Unmarshal(b, &f.V)
}

// messagePayload is the body of every call that makes or edits a message,
// and the data of an interaction callback.
type messagePayload struct {
	Content          field[string]           `json:"content"`
	Embeds           field[[]Embed]          `json:"embeds"`
	Components       field[[]Component]      `json:"components"`
	AllowedMentions  field[allowedMentions]  `json:"allowed_mentions"`
	Flags            field[int]              `json:"flags"`
	Attachments      field[[]attachmentRef]  `json:"attachments"`
	MessageReference field[messageReference] `json:"message_reference"`
	TTS              bool                    `json:"tts"`
	Poll             json.RawMessage         `json:"poll"`

	// Create Message only.
	Nonce        json.RawMessage `json:"nonce"`
	EnforceNonce bool            `json:"enforce_nonce"`

	// Interaction callback data only.
	Choices  field[[]Choice] `json:"choices"`
	CustomID string          `json:"custom_id"`
	Title    string          `json:"title"`
}

type allowedMentions struct {
	Parse       []string `json:"parse"`
	Users       []string `json:"users"`
	Roles       []string `json:"roles"`
	RepliedUser bool     `json:"replied_user"`
}

type attachmentRef struct {
	ID          any    `json:"id"`
	Filename    string `json:"filename"`
	Description string `json:"description"`
}

type messageReference struct {
	MessageID       string `json:"message_id"`
	ChannelID       string `json:"channel_id"`
	FailIfNotExists *bool  `json:"fail_if_not_exists"`
}

// parsePayload decodes a message payload; it never panics on bad input.
func parsePayload(body []byte) (*messagePayload, *apiError) {
	p := &messagePayload{}
	if len(bytes.TrimSpace(body)) == 0 {
		return p, nil
	}
	q := &request{body: body}
	if err := q.decode(p); err != nil {
		return nil, err
	}
	return p, nil
}

// maxNonce and nonceWindow: Create Message takes a nonce, "integer or
// string ... (up to 25 characters)", and with enforce_nonce "it will be
// checked for uniqueness in the past few minutes. If another message was
// created by the same author with the same nonce, that message will be
// returned and no new message will be created" (resources/message.mdx,
// "Create Message"). The fake remembers a nonce for five minutes.
const (
	maxNonce    = 25
	nonceWindow = 5 * time.Minute
)

// nonceOf returns the payload's nonce as text ("" for none), or the
// error of one that is neither an integer nor a string of at most
// maxNonce characters.
func nonceOf(p *messagePayload) (string, *apiError) {
	raw := bytes.TrimSpace(p.Nonce)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return "", nil
	}
	var text string
	if err := json.Unmarshal(raw, &text); err == nil {
		if utf8.RuneCountInString(text) > maxNonce {
			return "", maxLen("nonce", maxNonce)
		}
		return text, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return "", formError("nonce", "BASE_TYPE_INVALID", "Must be an integer or a string.")
	}
	if _, err := n.Int64(); err != nil {
		return "", formError("nonce", "BASE_TYPE_INVALID", "Must be an integer or a string.")
	}
	return n.String(), nil
}

// checkPayload enforces Discord's limits on content, embeds, components,
// allowed mentions and uploads.
func (s *Server) checkPayload(p *messagePayload, files []upload) *apiError {
	if p.Content.Set && utf8.RuneCountInString(p.Content.V) > maxContent {
		return maxLen("content", maxContent)
	}
	if len(p.Poll) > 0 && !bytes.Equal(bytes.TrimSpace(p.Poll), []byte("null")) {
		e := newError(400, 50035, "unsupported", "Invalid Form Body")
		e.detail = "polls are not modelled by the fake"
		return e
	}
	if err := checkEmbeds(p.Embeds.V); err != nil {
		return err
	}
	flags := 0
	if p.Flags.Set {
		flags = p.Flags.V
	}
	if err := checkComponents("components", p.Components.V, flags); err != nil {
		return err
	}
	if p.AllowedMentions.Set && !p.AllowedMentions.Null {
		if err := checkAllowedMentions(p.AllowedMentions.V); err != nil {
			return err
		}
	}
	if len(files) > maxAttachmentsPerMessage {
		return maxLen("files", maxAttachmentsPerMessage)
	}
	for _, f := range files {
		if int64(len(f.data)) > s.opts.MaxUploadBytes {
			e := newError(413, 40005, "too-large", "Request entity too large")
			e.detail = fmt.Sprintf("file %q is %d bytes, the limit is %d", f.filename, len(f.data), s.opts.MaxUploadBytes)
			return e
		}
	}
	return nil
}

func checkEmbeds(embeds []Embed) *apiError {
	if len(embeds) > maxEmbeds {
		return maxLen("embeds", maxEmbeds)
	}
	total := 0
	count := func(path, v string, limit int) *apiError {
		n := utf8.RuneCountInString(v)
		total += n
		if n > limit {
			return maxLen(path, limit)
		}
		return nil
	}
	for i, e := range embeds {
		p := "embeds." + strconv.Itoa(i)
		if err := count(p+".title", e.Title, 256); err != nil {
			return err
		}
		if err := count(p+".description", e.Description, 4096); err != nil {
			return err
		}
		if len(e.Fields) > 25 {
			return maxLen(p+".fields", 25)
		}
		for j, f := range e.Fields {
			fp := p + ".fields." + strconv.Itoa(j)
			if f.Name == "" {
				return required(fp + ".name")
			}
			if f.Value == "" {
				return required(fp + ".value")
			}
			if err := count(fp+".name", f.Name, 256); err != nil {
				return err
			}
			if err := count(fp+".value", f.Value, 1024); err != nil {
				return err
			}
		}
		if e.Footer != nil {
			if err := count(p+".footer.text", e.Footer.Text, 2048); err != nil {
				return err
			}
		}
		if e.Author != nil {
			if err := count(p+".author.name", e.Author.Name, 256); err != nil {
				return err
			}
		}
	}
	if total > maxEmbedTotal {
		return formError("embeds", "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Embed size exceeds maximum size of %d", maxEmbedTotal))
	}
	return nil
}

// checkComponents enforces the limits of legacy (action row) components.
func checkComponents(path string, rows []Component, flags int) *apiError {
	if flags&FlagComponentsV2 != 0 {
		e := newError(400, 50035, "unsupported", "Invalid Form Body")
		e.detail = "components v2 (flag 32768) are not modelled by the fake"
		return e
	}
	if len(rows) > maxActionRows {
		return maxLen(path, maxActionRows)
	}
	seen := map[string]bool{}
	for i, row := range rows {
		rp := path + "." + strconv.Itoa(i)
		if row.Type != ComponentActionRow {
			return formError(rp+".type", "UNION_TYPE_CHOICES", fmt.Sprintf("Value of field \"type\" must be one of (1,); top-level component type %d needs an action row", row.Type))
		}
		if len(row.Components) == 0 {
			return formError(rp+".components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
		}
		if len(row.Components) > maxButtonsPerRow {
			return maxLen(rp+".components", maxButtonsPerRow)
		}
		selects := 0
		for j, c := range row.Components {
			cp := rp + ".components." + strconv.Itoa(j)
			if err := checkComponent(cp, c); err != nil {
				return err
			}
			if c.Type != ComponentButton {
				selects++
			}
			if c.CustomID != "" {
				if seen[c.CustomID] {
					return formError(cp+".custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
				}
				seen[c.CustomID] = true
			}
		}
		if selects > 0 && len(row.Components) > 1 {
			return formError(rp+".components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "The specified component exceeds the maximum width")
		}
	}
	return nil
}

func checkComponent(path string, c Component) *apiError {
	switch c.Type {
	case ComponentButton:
		if c.Style < ButtonPrimary || c.Style > ButtonPremium {
			return formError(path+".style", "BASE_TYPE_CHOICES", fmt.Sprintf("Value must be one of {1, 2, 3, 4, 5, 6}, not %d.", c.Style))
		}
		if utf8.RuneCountInString(c.Label) > maxButtonLabel {
			return maxLen(path+".label", maxButtonLabel)
		}
		switch c.Style {
		case ButtonLink:
			if c.URL == "" {
				return required(path + ".url")
			}
			if c.CustomID != "" {
				return formError(path+".custom_id", "BUTTON_COMPONENT_CUSTOM_ID_WITH_URL", "A link button cannot have a custom id")
			}
		case ButtonPremium:
			if c.SKUID == "" {
				return required(path + ".sku_id")
			}
		default:
			if c.CustomID == "" {
				return required(path + ".custom_id")
			}
			if c.URL != "" {
				return formError(path+".url", "BUTTON_COMPONENT_URL_WITH_CUSTOM_ID", "A button with a custom id cannot have a url")
			}
		}
		if c.Style != ButtonPremium && c.Label == "" && (c.Emoji == nil || (c.Emoji.ID == "" && c.Emoji.Name == "")) {
			return formError(path, "BUTTON_COMPONENT_INVALID", "A button needs a label or an emoji")
		}
	case ComponentStringSelect, ComponentUserSelect, ComponentRoleSelect, ComponentMentionable, ComponentChannel:
		if c.Type == ComponentStringSelect {
			if len(c.Options) == 0 {
				return formError(path+".options", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.")
			}
			if len(c.Options) > maxSelectOptions {
				return maxLen(path+".options", maxSelectOptions)
			}
			for k, o := range c.Options {
				op := path + ".options." + strconv.Itoa(k)
				if o.Label == "" {
					return required(op + ".label")
				}
				if o.Value == "" {
					return required(op + ".value")
				}
				for name, v := range map[string]string{"label": o.Label, "value": o.Value, "description": o.Description} {
					if utf8.RuneCountInString(v) > 100 {
						return maxLen(op+"."+name, 100)
					}
				}
			}
		}
		if utf8.RuneCountInString(c.Placeholder) > 150 {
			return maxLen(path+".placeholder", 150)
		}
		if c.MinValues != nil && (*c.MinValues < 0 || *c.MinValues > 25) {
			return formError(path+".min_values", "NUMBER_TYPE_MAX", "int value should be between 0 and 25.")
		}
		if c.MaxValues != nil && (*c.MaxValues < 1 || *c.MaxValues > 25) {
			return formError(path+".max_values", "NUMBER_TYPE_MAX", "int value should be between 1 and 25.")
		}
	default:
		return formError(path+".type", "COMPONENT_TYPE_INVALID", fmt.Sprintf("Component type %d is not allowed in a message action row", c.Type))
	}
	if c.Type != ComponentButton || (c.Style != ButtonLink && c.Style != ButtonPremium) {
		if c.CustomID == "" {
			return required(path + ".custom_id")
		}
		if utf8.RuneCountInString(c.CustomID) > maxCustomID {
			return maxLen(path+".custom_id", maxCustomID)
		}
	}
	return nil
}

func checkAllowedMentions(am allowedMentions) *apiError {
	for i, p := range am.Parse {
		if p != "users" && p != "roles" && p != "everyone" {
			return formError("allowed_mentions.parse."+strconv.Itoa(i), "BASE_TYPE_CHOICES", fmt.Sprintf("Value must be one of ('roles', 'users', 'everyone'), not %q.", p))
		}
	}
	if slices.Contains(am.Parse, "users") && len(am.Users) > 0 {
		return formError("allowed_mentions", "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE", "parse:[\"users\"] and users: [ids] are mutually exclusive.")
	}
	if slices.Contains(am.Parse, "roles") && len(am.Roles) > 0 {
		return formError("allowed_mentions", "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE", "parse:[\"roles\"] and roles: [ids] are mutually exclusive.")
	}
	if len(am.Users) > maxAllowedMentionIDs {
		return maxLen("allowed_mentions.users", maxAllowedMentionIDs)
	}
	if len(am.Roles) > maxAllowedMentionIDs {
		return maxLen("allowed_mentions.roles", maxAllowedMentionIDs)
	}
	return nil
}

// parseMentions finds <@id>, <@!id>, <@&id>, @everyone and @here in
// content, each ID once, in order of appearance.
func parseMentions(content string) (users, roles []string, everyone bool) {
	everyone = strings.Contains(content, "@everyone") || strings.Contains(content, "@here")
	rest := content
	for {
		i := strings.Index(rest, "<@")
		if i < 0 {
			return users, roles, everyone
		}
		rest = rest[i+2:]
		isRole := false
		switch {
		case strings.HasPrefix(rest, "!"):
			rest = rest[1:]
		case strings.HasPrefix(rest, "&"):
			isRole, rest = true, rest[1:]
		}
		n := 0
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n == 0 || n > 20 || n >= len(rest) || rest[n] != '>' {
			continue
		}
		id := rest[:n]
		rest = rest[n+1:]
		if isRole {
			if !slices.Contains(roles, id) {
				roles = append(roles, id)
			}
		} else if !slices.Contains(users, id) {
			users = append(users, id)
		}
	}
}

// pingsLocked computes whom a new message notifies: the mentions in its
// content that allowed_mentions lets through (all of them when it is
// absent), among users who can see the channel, plus the author of the
// replied-to message when replied_user allows.
func (s *Server) pingsLocked(ch *Channel, content string, am field[allowedMentions], replyAuthor string) Pings {
	users, roles, everyone := parseMentions(content)
	var a *allowedMentions
	if am.Set && !am.Null {
		a = &am.V
	}
	var out Pings
	for _, u := range users {
		if a != nil && !slices.Contains(a.Parse, "users") && !slices.Contains(a.Users, u) {
			continue
		}
		if s.canSeeLocked(ch, u, true) {
			out.Users = append(out.Users, u)
		}
	}
	for _, r := range roles {
		if a != nil && !slices.Contains(a.Parse, "roles") && !slices.Contains(a.Roles, r) {
			continue
		}
		if role, ok := s.roles[r]; ok && role.GuildID == ch.GuildID {
			out.Roles = append(out.Roles, r)
		}
	}
	out.Everyone = everyone && (a == nil || slices.Contains(a.Parse, "everyone"))
	if replyAuthor != "" && replyAuthor != s.bot.ID && (a == nil || a.RepliedUser) && !slices.Contains(out.Users, replyAuthor) {
		out.Users = append(out.Users, replyAuthor)
	}
	return out
}

// canSeeLocked reports whether a user sees a channel. A mention may add a
// guild member to a private thread, as Discord does (join).
func (s *Server) canSeeLocked(ch *Channel, userID string, join bool) bool {
	if ch.Type == ChannelDM {
		return slices.Contains(ch.Members, userID)
	}
	g, ok := s.guilds[ch.GuildID]
	if !ok {
		return false
	}
	perms, member := s.permissionsLocked(g, userID)
	if !member || perms&PermViewChannel == 0 {
		return false
	}
	if ch.Type == ChannelPrivateThread && !slices.Contains(ch.Members, userID) {
		if perms&PermManageThreads != 0 {
			return true
		}
		if join {
			ch.Members = append(ch.Members, userID)
			return true
		}
		return false
	}
	return true
}

// attachmentsFromUploads turns uploaded files into attachments, with the
// descriptions the payload's attachments array gives by file index.
func (s *Server) attachmentsFromUploads(channelID string, files []upload, refs []attachmentRef) []Attachment {
	var out []Attachment
	for i, f := range files {
		idx := i
		if n, ok := strings.CutPrefix(f.field, "files["); ok {
			if v, err := strconv.Atoi(strings.TrimSuffix(n, "]")); err == nil {
				idx = v
			}
		}
		a := Attachment{ID: s.newIDLocked(), Filename: f.filename, ContentType: f.contentType, Size: len(f.data), Data: bytes.Clone(f.data)}
		for _, r := range refs {
			if refIndex(r.ID) == idx {
				a.Description = r.Description
				if r.Filename != "" {
					a.Filename = r.Filename
				}
			}
		}
		a.URL = "https://cdn.discordapp.com/attachments/" + channelID + "/" + a.ID + "/" + a.Filename
		out = append(out, a)
	}
	return out
}

// refIndex reads an attachments[] id that names a new upload (a small
// number); it returns -1 for an existing attachment's snowflake.
func refIndex(id any) int {
	switch v := id.(type) {
	case float64:
		if v >= 0 && v < maxAttachmentsPerMessage && v == float64(int(v)) {
			return int(v)
		}
	case string:
		if n, err := strconv.Atoi(v); err == nil && n >= 0 && n < maxAttachmentsPerMessage {
			return n
		}
	}
	return -1
}

func refSnowflake(id any) string {
	switch v := id.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return ""
}

// fillNew sets a new message's content from a payload.
func (s *Server) fillNew(m *Message, p *messagePayload, files []upload) {
	m.Content = p.Content.V
	m.Embeds = normalizeEmbeds(p.Embeds.V)
	m.Components = cloneComponents(p.Components.V)
	m.Attachments = s.attachmentsFromUploads(m.ChannelID, files, p.Attachments.V)
}

// applyEdit changes a message as a PATCH (or an UPDATE_MESSAGE response)
// does: absent fields stay; null content and null embeds clear them, but
// null components are ignored and only [] removes components (Discord's
// behaviour, discord-api-docs#5860). discordgo's InteractionResponseData
// always sends "embeds":null and "components":null, so an update that
// leaves out Embeds drops the embeds and keeps the buttons. Existing
// attachments stay unless the attachments array is sent, which lists those
// to keep; new uploads are appended (API v9).
func (s *Server) applyEdit(m *Message, p *messagePayload, files []upload) *apiError {
	if p.Content.Set {
		m.Content = p.Content.V
	}
	if p.Embeds.Set {
		m.Embeds = normalizeEmbeds(p.Embeds.V)
	}
	if p.Components.Set && !p.Components.Null {
		m.Components = cloneComponents(p.Components.V)
	}
	if p.Attachments.Set {
		keep := map[string]bool{}
		for _, r := range p.Attachments.V {
			keep[refSnowflake(r.ID)] = true
		}
		var kept []Attachment
		for _, a := range m.Attachments {
			if keep[a.ID] {
				kept = append(kept, a)
			}
		}
		m.Attachments = kept
	}
	m.Attachments = append(m.Attachments, s.attachmentsFromUploads(m.ChannelID, files, p.Attachments.V)...)
	if len(m.Attachments) > maxAttachmentsPerMessage {
		return maxLen("attachments", maxAttachmentsPerMessage)
	}
	return nil
}

func normalizeEmbeds(in []Embed) []Embed {
	out := cloneEmbeds(in)
	for i := range out {
		if out[i].Type == "" {
			out[i].Type = "rich"
		}
	}
	return out
}

// isEmpty reports whether a message has nothing Discord would show.
func isEmpty(m *Message) bool {
	return m.Content == "" && len(m.Embeds) == 0 && len(m.Attachments) == 0
}

// storeMessageLocked files a new message in its channel, counts it as
// thread activity and dispatches MESSAGE_CREATE.
func (s *Server) storeMessageLocked(m *Message, ch *Channel) {
	s.messages[m.ID] = m
	s.chanMsgs[ch.ID] = append(s.chanMsgs[ch.ID], m.ID)
	if ch.IsThread() {
		ch.MessageCount++
		ch.LastActivity = m.CreatedAt
	}
	if !m.Ephemeral() {
		s.dispatchMessageLocked("MESSAGE_CREATE", m, ch)
	}
}

// dispatchMessageLocked sends a message event to sessions with the
// GUILD_MESSAGES (or DIRECT_MESSAGES) intent.
func (s *Server) dispatchMessageLocked(event string, m *Message, ch *Channel) {
	intent := IntentGuildMessages
	if ch.Type == ChannelDM {
		intent = IntentDirectMessages
	}
	s.dispatchGuildLocked(ch.GuildID, intent, event, s.messageJSONLocked(m, true))
}

// editedCopy applies an edit request's payload to a copy of m, checked as
// Discord checks an edit of a channel or webhook message.
func (s *Server) editedCopy(m *Message, q *request) (Message, *apiError) {
	p, err := parsePayload(q.body)
	if err != nil {
		return Message{}, err
	}
	if err := s.checkPayload(p, q.files); err != nil {
		return Message{}, err
	}
	edited := m.clone()
	if err := s.applyEdit(&edited, p, q.files); err != nil {
		return Message{}, err
	}
	if p.Flags.Set {
		edited.Flags = edited.Flags&^FlagSuppressEmbeds | p.Flags.V&FlagSuppressEmbeds
	}
	if isEmpty(&edited) {
		return Message{}, emptyMessage()
	}
	return edited, nil
}
