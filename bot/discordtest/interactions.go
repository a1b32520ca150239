package discordtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Option is a command option as a user fills it in. Its type comes from
// the registered command.
type Option struct {
	Name string
	// Value is a string, bool, integer (int, int64, ...) or float64; for
	// user, channel, role and mentionable options, the ID as a string.
	// For the focused option of an autocomplete, the partial text typed.
	Value any
	// Focused marks the option being typed (autocomplete only).
	Focused bool
	// Options are a subcommand's or group's options.
	Options []Option
}

// InteractionSpec describes an interaction for SendInteraction.
type InteractionSpec struct {
	Type   InteractionType // InteractionCommand, InteractionAutocomplete or InteractionComponent
	UserID string
	// ChannelID is where a command is used; "" means the start guild's
	// general channel. A component's channel is its message's.
	ChannelID string
	// DM uses the command in the user's DM with the bot instead.
	DM     bool
	Locale string // "" means en-US

	// Command and autocomplete.
	Name    string
	Options []Option

	// Component: the message and the custom_id of the button or select
	// menu; Values are a select menu's chosen values.
	MessageID string
	CustomID  string
	Values    []string
}

type interactionRec struct {
	Interaction
	focusedType int
	response    *Response
	late        bool // the deadline passed without an answer: the token is dead
	failed      bool // an HTTP endpoint refused it (already a violation)
	answering   bool // POSTed to an HTTP endpoint whose answer is not yet taken in
	originalID  string
	followups   []string
}

func (in *interactionRec) describe() string {
	switch in.Type {
	case InteractionCommand:
		return "/" + in.CommandName
	case InteractionAutocomplete:
		return "autocomplete /" + in.CommandName
	case InteractionComponent:
		return "component " + strconv.Quote(in.CustomID)
	}
	return in.Type.String()
}

func (in *interactionRec) snapshot() Interaction {
	out := in.Interaction
	out.Payload = slices.Clone(in.Payload)
	return out
}

// SendCommand dispatches a slash command (INTERACTION_CREATE, type 2) used
// by userID in channelID ("" for the start guild's general channel).
func (s *Server) SendCommand(userID, channelID, name string, opts ...Option) (Interaction, error) {
	return s.SendInteraction(InteractionSpec{Type: InteractionCommand, UserID: userID, ChannelID: channelID, Name: name, Options: opts})
}

// SendAutocomplete dispatches an autocomplete request (type 4); exactly one
// option must be Focused.
func (s *Server) SendAutocomplete(userID, channelID, name string, opts ...Option) (Interaction, error) {
	return s.SendInteraction(InteractionSpec{Type: InteractionAutocomplete, UserID: userID, ChannelID: channelID, Name: name, Options: opts})
}

// PressButton dispatches a button press (type 3) on a message.
func (s *Server) PressButton(userID, messageID, customID string) (Interaction, error) {
	return s.SendInteraction(InteractionSpec{Type: InteractionComponent, UserID: userID, MessageID: messageID, CustomID: customID})
}

// ChooseOption dispatches a pick from a string select menu of a message
// (type 3, component_type 3, components/reference.mdx "String Select
// Interaction Response Structure"): values must be options of the select,
// as many as its min_values and max_values allow.
func (s *Server) ChooseOption(userID, messageID, customID string, values ...string) (Interaction, error) {
	return s.SendInteraction(InteractionSpec{Type: InteractionComponent, UserID: userID, MessageID: messageID, CustomID: customID, Values: values})
}

// SendInteraction dispatches INTERACTION_CREATE to the bot's gateway
// session for the channel's shard. It refuses what a Discord client could
// not send: a command the bot did not register or the user may not see, an
// option that does not fit the registered schema, a missing required
// option, a component that is not on the message or is disabled.
func (s *Server) SendInteraction(spec InteractionSpec) (Interaction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Interaction{}, errClosed
	}
	s.sweepLocked()
	in, err := s.buildInteractionLocked(spec)
	if err != nil {
		return Interaction{}, fmt.Errorf("send %s interaction: %w", spec.Type, err)
	}
	sessions := s.routeSessionsLocked(in.GuildID)
	if len(sessions) == 0 {
		return Interaction{}, fmt.Errorf("send %s interaction: no gateway session for the shard of guild %q: is the bot connected?", spec.Type, in.GuildID)
	}
	s.registerLocked(in)
	for _, sess := range sessions {
		s.dispatchRawLocked(sess, "INTERACTION_CREATE", in.Payload)
	}
	s.notifyLocked()
	return in.snapshot(), nil
}

