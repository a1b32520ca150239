package discordtest

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Application command types.
const (
	CommandChatInput = 1
	CommandUser      = 2
	CommandMessage   = 3
	// CommandEntryPoint is PRIMARY_ENTRY_POINT, the command that opens the
	// Activity from the App Launcher (application-commands.mdx, "Entry
	// Point Commands"; activity.go).
	CommandEntryPoint = 4
)

// Application command option types.
const (
	OptionSubCommand      = 1
	OptionSubCommandGroup = 2
	OptionString          = 3
	OptionInteger         = 4
	OptionBoolean         = 5
	OptionUser            = 6
	OptionChannel         = 7
	OptionRole            = 8
	OptionMentionable     = 9
	OptionNumber          = 10
	OptionAttachment      = 11
)

// AppCommand is an application command as the bot registered it.
type AppCommand struct {
	ID                       string
	ApplicationID            string
	GuildID                  string // empty for a global command
	Version                  string
	Type                     int
	Name                     string
	Description              string
	NameLocalizations        map[string]string
	DescriptionLocalizations map[string]string
	Options                  []CommandOption
	// DefaultMemberPermissions, when set, hides the command from members
	// lacking these permissions (administrators always see it).
	DefaultMemberPermissions *int64
	DMPermission             *bool
	Contexts                 []int
	IntegrationTypes         []int
	NSFW                     bool
	// Handler is an Entry Point command's handler: 1 the app, 2 Discord.
	Handler int
}

// CommandOption is an option of a registered command, with Discord's JSON
// field names.
type CommandOption struct {
	Type                     int               `json:"type"`
	Name                     string            `json:"name"`
	NameLocalizations        map[string]string `json:"name_localizations,omitempty"`
	Description              string            `json:"description"`
	DescriptionLocalizations map[string]string `json:"description_localizations,omitempty"`
	Required                 bool              `json:"required,omitempty"`
	Choices                  []Choice          `json:"choices,omitempty"`
	Options                  []CommandOption   `json:"options,omitempty"`
	ChannelTypes             []int             `json:"channel_types,omitempty"`
	MinValue                 *float64          `json:"min_value,omitempty"`
	MaxValue                 *float64          `json:"max_value,omitempty"`
	MinLength                *int              `json:"min_length,omitempty"`
	MaxLength                *int              `json:"max_length,omitempty"`
	Autocomplete             bool              `json:"autocomplete,omitempty"`
}

func cloneOptions(in []CommandOption) []CommandOption {
	if in == nil {
		return nil
	}
	out := make([]CommandOption, len(in))
	for i, o := range in {
		o.Choices = slices.Clone(o.Choices)
		o.Options = cloneOptions(o.Options)
		o.ChannelTypes = slices.Clone(o.ChannelTypes)
		o.NameLocalizations = maps.Clone(o.NameLocalizations)
		o.DescriptionLocalizations = maps.Clone(o.DescriptionLocalizations)
		out[i] = o
	}
	return out
}

func (c *AppCommand) clone() AppCommand {
	out := *c
	out.Options = cloneOptions(c.Options)
	out.Contexts = slices.Clone(c.Contexts)
	out.IntegrationTypes = slices.Clone(c.IntegrationTypes)
	out.NameLocalizations = maps.Clone(c.NameLocalizations)
	out.DescriptionLocalizations = maps.Clone(c.DescriptionLocalizations)
	return out
}

// commandIn is a command as a client sends it.
type commandIn struct {
	Type                     int               `json:"type"`
	Name                     string            `json:"name"`
	NameLocalizations        map[string]string `json:"name_localizations"`
	Description              string            `json:"description"`
	DescriptionLocalizations map[string]string `json:"description_localizations"`
	Options                  []CommandOption   `json:"options"`
	DefaultMemberPermissions json.RawMessage   `json:"default_member_permissions"`
	DMPermission             *bool             `json:"dm_permission"`
	Contexts                 []int             `json:"contexts"`
	IntegrationTypes         []int             `json:"integration_types"`
	NSFW                     bool              `json:"nsfw"`
	Handler                  int               `json:"handler"`
}

