package commands

import (
	"strings"
	"unicode/utf8"
)

// EscapeMarkdown makes text written by a person (a display name, a
// referee's reason, what a program's bridge says) inert where the bot
// writes it into a message that Discord renders as Markdown: every
// formatting character is escaped with a backslash (so a name cannot be
// a masked link, a heading, a quote, a spoiler or bold), a mention or
// @everyone is broken with a zero-width space (it neither pings nor reads
// as one), a URL is not turned into a link, and line breaks become spaces.
// The console shows the same text with its backslashes.
func EscapeMarkdown(s string) string {
	s = inertControls(s)
	if !strings.ContainsAny(s, "\\*_~`|><#[]@") && !strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "+") && !strings.Contains(s, "://") {
		return s // nothing to escape, as most names
	}
	return string(appendEscapeMarkdown(make([]byte, 0, len(s)+8), s))
}

// appendEscapeMarkdown appends EscapeMarkdown(s) to dst.
func appendEscapeMarkdown(dst []byte, s string) []byte {
	s = inertControls(s)
	for i, r := range s {
		switch r {
		case '\\', '*', '_', '~', '`', '|', '>', '<', '#', '[', ']':
			dst = append(dst, '\\')
		case '-', '+':
			if i == 0 { // a list item or subtext at the start of a line
				dst = append(dst, '\\')
			}
		case '@':
			dst = append(dst, "@\u200b"...)
			continue
		case ':':
			if strings.HasPrefix(s[i+1:], "//") {
				dst = append(dst, ":\u200b"...)
				continue
			}
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// inertControls turns line breaks and tabs in s into spaces and drops the
// other control characters (s itself when it has none).
func inertControls(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t' || r == '\u2028' || r == '\u2029':
			return ' '
		case r < 0x20 || r == 0x7f:
			return -1
		}
		return r
	}, s)
}