// registerLocked starts an interaction's clocks and makes its ID and token
// known to the callback and webhook routes.
func (s *Server) registerLocked(in *interactionRec) {
	in.DispatchedAt = s.nowLocked()
	s.inters[in.ID] = in
	s.interOrder = append(s.interOrder, in.ID)
	s.tokens[in.Token] = in
}

// Invoke sends a slash command and waits for its initial response.
func (s *Server) Invoke(ctx context.Context, userID, channelID, name string, opts ...Option) (Response, error) {
	in, err := s.SendCommand(userID, channelID, name, opts...)
	if err != nil {
		return Response{}, err
	}
	return s.WaitForResponse(ctx, in.ID)
}

// Interactions returns every interaction dispatched, oldest first.
func (s *Server) Interactions() []Interaction {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Interaction, 0, len(s.interOrder))
	for _, id := range s.interOrder {
		out = append(out, s.inters[id].snapshot())
	}
	return out
}

// ResponseTo returns the initial response to an interaction, if any.
func (s *Server) ResponseTo(interactionID string) (Response, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in, ok := s.inters[interactionID]
	if !ok || in.response == nil {
		return Response{}, false
	}
	return cloneResponse(in.response), true
}

// WaitForResponse waits for the initial response to an interaction. It
// fails early if the bot answered after the deadline.
func (s *Server) WaitForResponse(ctx context.Context, interactionID string) (Response, error) {
	var (
		out          Response
		late, failed bool
	)
	err := s.wait(ctx, "response to interaction "+interactionID, func() bool {
		in, ok := s.inters[interactionID]
		if !ok {
			return false
		}
		if in.response != nil {
			out = cloneResponse(in.response)
			return true
		}
		late, failed = in.late, in.failed
		return late || failed
	})
	switch {
	case err != nil:
	case late:
		return Response{}, fmt.Errorf("wait for response to interaction %s: the bot answered after the %v deadline", interactionID, s.opts.ResponseDeadline)
	case failed:
		return Response{}, fmt.Errorf("wait for response to interaction %s: the interactions endpoint refused it", interactionID)
	}
	return out, err
}

// Followups returns the followup messages of an interaction, oldest first
// (the message that completed a deferral is the original, not a followup).
func (s *Server) Followups(interactionID string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	in, ok := s.inters[interactionID]
	if !ok {
		return nil
	}
	var out []Message
	for _, id := range in.followups {
		out = append(out, s.messages[id].clone())
	}
	return out
}

// Original returns the message an interaction's @original names (its
// response message, or for a component's deferred update the component's
// message).
func (s *Server) Original(interactionID string) (Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in, ok := s.inters[interactionID]
	if !ok || in.originalID == "" {
		return Message{}, false
	}
	return s.messages[in.originalID].clone(), true
}

func cloneResponse(r *Response) Response {
	out := *r
	out.Embeds = cloneEmbeds(r.Embeds)
	out.Components = cloneComponents(r.Components)
	out.Choices = slices.Clone(r.Choices)
	out.Attachments = slices.Clone(r.Attachments)
	out.Body = slices.Clone(r.Body)
	return out
}

type wireOption struct {
	Name    string       `json:"name"`
	Type    int          `json:"type"`
	Value   any          `json:"value,omitempty"`
	Options []wireOption `json:"options,omitempty"`
	Focused bool         `json:"focused,omitempty"`
}

type wireResolvedChannel struct {
	ID             string          `json:"id"`
	Name           string          `json:"name"`
	Type           int             `json:"type"`
	Permissions    string          `json:"permissions"`
	ParentID       string          `json:"parent_id,omitempty"`
	ThreadMetadata *wireThreadMeta `json:"thread_metadata,omitempty"`
}

type wireResolved struct {
	Users    map[string]wireUser            `json:"users,omitempty"`
	Members  map[string]wireMember          `json:"members,omitempty"`
	Roles    map[string]wireRole            `json:"roles,omitempty"`
	Channels map[string]wireResolvedChannel `json:"channels,omitempty"`
}

func (r *wireResolved) empty() bool {
	return len(r.Users) == 0 && len(r.Members) == 0 && len(r.Roles) == 0 && len(r.Channels) == 0
}

type wireCommandData struct {
	ID       string        `json:"id"`
	Name     string        `json:"name"`
	Type     int           `json:"type"`
	GuildID  string        `json:"guild_id,omitempty"`
	Options  []wireOption  `json:"options,omitempty"`
	Resolved *wireResolved `json:"resolved,omitempty"`
}