type wireCommand struct {
	ID                       string            `json:"id"`
	ApplicationID            string            `json:"application_id"`
	GuildID                  string            `json:"guild_id,omitempty"`
	Version                  string            `json:"version"`
	Type                     int               `json:"type"`
	Name                     string            `json:"name"`
	NameLocalizations        map[string]string `json:"name_localizations,omitempty"`
	Description              string            `json:"description"`
	DescriptionLocalizations map[string]string `json:"description_localizations,omitempty"`
	Options                  []CommandOption   `json:"options,omitempty"`
	DefaultMemberPermissions *string           `json:"default_member_permissions"`
	DMPermission             *bool             `json:"dm_permission,omitempty"`
	Contexts                 []int             `json:"contexts"`
	IntegrationTypes         []int             `json:"integration_types"`
	NSFW                     bool              `json:"nsfw"`
	Handler                  int               `json:"handler,omitempty"`
}

func commandJSON(c *AppCommand) wireCommand {
	w := wireCommand{
		ID: c.ID, ApplicationID: c.ApplicationID, GuildID: c.GuildID, Version: c.Version, Type: c.Type,
		Name: c.Name, NameLocalizations: c.NameLocalizations, Description: c.Description,
		DescriptionLocalizations: c.DescriptionLocalizations, Options: c.Options, DMPermission: c.DMPermission,
		Contexts: c.Contexts, IntegrationTypes: c.IntegrationTypes, NSFW: c.NSFW, Handler: c.Handler,
	}
	if c.DefaultMemberPermissions != nil {
		p := strconv.FormatInt(*c.DefaultMemberPermissions, 10)
		w.DefaultMemberPermissions = &p
	}
	return w
}

// Commands returns the commands registered for a guild, or the global
// ones when guildID is empty.
func (s *Server) Commands(guildID string) []AppCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []AppCommand
	for _, c := range s.commands[guildID] {
		out = append(out, c.clone())
	}
	return out
}

// commandScopeLocked checks the route's application and guild and returns
// the scope key ("" for global commands).
func (s *Server) commandScopeLocked(q *request) (string, *apiError) {
	if q.params["application_id"] != s.opts.AppID {
		return "", unknownApp()
	}
	g := q.params["guild_id"]
	if g != "" {
		if _, ok := s.guilds[g]; !ok {
			return "", newError(403, 50001, "forbidden", "Missing Access")
		}
	}
	return g, nil
}

func (s *Server) handleCommandsList(q *request) (*reply, *apiError) {
	scope, err := s.commandScopeLocked(q)
	if err != nil {
		return nil, err
	}
	out := []wireCommand{}
	for _, c := range s.commands[scope] {
		out = append(out, commandJSON(c))
	}
	return ok(out), nil
}

