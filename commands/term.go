package commands

import (
	"context"
	"errors"
	"fmt"
	"os"

	"arbiter/store"
)

// TermCloser closes a server's term: it archives what the term left to a
// file, then resets ratings and vacation days for the next one (package
// term implements it). /referee term-close calls it.
type TermCloser interface {
	CloseTerm(ctx context.Context, guild, name string) (TermClosed, error)
}

// TermClosed says what closing a term did.
type TermClosed struct {
	File      string // the archive, on the machine Arbiter runs on
	Games     int    // finished games archived
	Ratings   int    // ratings archived and cleared
	Vacations int    // people whose used vacation days were given back
}

// ErrTermClosed means a term of that name was closed in the server
// before; its archive stays as it is.
var ErrTermClosed = errors.New("a term of that name was closed already")

// maxTermAttachment is the largest archive /referee term-close attaches
// (Discord takes files of up to 10 MiB from a bot); a larger one stays
// on the server's disk only.
const maxTermAttachment = 8 << 20

// refereeTermClose is /referee term-close name:NAME.
func (s *Service) refereeTermClose(ctx context.Context, inv Invocation) Reply {
	if s.cfg.Terms == nil {
		return refuse("closing a term is not available here; run arbiter term close on the machine Arbiter runs on")
	}
	name := inv.Options["name"]
	done, err := s.cfg.Terms.CloseTerm(ctx, inv.Guild, name)
	switch {
	case errors.Is(err, ErrTermClosed):
		return refuse("a term called %q was closed in this server already; give the new close another name", clip(name, 40))
	case errors.Is(err, store.ErrInvalid):
		return refuse("%v", err)
	case err != nil && done.File == "":
		return s.storeRefusal(inv, err)
	case err != nil:
		s.log.Error("term: close failed after its archive was written", "guild", inv.Guild, "err", err)
		return refuse("the term's archive is written (%s on the server), but the reset did not finish: %v", done.File, err)
	}
	text := fmt.Sprintf("Term %q closed: %s archived with %s and the vacation days used; ratings start again and everyone has their whole vacation allowance. The archive is kept on the server as %s.",
		clip(name, 40), plural(done.Games, "finished game"), plural(done.Ratings, "rating"), done.File)
	msg := Message{Text: text}
	if data, err := os.ReadFile(done.File); err == nil && len(data) <= maxTermAttachment {
		msg.Files = []File{{Name: "term-" + name + ".zip", ContentType: "application/zip", Data: data}}
	} else if err == nil {
		msg.Text += " It is too large to attach here; copy it from the server."
	}
	return Reply{Private: true, Message: msg}
}