type wireComponentData struct {
	CustomID      string   `json:"custom_id"`
	ComponentType int      `json:"component_type"`
	Values        []string `json:"values,omitempty"`
}

type wireInteraction struct {
	ID                           string            `json:"id"`
	ApplicationID                string            `json:"application_id"`
	Type                         int               `json:"type"`
	Data                         any               `json:"data"`
	GuildID                      string            `json:"guild_id,omitempty"`
	Channel                      *wireChannel      `json:"channel,omitempty"`
	ChannelID                    string            `json:"channel_id"`
	Member                       *wireMember       `json:"member,omitempty"`
	User                         *wireUser         `json:"user,omitempty"`
	Token                        string            `json:"token"`
	Version                      int               `json:"version"`
	Message                      *wireMessage      `json:"message,omitempty"`
	AppPermissions               string            `json:"app_permissions"`
	Locale                       string            `json:"locale"`
	GuildLocale                  string            `json:"guild_locale,omitempty"`
	Entitlements                 []any             `json:"entitlements"`
	AuthorizingIntegrationOwners map[string]string `json:"authorizing_integration_owners"`
	Context                      int               `json:"context"`
}

// dmChannelLocked returns the DM channel between a user and the bot.
func (s *Server) dmChannelLocked(userID string) *Channel {
	if id, ok := s.dmChannels[userID]; ok {
		return s.channels[id]
	}
	c := &Channel{ID: s.newIDLocked(), Type: ChannelDM, Members: []string{userID, s.bot.ID}, CreatedAt: s.nowLocked()}
	s.channels[c.ID] = c
	s.chanOrder = append(s.chanOrder, c.ID)
	s.dmChannels[userID] = c.ID
	return c
}

