package commands

import (
	"context"
	"fmt"
)

// The resign button under a board does not resign at once: it asks, in a
// message only the presser sees, "Resign this game? [Resign] [Cancel]"
// (as lichess asks), and only the confirming button resigns. A typed
// /resign is deliberate and resigns at once.

// resignAsk is the Resign button under a board: the confirmation, only
// to the player who pressed it.
func (s *Service) resignAsk(ctx context.Context, inv Invocation) Reply {
	g, r := s.load(ctx, inv)
	if r != nil {
		return *r
	}
	if r := resignable(g, inv); r != nil {
		return *r
	}
	return Reply{Private: true, Message: Message{
		Text: fmt.Sprintf("Resign this game of %s? The other side wins.", s.title(g.Name)),
		Buttons: []Button{
			{ID: buttonID("resign-confirm", g), Label: "Resign", Style: Danger},
			{ID: buttonID("cancel", g), Label: "Cancel", Style: Secondary},
		},
	}}
}

// resignConfirmed is the confirmation's Resign button.
func (s *Service) resignConfirmed(ctx context.Context, inv Invocation) Reply {
	inv.Command = "resign"
	return s.resignNow(ctx, inv)
}

// cancel is the confirmation's Cancel button.
func (s *Service) cancel(_ context.Context, _ Invocation) Reply {
	return Reply{Private: true, Message: Message{Text: "You play on; nothing was changed."}}
}

// resign is /resign, and the Resign button: a typed /resign resigns at
// once, the button asks first.
func (s *Service) resign(ctx context.Context, inv Invocation) Reply {
	if inv.Version != 0 {
		return s.resignAsk(ctx, inv)
	}
	return s.resignNow(ctx, inv)
}
