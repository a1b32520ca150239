package commands

import "strings"

// EscapeMarkdown makes text written by a person (a display name, a
// referee's reason, what a program's bridge says) inert where the bot
// writes it into a message that Discord renders as Markdown: every
// formatting character is escaped with a backslash (so a name cannot be
// a masked link, a heading, a quote, a spoiler or bold), a mention or
// @everyone is broken with a zero-width space (it neither pings nor reads
// as one), a URL is not turned into a link, and line breaks become spaces.
// The console shows the same text with its backslashes.
func EscapeMarkdown(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t' || r == '\u2028' || r == '\u2029':
			return ' '
		case r < 0x20 || r == 0x7f:
			return -1
		}
		return r
	}, s)
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, r := range s {
		switch r {
		case '\\', '*', '_', '~', '`', '|', '>', '<', '#', '[', ']':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '-', '+':
			if i == 0 { // a list item or subtext at the start of a line
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		case '@':
			b.WriteString("@\u200b")
		case ':':
			b.WriteRune(r)
			if strings.HasPrefix(s[i+1:], "//") {
				b.WriteString("\u200b")
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