// buildInteractionLocked checks an interaction against what a Discord
// client could send and builds its payload.
func (s *Server) buildInteractionLocked(spec InteractionSpec) (*interactionRec, error) {
	user, ok := s.users[spec.UserID]
	if !ok {
		return nil, fmt.Errorf("no user %q", spec.UserID)
	}
	var (
		ch   *Channel
		msg  *Message
		comp Component
	)
	switch spec.Type {
	case InteractionComponent:
		m, ok := s.messages[spec.MessageID]
		if !ok || m.Deleted {
			return nil, fmt.Errorf("no message %q", spec.MessageID)
		}
		msg, ch = m, s.channels[m.ChannelID]
		if m.Ephemeral() && m.InteractionUserID != user.ID {
			return nil, fmt.Errorf("message %s is ephemeral: only user %s sees it", m.ID, m.InteractionUserID)
		}
		c, err := pressable(m, spec)
		if err != nil {
			return nil, err
		}
		comp = c
	case InteractionCommand, InteractionAutocomplete:
		switch {
		case spec.DM:
			ch = s.dmChannelLocked(user.ID)
		case spec.ChannelID == "":
			ch = s.channels[s.guilds[s.guildOrder[0]].DefaultChannelID]
		default:
			c, ok := s.channels[spec.ChannelID]
			if !ok {
				return nil, fmt.Errorf("no channel %q", spec.ChannelID)
			}
			ch = c
		}
	default:
		return nil, fmt.Errorf("the fake sends command, autocomplete and component interactions, not %s", spec.Type)
	}
	if !s.canSeeLocked(ch, user.ID, false) {
		return nil, fmt.Errorf("user %s cannot see channel %s", user.ID, ch.ID)
	}
	if ch.IsThread() && ch.Archived {
		if ch.Locked {
			return nil, fmt.Errorf("thread %s is archived and locked", ch.ID)
		}
		// A user's activity in an unlocked archived thread unarchives it.
		ch.Archived, ch.ArchiveTimestamp, ch.LastActivity = false, s.nowLocked(), s.nowLocked()
		s.dispatchGuildLocked(ch.GuildID, IntentGuilds, "THREAD_UPDATE", s.channelJSONLocked(ch))
	}

	rec := &interactionRec{Interaction: Interaction{
		ID: s.newIDLocked(), Token: randomToken("aW50ZXJhY3Rpb246"), Type: spec.Type, GuildID: ch.GuildID,
		ChannelID: ch.ID, UserID: user.ID, CommandName: spec.Name, CustomID: spec.CustomID, MessageID: spec.MessageID,
	}}
	var data any
	if spec.Type == InteractionComponent {
		d := wireComponentData{CustomID: comp.CustomID, ComponentType: comp.Type}
		if comp.Type != ComponentButton {
			d.Values = append([]string{}, spec.Values...)
		}
		data = d
	} else {
		cmd, err := s.invokableLocked(spec.Name, ch, user.ID)
		if err != nil {
			return nil, err
		}
		b := optionBuilder{s: s, guildID: ch.GuildID, auto: spec.Type == InteractionAutocomplete, res: &wireResolved{}}
		opts, err := b.build(cmd.Options, spec.Options, "/"+cmd.Name)
		if err != nil {
			return nil, err
		}
		if b.auto && b.focused != 1 {
			return nil, fmt.Errorf("autocomplete needs exactly one focused option, got %d", b.focused)
		}
		rec.focusedType = b.focusedType
		d := wireCommandData{ID: cmd.ID, Name: cmd.Name, Type: cmd.Type, GuildID: cmd.GuildID, Options: opts}
		if !b.res.empty() {
			d.Resolved = b.res
		}
		data = d
	}
	locale := spec.Locale
	if locale == "" {
		locale = "en-US"
	}
	w := wireInteraction{
		ID: rec.ID, ApplicationID: s.opts.AppID, Type: int(spec.Type), Data: data, ChannelID: ch.ID,
		Token: rec.Token, Version: 1, Locale: locale, Entitlements: []any{},
	}
	chw := s.channelJSONLocked(ch)
	w.Channel = &chw
	if g, ok := s.guilds[ch.GuildID]; ok {
		w.GuildID, w.GuildLocale, w.Context = g.ID, "en-US", 0
		member := s.memberJSONLocked(g, g.members[user.ID], true, true)
		w.Member = &member
		// receiving-and-responding.mdx, "Interaction Object": the app's
		// permissions in the interaction's channel, overwrites included.
		w.AppPermissions = strconv.FormatInt(s.channelPermissionsLocked(ch, s.bot.ID), 10)
		w.AuthorizingIntegrationOwners = map[string]string{"0": g.ID}
	} else {
		u := userJSON(user)
		w.User, w.Context = &u, 1
		w.AppPermissions = strconv.FormatInt(PermViewChannel|PermSendMessages|PermEmbedLinks|PermAttachFiles|PermReadMessageHistory, 10)
		w.AuthorizingIntegrationOwners = map[string]string{"0": "0"}
	}
	if msg != nil {
		mw := s.messageJSONLocked(msg, false)
		w.Message = &mw
	}
	raw, err := json.Marshal(w)
	if err != nil {
		return nil, fmt.Errorf("encode interaction: %w", err)
	}
	rec.Payload = raw
	return rec, nil
}

// pressable finds the component a user can press on a message.
func pressable(m *Message, spec InteractionSpec) (Component, error) {
	c, ok := m.Component(spec.CustomID)
	if !ok {
		return Component{}, fmt.Errorf("message %s has no component with custom_id %q", m.ID, spec.CustomID)
	}
	if c.Disabled {
		return Component{}, fmt.Errorf("component %q of message %s is disabled", spec.CustomID, m.ID)
	}
	if c.Type == ComponentButton {
		if len(spec.Values) > 0 {
			return Component{}, fmt.Errorf("button %q takes no values", spec.CustomID)
		}
		return c, nil
	}
	lo, hi := 1, 1
	if c.MinValues != nil {
		lo = *c.MinValues
	}
	if c.MaxValues != nil {
		hi = *c.MaxValues
	}
	if len(spec.Values) < lo || len(spec.Values) > hi {
		return Component{}, fmt.Errorf("select %q takes %d to %d values, got %d", spec.CustomID, lo, hi, len(spec.Values))
	}
	if c.Type == ComponentStringSelect {
		for _, v := range spec.Values {
			if !slices.ContainsFunc(c.Options, func(o SelectOption) bool { return o.Value == v }) {
				return Component{}, fmt.Errorf("select %q has no option %q", spec.CustomID, v)
			}
		}
	}
	return c, nil
}