// handleCommandsPut is the bulk overwrite: the body becomes the scope's
// command set. Commands keep their IDs by (type, name).
func (s *Server) handleCommandsPut(q *request) (*reply, *apiError) {
	scope, err := s.commandScopeLocked(q)
	if err != nil {
		return nil, err
	}
	var in []commandIn
	if err := q.decode(&in); err != nil {
		return nil, err
	}
	perType := map[int]int{}
	seen := map[string]bool{}
	var next []*AppCommand
	for i := range in {
		path := strconv.Itoa(i)
		c, err := s.buildCommand(path, &in[i], scope)
		if err != nil {
			return nil, err
		}
		key := strconv.Itoa(c.Type) + "/" + c.Name
		if seen[key] {
			return nil, formError(path+".name", "APPLICATION_COMMANDS_DUPLICATE_NAME", fmt.Sprintf("Application command names must be unique; %q is repeated", c.Name))
		}
		seen[key] = true
		perType[c.Type]++
		if limit := commandLimit(c.Type); perType[c.Type] > limit {
			return nil, formError("_", "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("At most %d commands of type %d", limit, c.Type))
		}
		if old := findCommand(s.commands[scope], c.Type, c.Name); old != nil {
			c.ID = old.ID
		} else {
			c.ID = s.newIDLocked()
		}
		next = append(next, c)
	}
	s.commands[scope] = next
	out := []wireCommand{}
	for _, c := range next {
		out = append(out, commandJSON(c))
	}
	return ok(out), nil
}

func commandLimit(typ int) int {
	switch typ {
	case CommandChatInput:
		return maxCommandsPerScope
	case CommandEntryPoint:
		return 1 // "Your app can only have one Entry Point command"
	}
	return 5
}

func findCommand(list []*AppCommand, typ int, name string) *AppCommand {
	for _, c := range list {
		if c.Type == typ && c.Name == name {
			return c
		}
	}
	return nil
}

func (s *Server) handleCommandCreate(q *request) (*reply, *apiError) {
	scope, err := s.commandScopeLocked(q)
	if err != nil {
		return nil, err
	}
	var in commandIn
	if err := q.decode(&in); err != nil {
		return nil, err
	}
	c, err := s.buildCommand("", &in, scope)
	if err != nil {
		return nil, err
	}
	list := s.commands[scope]
	if old := findCommand(list, c.Type, c.Name); old != nil {
		c.ID = old.ID
		*old = *c
		return ok(commandJSON(old)), nil
	}
	if n := countType(list, c.Type); n >= commandLimit(c.Type) {
		return nil, newError(400, 30032, "invalid-request", "Maximum number of application commands reached")
	}
	c.ID = s.newIDLocked()
	s.commands[scope] = append(list, c)
	return created(commandJSON(c)), nil
}

func countType(list []*AppCommand, typ int) int {
	n := 0
	for _, c := range list {
		if c.Type == typ {
			n++
		}
	}
	return n
}

func (s *Server) commandByIDLocked(q *request) (string, int, *apiError) {
	scope, err := s.commandScopeLocked(q)
	if err != nil {
		return "", 0, err
	}
	for i, c := range s.commands[scope] {
		if c.ID == q.params["command_id"] {
			return scope, i, nil
		}
	}
	return "", 0, unknownCommand()
}

func (s *Server) handleCommandGet(q *request) (*reply, *apiError) {
	scope, i, err := s.commandByIDLocked(q)
	if err != nil {
		return nil, err
	}
	return ok(commandJSON(s.commands[scope][i])), nil
}

func (s *Server) handleCommandDelete(q *request) (*reply, *apiError) {
	scope, i, err := s.commandByIDLocked(q)
	if err != nil {
		return nil, err
	}
	s.commands[scope] = slices.Delete(s.commands[scope], i, i+1)
	return &reply{status: http.StatusNoContent}, nil
}

// buildCommand checks a command against Discord's rules and makes it.
func (s *Server) buildCommand(path string, in *commandIn, scope string) (*AppCommand, *apiError) {
	at := func(f string) string {
		if path == "" {
			return f
		}
		return path + "." + f
	}
	c := &AppCommand{
		ApplicationID: s.opts.AppID, GuildID: scope, Version: s.newIDLocked(), Type: in.Type,
		Name: in.Name, Description: in.Description, NameLocalizations: in.NameLocalizations,
		DescriptionLocalizations: in.DescriptionLocalizations, Options: cloneOptions(in.Options),
		DMPermission: in.DMPermission, Contexts: slices.Clone(in.Contexts),
		IntegrationTypes: slices.Clone(in.IntegrationTypes), NSFW: in.NSFW, Handler: in.Handler,
	}
	if c.Type == 0 {
		c.Type = CommandChatInput
	}
	if c.Type < CommandChatInput || c.Type > CommandEntryPoint {
		return nil, formError(at("type"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4}.")
	}
	if err := checkEntryPoint(at, c); err != nil {
		return nil, err
	}
	if c.Type == CommandEntryPoint {
		return c, nil
	}
	perms, err := parsePermissions(in.DefaultMemberPermissions)
	if err != nil {
		return nil, formError(at("default_member_permissions"), "BASE_TYPE_INVALID", err.Error())
	}
	c.DefaultMemberPermissions = perms
	if scope != "" && in.Contexts != nil {
		// application-commands.mdx, "Application Command Object":
		// contexts is "only for globally-scoped commands".
		s.violateLocked("ignored-field", "%s: contexts on a guild command is for global commands only", at("contexts"))
	}
	for i, ctx := range c.Contexts {
		if ctx < 0 || ctx > 2 {
			return nil, formError(at("contexts."+strconv.Itoa(i)), "BASE_TYPE_CHOICES", "Value must be one of {0, 1, 2}.")
		}
	}
	if c.Type != CommandChatInput {
		if n := utf8.RuneCountInString(c.Name); n < 1 || n > 32 {
			return nil, formError(at("name"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")
		}
		if c.Description != "" || len(c.Options) > 0 {
			return nil, formError(at("description"), "APPLICATION_COMMAND_INVALID", "User and message commands take no description and no options")
		}
		return c, nil
	}
	if !validCommandName(c.Name) {
		return nil, formError(at("name"), "APPLICATION_COMMAND_INVALID_NAME", fmt.Sprintf("Command name %q is invalid: 1-32 lowercase letters, digits, - or _", c.Name))
	}
	if n := utf8.RuneCountInString(c.Description); n < 1 || n > 100 {
		return nil, formError(at("description"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
	}
	if err := checkOptions(at("options"), c.Options, 0); err != nil {
		return nil, err
	}
	if n := commandChars(c.Name, c.Description, c.Options); n > 4000 {
		return nil, formError(at("_"), "APPLICATION_COMMAND_TOO_LARGE", fmt.Sprintf("Command exceeds maximum size (%d of 4000 characters)", n))
	}
	return c, nil
}

func parsePermissions(raw json.RawMessage) (*int64, error) {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return nil, nil
	}
	s = strings.Trim(s, `"`)
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return nil, fmt.Errorf("permissions %s is not a non-negative integer", string(raw))
	}
	return &v, nil
}

// validCommandName checks Discord's CHAT_INPUT name rule:
// ^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$, lowercase where a letter
// has a lowercase form.
func validCommandName(name string) bool {
	n := utf8.RuneCountInString(name)
	if n < 1 || n > 32 || !utf8.ValidString(name) {
		return false
	}
	for _, r := range name {
		switch {
		case r == '-' || r == '_' || r == '\'':
		case unicode.IsLetter(r) || unicode.IsNumber(r):
		case unicode.Is(unicode.Devanagari, r) || unicode.Is(unicode.Thai, r):
		default:
			return false
		}
		if unicode.ToLower(r) != r {
			return false
		}
	}
	return true
}

func commandChars(name, desc string, opts []CommandOption) int {
	n := utf8.RuneCountInString(name) + utf8.RuneCountInString(desc)
	for _, o := range opts {
		n += commandChars(o.Name, o.Description, o.Options)
		for _, c := range o.Choices {
			n += utf8.RuneCountInString(c.Name)
			if v, ok := c.Value.(string); ok {
				n += utf8.RuneCountInString(v)
			}
		}
	}
	return n
}

// checkOptions checks a level of options: 0 is the command's, 1 a
// subcommand group's, 2 a subcommand's.
func checkOptions(path string, opts []CommandOption, level int) *apiError {
	if len(opts) > maxCommandOptions {
		return maxLen(path, maxCommandOptions)
	}
	names := map[string]bool{}
	subs, optional := 0, false
	for i, o := range opts {
		p := path + "." + strconv.Itoa(i)
		if o.Type < OptionSubCommand || o.Type > OptionAttachment {
			return formError(p+".type", "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}.")
		}
		if !validCommandName(o.Name) {
			return formError(p+".name", "APPLICATION_COMMAND_INVALID_NAME", fmt.Sprintf("Option name %q is invalid", o.Name))
		}
		if names[o.Name] {
			return formError(p+".name", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique")
		}
		names[o.Name] = true
		if n := utf8.RuneCountInString(o.Description); n < 1 || n > 100 {
			return formError(p+".description", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
		}
		switch o.Type {
		case OptionSubCommandGroup:
			subs++
			if level != 0 {
				return formError(p+".type", "APPLICATION_COMMAND_OPTION_INVALID", "A subcommand group must be at the top level")
			}
			if len(o.Options) == 0 {
				return formError(p+".options", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.")
			}
			for j, sub := range o.Options {
				if sub.Type != OptionSubCommand {
					return formError(p+".options."+strconv.Itoa(j)+".type", "APPLICATION_COMMAND_OPTION_INVALID", "A subcommand group holds only subcommands")
				}
			}
			if err := checkOptions(p+".options", o.Options, 1); err != nil {
				return err
			}
			continue
		case OptionSubCommand:
			subs++
			if level == 2 {
				return formError(p+".type", "APPLICATION_COMMAND_OPTION_INVALID", "A subcommand cannot hold subcommands")
			}
			if err := checkOptions(p+".options", o.Options, 2); err != nil {
				return err
			}
			continue
		}
		if len(o.Options) > 0 {
			return formError(p+".options", "APPLICATION_COMMAND_OPTION_INVALID", "Only subcommands and groups have options")
		}
		if o.Required && optional {
			return formError(p+".required", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required options must be placed before non-required options")
		}
		if !o.Required {
			optional = true
		}
		if err := checkOptionValues(p, o); err != nil {
			return err
		}
	}
	if subs > 0 && subs != len(opts) {
		return formError(path, "APPLICATION_COMMAND_OPTION_INVALID", "Subcommands and groups cannot be mixed with other options")
	}
	return nil
}

func checkOptionValues(p string, o CommandOption) *apiError {
	choosable := o.Type == OptionString || o.Type == OptionInteger || o.Type == OptionNumber
	if len(o.Choices) > 0 && !choosable {
		return formError(p+".choices", "APPLICATION_COMMAND_OPTION_INVALID", "Only string, integer and number options take choices")
	}
	if o.Autocomplete && !choosable {
		return formError(p+".autocomplete", "APPLICATION_COMMAND_OPTION_INVALID", "Only string, integer and number options autocomplete")
	}
	if o.Autocomplete && len(o.Choices) > 0 {
		return formError(p+".autocomplete", "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID", "Autocomplete and choices are mutually exclusive")
	}
	if len(o.Choices) > maxAutocompleteChoices {
		return maxLen(p+".choices", maxAutocompleteChoices)
	}
	for j, c := range o.Choices {
		if err := checkChoice(p+".choices."+strconv.Itoa(j), c, o.Type); err != nil {
			return err
		}
	}
	if (o.MinValue != nil || o.MaxValue != nil) && o.Type != OptionInteger && o.Type != OptionNumber {
		return formError(p+".min_value", "APPLICATION_COMMAND_OPTION_INVALID", "Only integer and number options take min_value and max_value")
	}
	if (o.MinLength != nil || o.MaxLength != nil) && o.Type != OptionString {
		return formError(p+".min_length", "APPLICATION_COMMAND_OPTION_INVALID", "Only string options take min_length and max_length")
	}
	for name, v := range map[string]*int{"min_length": o.MinLength, "max_length": o.MaxLength} {
		if v != nil && (*v < 0 || *v > 6000) {
			return formError(p+"."+name, "NUMBER_TYPE_MAX", "int value should be between 0 and 6000.")
		}
	}
	if len(o.ChannelTypes) > 0 && o.Type != OptionChannel {
		return formError(p+".channel_types", "APPLICATION_COMMAND_OPTION_INVALID", "Only channel options take channel_types")
	}
	return nil
}

// checkChoice checks a choice's name and that its value fits the option
// type (also used for autocomplete results).
func checkChoice(p string, c Choice, optionType int) *apiError {
	if n := utf8.RuneCountInString(c.Name); n < 1 || n > 100 {
		return formError(p+".name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
	}
	switch optionType {
	case OptionString:
		v, ok := c.Value.(string)
		if !ok {
			return formError(p+".value", "BASE_TYPE_STRING", "Could not interpret the value as string.")
		}
		if utf8.RuneCountInString(v) > 100 {
			return maxLen(p+".value", 100)
		}
	case OptionInteger:
		v, ok := c.Value.(float64)
		if !ok || v != math.Trunc(v) || math.Abs(v) > 1<<53 {
			return formError(p+".value", "NUMBER_TYPE_COERCE", "Value is not int.")
		}
	case OptionNumber:
		if _, ok := c.Value.(float64); !ok {
			return formError(p+".value", "NUMBER_TYPE_COERCE", "Value is not a number.")
		}
	}
	return nil
}
