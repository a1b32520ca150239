package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	"arbiter/commands"

	"github.com/bwmarrin/discordgo"
)

// maxDescription is Discord's limit on a command's or option's
// description.
const maxDescription = 100

// guildOnly makes a command usable in guilds only: games live in channels.
func guildOnly() *[]discordgo.InteractionContextType {
	return &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild}
}

// appCommands translates the command set into Discord's application
// commands, global ones or a guild's. A spec Discord would refuse (a bad
// choice value) is an error here, naming it, rather than a refused
// registration. Only global commands say where they may be used
// (contexts): Discord takes the field for global commands only
// (interactions/application-commands.mdx), a guild's are guild-only anyway.
func appCommands(specs []commands.CommandSpec, global bool) ([]*discordgo.ApplicationCommand, error) {
	out := make([]*discordgo.ApplicationCommand, 0, len(specs))
	for _, spec := range specs {
		cmd := &discordgo.ApplicationCommand{
			Type:        discordgo.ChatApplicationCommand,
			Name:        spec.Name,
			Description: truncate(spec.Description, maxDescription),
		}
		if global {
			cmd.Contexts = guildOnly()
		}
		if len(spec.Subcommands) > 0 {
			for _, sub := range spec.Subcommands {
				opts, err := appOptions(sub.Options)
				if err != nil {
					return nil, fmt.Errorf("/%s %s: %w", spec.Name, sub.Name, err)
				}
				cmd.Options = append(cmd.Options, &discordgo.ApplicationCommandOption{
					Type:        discordgo.ApplicationCommandOptionSubCommand,
					Name:        sub.Name,
					Description: truncate(sub.Description, maxDescription),
					Options:     opts,
				})
			}
		} else {
			opts, err := appOptions(spec.Options)
			if err != nil {
				return nil, fmt.Errorf("/%s: %w", spec.Name, err)
			}
			cmd.Options = opts
		}
		out = append(out, cmd)
	}
	return out, nil
}

// appOptions translates a command's options, required ones first (as
// Discord demands; commands reads options by name, so order is free).
func appOptions(specs []commands.OptionSpec) ([]*discordgo.ApplicationCommandOption, error) {
	out := make([]*discordgo.ApplicationCommandOption, 0, len(specs))
	for _, o := range specs {
		typ, err := optionType(o.Type)
		if err != nil {
			return nil, fmt.Errorf("option %s: %w", o.Name, err)
		}
		opt := &discordgo.ApplicationCommandOption{
			Type:         typ,
			Name:         o.Name,
			Description:  truncate(o.Description, maxDescription),
			Required:     o.Required,
			Autocomplete: o.Autocomplete,
		}
		for _, c := range o.Choices {
			v, ok := choiceValue(c.Value, typ)
			if !ok {
				return nil, fmt.Errorf("option %s: choice %q does not fit the option's type", o.Name, c.Value)
			}
			opt.Choices = append(opt.Choices, &discordgo.ApplicationCommandOptionChoice{Name: truncate(c.Name, maxChoiceName), Value: v})
		}
		if typ == discordgo.ApplicationCommandOptionInteger && o.Max > 0 {
			lo, hi := float64(o.Min), float64(o.Max)
			opt.MinValue, opt.MaxValue = &lo, hi
		}
		out = append(out, opt)
	}
	slices.SortStableFunc(out, func(a, b *discordgo.ApplicationCommandOption) int {
		switch {
		case a.Required == b.Required:
			return 0
		case a.Required:
			return -1
		}
		return 1
	})
	return out, nil
}

// optionType maps a commands option type to Discord's.
func optionType(t commands.OptionType) (discordgo.ApplicationCommandOptionType, error) {
	switch t {
	case commands.OptString:
		return discordgo.ApplicationCommandOptionString, nil
	case commands.OptInteger:
		return discordgo.ApplicationCommandOptionInteger, nil
	case commands.OptUser:
		return discordgo.ApplicationCommandOptionUser, nil
	case commands.OptBoolean:
		return discordgo.ApplicationCommandOptionBoolean, nil
	}
	return 0, fmt.Errorf("unknown option type %d", t)
}

// choiceValue types a choice's value for an option of type typ: a number
// for integer and number options, a string of at most 100 characters for
// string options.
func choiceValue(v string, typ discordgo.ApplicationCommandOptionType) (any, bool) {
	switch typ {
	case discordgo.ApplicationCommandOptionInteger:
		n, err := strconv.ParseInt(v, 10, 64)
		return n, err == nil
	case discordgo.ApplicationCommandOptionNumber:
		f, err := strconv.ParseFloat(v, 64)
		return f, err == nil
	case discordgo.ApplicationCommandOptionString:
		return v, v != "" && utf8.RuneCountInString(v) <= maxChoiceName
	}
	return nil, false
}

// entryPointType is PRIMARY_ENTRY_POINT, the command that opens the
// application's Activity from Discord's App Launcher, which discordgo does
// not name (interactions/application-commands.mdx, "Entry Point Commands").
const entryPointType = 4

// overwriteGlobal replaces the global commands with cmds, keeping the
// application's Entry Point command as it is: enabling Activities creates
// one, and a bulk overwrite "will overwrite all types of application
// commands" ("Bulk Overwrite Global Application Commands"), so leaving it
// out would remove it. It is sent back as read, since discordgo's command
// type has no field for its handler.
func (b *Bot) overwriteGlobal(ctx context.Context, appID string, cmds []*discordgo.ApplicationCommand) ([]*discordgo.ApplicationCommand, error) {
	endpoint := discordgo.EndpointApplicationGlobalCommands(appID)
	raw, err := b.s.RequestWithBucketID("GET", endpoint, nil, endpoint, discordgo.WithContext(ctx))
	if err != nil {
		return nil, fmt.Errorf("read the global commands: %w", err)
	}
	var existing []json.RawMessage
	if err := json.Unmarshal(raw, &existing); err != nil {
		return nil, fmt.Errorf("read the global commands: %w", err)
	}
	body := make([]any, 0, len(cmds)+1)
	for _, c := range cmds {
		body = append(body, c)
	}
	for _, c := range existing {
		var head struct {
			Type int `json:"type"`
		}
		if json.Unmarshal(c, &head) == nil && head.Type == entryPointType {
			body = append(body, c)
		}
	}
	raw, err = b.s.RequestWithBucketID("PUT", endpoint, body, endpoint, discordgo.WithContext(ctx))
	if err != nil {
		return nil, err
	}
	var got []*discordgo.ApplicationCommand
	if err := json.Unmarshal(raw, &got); err != nil {
		return nil, fmt.Errorf("read the registered commands: %w", err)
	}
	return got, nil
}
