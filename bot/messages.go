package bot

import (
	"bytes"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"arbiter/commands"

	"github.com/bwmarrin/discordgo"
)

// Discord's limits on a message, as its API enforces them.
const (
	maxContent       = 2000 // characters of content
	maxButtonsPerRow = 5
	maxRows          = 5
	maxLabel         = 80
	maxChoices       = 25
	maxChoiceName    = 100
	maxSelectOptions = 25  // options of a string select
	maxOptionText    = 100 // a select option's label, value or description
	maxPlaceholder   = 150 // a select's placeholder
)

// longTextFile names the attachment that carries a text too long for a
// message.
const longTextFile = "message.txt"

// message is a commands.Message in discordgo's terms.
type message struct {
	text       string
	components []discordgo.MessageComponent
	attached   []commands.File
	allowed    *discordgo.MessageAllowedMentions
}

// outgoing translates m: its text (attached as a file when longer than
// Discord allows), its buttons in rows of at most five, its files, and
// pings for m.Mentions only.
func outgoing(m commands.Message) message {
	out := message{
		text:       m.Text,
		components: append(menuRows(m.Menu), buttonRows(m.Buttons)...),
		attached:   m.Files,
		// An explicit empty parse list: nothing pings but the users named.
		allowed: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: m.Mentions},
	}
	if utf8.RuneCountInString(out.text) > maxContent {
		out.attached = append([]commands.File{{Name: longTextFile, ContentType: "text/plain; charset=utf-8", Data: []byte(m.Text)}}, m.Files...)
		out.text = "The answer is longer than a Discord message; here it is as a file."
	}
	if strings.TrimSpace(out.text) == "" && len(out.attached) == 0 {
		out.text = "Done."
	}
	return out
}

// files returns the attachments as discordgo files, each with its own
// reader: call it once per request, since a request reads them.
func (m message) files() []*discordgo.File {
	if len(m.attached) == 0 {
		return nil
	}
	out := make([]*discordgo.File, len(m.attached))
	for i, f := range m.attached {
		ct := f.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		out[i] = &discordgo.File{Name: f.Name, ContentType: ct, Reader: bytes.NewReader(f.Data)}
	}
	return out
}

// send is m as a channel message.
func (m message) send() *discordgo.MessageSend {
	return &discordgo.MessageSend{
		Content:         m.text,
		Components:      m.components,
		Files:           m.files(),
		AllowedMentions: m.allowed,
	}
}

// buttonRows lays buttons out in action rows of at most five, at most five
// rows; an empty list is an empty (not absent) component list, so that an
// edit removes old buttons.
func buttonRows(buttons []commands.Button) []discordgo.MessageComponent {
	rows := []discordgo.MessageComponent{}
	for start := 0; start < len(buttons) && len(rows) < maxRows; start += maxButtonsPerRow {
		end := min(start+maxButtonsPerRow, len(buttons))
		row := discordgo.ActionsRow{}
		for _, btn := range buttons[start:end] {
			row.Components = append(row.Components, discordgo.Button{
				CustomID: btn.ID,
				Label:    truncate(btn.Label, maxLabel),
				Style:    buttonStyle(btn.Style),
			})
		}
		rows = append(rows, row)
	}
	return rows
}

// menuRows is a menu as an action row holding a string select of one
// value (components/reference.mdx, "String Select": at most 25 options;
// label, value and description of at most 100 characters; custom_id of at
// most 100), or no row for no menu. A select fills its row by itself.
func menuRows(menu *commands.Menu) []discordgo.MessageComponent {
	if menu == nil || len(menu.Options) == 0 {
		return nil
	}
	one := 1
	sel := discordgo.SelectMenu{
		MenuType:    discordgo.StringSelectMenu,
		CustomID:    menu.ID,
		Placeholder: truncate(menu.Placeholder, maxPlaceholder),
		MinValues:   &one,
		MaxValues:   one,
	}
	for _, o := range menu.Options[:min(len(menu.Options), maxSelectOptions)] {
		sel.Options = append(sel.Options, discordgo.SelectMenuOption{
			Label:       truncate(o.Label, maxOptionText),
			Value:       o.Value,
			Description: truncate(o.Description, maxOptionText),
		})
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{sel}}}
}

// buttonStyle maps a commands button style to Discord's.
func buttonStyle(s commands.ButtonStyle) discordgo.ButtonStyle {
	switch s {
	case commands.Primary:
		return discordgo.PrimaryButton
	case commands.Success:
		return discordgo.SuccessButton
	case commands.Danger:
		return discordgo.DangerButton
	}
	return discordgo.SecondaryButton
}

// autocompleteResponse answers an autocomplete request with at most 25
// choices, their values typed as the focused option is.
func autocompleteResponse(choices []commands.Choice, typ discordgo.ApplicationCommandOptionType) *discordgo.InteractionResponse {
	out := make([]*discordgo.ApplicationCommandOptionChoice, 0, min(len(choices), maxChoices))
	for _, c := range choices {
		if len(out) == maxChoices {
			break
		}
		v, ok := choiceValue(c.Value, typ)
		if !ok || c.Name == "" {
			continue
		}
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: truncate(c.Name, maxChoiceName), Value: v})
	}
	return &discordgo.InteractionResponse{
		Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: out},
	}
}

// truncate shortens s to at most n characters, marking the cut.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Timestamp writes a deadline in Discord's timestamp markup, which each
// reader's client shows in their own time zone and language: the date and
// time, then how far off it is, "<t:1764245100:f> (<t:1764245100:R>)"
// (reference.mdx, "Message Formatting", "Timestamp Styles": f is "Long
// Date, Short Time", R "Relative Time"). It is commands.Config's
// Deadlines for the game flow behind the bot.
func Timestamp(t time.Time) string {
	u := t.Unix()
	return fmt.Sprintf("<t:%d:f> (<t:%d:R>)", u, u)
}