// invokableLocked finds the chat-input command a user can use in a channel.
func (s *Server) invokableLocked(name string, ch *Channel, userID string) (*AppCommand, error) {
	var cmd *AppCommand
	if ch.GuildID != "" {
		cmd = findCommand(s.commands[ch.GuildID], CommandChatInput, name)
	}
	if cmd == nil {
		cmd = findCommand(s.commands[""], CommandChatInput, name)
	}
	if cmd == nil {
		return nil, fmt.Errorf("command /%s is not registered (globally or for guild %q)", name, ch.GuildID)
	}
	if ch.Type == ChannelDM {
		if (cmd.Contexts != nil && !slices.Contains(cmd.Contexts, 1)) || (cmd.DMPermission != nil && !*cmd.DMPermission) {
			return nil, fmt.Errorf("command /%s is not available in DMs", name)
		}
		return cmd, nil
	}
	if cmd.Contexts != nil && !slices.Contains(cmd.Contexts, 0) {
		return nil, fmt.Errorf("command /%s is not available in guilds", name)
	}
	perms, _ := s.permissionsLocked(s.guilds[ch.GuildID], userID)
	if perms&PermUseApplicationCommand == 0 {
		return nil, fmt.Errorf("user %s may not use application commands", userID)
	}
	if need := cmd.DefaultMemberPermissions; need != nil && perms&*need != *need {
		return nil, fmt.Errorf("user %s lacks permissions %d, so Discord hides /%s from them", userID, *need, name)
	}
	return cmd, nil
}

// optionBuilder turns a test's options into the interaction's options,
// checked against the command's schema.
type optionBuilder struct {
	s           *Server
	guildID     string
	auto        bool
	res         *wireResolved
	focused     int
	focusedType int
}

func (b *optionBuilder) build(schema []CommandOption, given []Option, where string) ([]wireOption, error) {
	hasSubs := len(schema) > 0 && (schema[0].Type == OptionSubCommand || schema[0].Type == OptionSubCommandGroup)
	if hasSubs && len(given) != 1 {
		return nil, fmt.Errorf("%s needs exactly one subcommand, got %d options", where, len(given))
	}
	var out []wireOption
	seen := map[string]bool{}
	for _, g := range given {
		if seen[g.Name] {
			return nil, fmt.Errorf("%s: option %q given twice", where, g.Name)
		}
		seen[g.Name] = true
		i := slices.IndexFunc(schema, func(o CommandOption) bool { return o.Name == g.Name })
		if i < 0 {
			return nil, fmt.Errorf("%s has no option %q", where, g.Name)
		}
		o := schema[i]
		if o.Type == OptionSubCommand || o.Type == OptionSubCommandGroup {
			if g.Value != nil || g.Focused {
				return nil, fmt.Errorf("%s %s is a subcommand: it takes options, not a value", where, g.Name)
			}
			sub, err := b.build(o.Options, g.Options, where+" "+g.Name)
			if err != nil {
				return nil, err
			}
			out = append(out, wireOption{Name: o.Name, Type: o.Type, Options: sub})
			continue
		}
		if len(g.Options) > 0 {
			return nil, fmt.Errorf("%s: option %q is not a subcommand", where, g.Name)
		}
		if g.Focused {
			if !b.auto {
				return nil, fmt.Errorf("%s: option %q is focused, which only autocomplete sends", where, g.Name)
			}
			if !o.Autocomplete {
				return nil, fmt.Errorf("%s: option %q was not registered with autocomplete", where, g.Name)
			}
			b.focused++
			b.focusedType = o.Type
			text := ""
			if g.Value != nil {
				text = fmt.Sprint(g.Value)
			}
			// Discord sends the partial input as a string, whatever the type.
			out = append(out, wireOption{Name: o.Name, Type: o.Type, Value: text, Focused: true})
			continue
		}
		v, err := b.value(o, g.Value)
		if err != nil {
			return nil, fmt.Errorf("%s: option %q: %w", where, g.Name, err)
		}
		out = append(out, wireOption{Name: o.Name, Type: o.Type, Value: v})
	}
	if !b.auto && !hasSubs {
		for _, o := range schema {
			if o.Required && !seen[o.Name] {
				return nil, fmt.Errorf("%s: required option %q is missing", where, o.Name)
			}
		}
	}
	return out, nil
}

func (b *optionBuilder) value(o CommandOption, v any) (any, error) {
	switch o.Type {
	case OptionString:
		str, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("wants a string, got %T", v)
		}
		n := utf8.RuneCountInString(str)
		if o.MinLength != nil && n < *o.MinLength || o.MaxLength != nil && n > *o.MaxLength {
			return nil, fmt.Errorf("length %d is out of the registered bounds", n)
		}
		if len(o.Choices) > 0 && !slices.ContainsFunc(o.Choices, func(c Choice) bool { return c.Value == str }) {
			return nil, fmt.Errorf("%q is not one of its choices", str)
		}
		return str, nil
	case OptionInteger:
		i, ok := toInt(v)
		if !ok {
			return nil, fmt.Errorf("wants an integer, got %v (%T)", v, v)
		}
		if err := inRange(o, float64(i)); err != nil {
			return nil, err
		}
		if len(o.Choices) > 0 && !slices.ContainsFunc(o.Choices, func(c Choice) bool { return c.Value == float64(i) }) {
			return nil, fmt.Errorf("%d is not one of its choices", i)
		}
		return i, nil
	case OptionNumber:
		f, ok := toFloat(v)
		if !ok {
			return nil, fmt.Errorf("wants a number, got %T", v)
		}
		if err := inRange(o, f); err != nil {
			return nil, err
		}
		if len(o.Choices) > 0 && !slices.ContainsFunc(o.Choices, func(c Choice) bool { return c.Value == f }) {
			return nil, fmt.Errorf("%v is not one of its choices", f)
		}
		return f, nil
	case OptionBoolean:
		bv, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("wants a bool, got %T", v)
		}
		return bv, nil
	case OptionUser, OptionChannel, OptionRole, OptionMentionable:
		id, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("wants an ID string, got %T", v)
		}
		if err := b.resolve(o, id); err != nil {
			return nil, err
		}
		return id, nil
	}
	return nil, errors.New("attachment options are not modelled by the fake")
}

// resolve fills data.resolved for a user, channel, role or mentionable.
func (b *optionBuilder) resolve(o CommandOption, id string) error {
	s := b.s
	g := s.guilds[b.guildID]
	addUser := func() bool {
		u, ok := s.users[id]
		if !ok {
			return false
		}
		if b.res.Users == nil {
			b.res.Users = map[string]wireUser{}
		}
		b.res.Users[id] = userJSON(u)
		if g != nil {
			if m, ok := g.members[id]; ok {
				if b.res.Members == nil {
					b.res.Members = map[string]wireMember{}
				}
				b.res.Members[id] = s.memberJSONLocked(g, m, false, true)
			}
		}
		return true
	}
	addRole := func() bool {
		r, ok := s.roles[id]
		if !ok || r.GuildID != b.guildID {
			return false
		}
		if b.res.Roles == nil {
			b.res.Roles = map[string]wireRole{}
		}
		b.res.Roles[id] = roleJSON(r, slices.Index(g.roleIDs, id))
		return true
	}
	switch o.Type {
	case OptionUser:
		if !addUser() {
			return fmt.Errorf("no user %s", id)
		}
	case OptionRole:
		if !addRole() {
			return fmt.Errorf("no role %s in guild %s", id, b.guildID)
		}
	case OptionMentionable:
		if !addUser() && !addRole() {
			return fmt.Errorf("no user or role %s", id)
		}
	case OptionChannel:
		c, ok := s.channels[id]
		if !ok || c.GuildID != b.guildID {
			return fmt.Errorf("no channel %s in guild %s", id, b.guildID)
		}
		if len(o.ChannelTypes) > 0 && !slices.Contains(o.ChannelTypes, c.Type) {
			return fmt.Errorf("channel %s has type %d, not one of %v", id, c.Type, o.ChannelTypes)
		}
		full := s.channelJSONLocked(c)
		rc := wireResolvedChannel{ID: c.ID, Name: c.Name, Type: c.Type, Permissions: strconv.FormatInt(PermAll, 10), ThreadMetadata: full.ThreadMetadata}
		if c.IsThread() {
			rc.ParentID = c.ParentID
		}
		if b.res.Channels == nil {
			b.res.Channels = map[string]wireResolvedChannel{}
		}
		b.res.Channels[id] = rc
	}
	return nil
}

func inRange(o CommandOption, f float64) error {
	if o.MinValue != nil && f < *o.MinValue || o.MaxValue != nil && f > *o.MaxValue {
		return fmt.Errorf("%v is out of the registered range", f)
	}
	return nil
}

func toInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case uint8:
		return int64(x), true
	case uint16:
		return int64(x), true
	case uint32:
		return int64(x), true
	case float64:
		if x == math.Trunc(x) && math.Abs(x) <= 1<<53 {
			return int64(x), true
		}
	}
	return 0, false
}

func toFloat(v any) (float64, bool) {
	if f, ok := v.(float64); ok {
		return f, true
	}
	if f, ok := v.(float32); ok {
		return float64(f), true
	}
	if i, ok := toInt(v); ok {
		return float64(i), true
	}
	return 0, false
}
