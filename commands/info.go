package commands

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"arbiter/render"
	"arbiter/rules"
	"arbiter/store"
)

// board is /board: the board in a style, from a side.
func (s *Service) board(ctx context.Context, inv Invocation) Reply {
	g, err := s.store.Load(ctx, inv.Channel)
	if err != nil {
		return s.storeRefusal(inv, err)
	}
	if inv.Options["link"] == "true" {
		return s.boardLink(ctx, inv, g)
	}
	var view render.View
	switch v := inv.Options["view"]; v {
	case "":
		view = viewFor(g, inv.User.ID)
	case "first":
		view = render.FromP1
	case "second":
		view = render.FromP2
	case "mine":
		seat, ok := seatOf(g, inv.User.ID)
		if !ok {
			return refuse("you are not playing in this game, so it has no side of yours; use view:first or view:second")
		}
		view = render.ViewFrom(seat)
	default:
		return refuse("view must be mine, first or second, not %q", v)
	}
	style := inv.Options["style"]
	if style == "" {
		style = flow(g).Style
	} else if !slices.Contains(boardStyles(), style) {
		return refuse("style must be text, emoji or image, not %q", style)
	}
	header := fmt.Sprintf("%s: %s against %s.\n%s", s.title(g.Name), seatTitle(g, rules.P1), seatTitle(g, rules.P2), s.turnNote(g))
	msg := s.styledBoard(g, s.boardOf(g, view), header, style)
	if inv.Version != 0 { // a Refresh button: show it only to the one who pressed
		return Reply{Message: msg, Private: true}
	}
	return Reply{Message: msg}
}

// history is /history: the moves of the game here or of an archived one,
// with its record and its replay attached.
func (s *Service) history(ctx context.Context, inv Invocation) Reply {
	var g *store.Game
	var err error
	if id := strings.TrimSpace(inv.Options["game"]); id != "" {
		g, err = s.store.LoadArchived(ctx, inv.Guild, strings.TrimPrefix(id, "#"))
		if errors.Is(err, store.ErrNotFound) {
			return refuse("there is no archived game %s in this server; /games lists them", id)
		}
	} else {
		g, err = s.store.Load(ctx, inv.Channel)
	}
	if err != nil {
		return s.storeRefusal(inv, err)
	}
	opt := s.renderOptions(g, render.Standard)
	tags := []render.Tag{{Key: "Id", Value: g.ID}, {Key: "Started", Value: g.Created.UTC().Format("2006-01-02 15:04 MST")}}
	for _, tb := range flow(g).Takebacks {
		tags = append(tags, render.Tag{Key: "Takeback", Value: tb})
	}
	for _, n := range flow(g).Premoved {
		tags = append(tags, render.Tag{Key: "Premove", Value: fmt.Sprintf("move %d was played by a conditional premove", n)})
	}
	var gifFile []File
	replayNote := ""
	if replay, err := s.replays.get(ctx, g, opt); err == nil {
		gifFile = []File{{Name: fmt.Sprintf("%s-%s.gif", g.Name, g.ID), ContentType: "image/gif", Data: replay.Data}}
		if replay.Every > 1 {
			replayNote = fmt.Sprintf("the replay shows one position in every %d (%d frames for %d moves), the first and last always", replay.Every, replay.Frames, replay.Plies)
			tags = append(tags, render.Tag{Key: "Replay", Value: replayNote})
			replayNote = "\n(" + replayNote + ")"
		}
	} else {
		id := ErrorID()
		s.log.Warn("replay not drawn", "error_id", id, "game", g.ID, "err", err)
		replayNote = "\n(the replay could not be drawn this time; error id " + id + ")"
	}
	record := render.Record(g.State, opt, tags...)
	files := append([]File{{Name: fmt.Sprintf("%s-%s.txt", g.Name, g.ID), ContentType: "text/plain; charset=utf-8", Data: []byte(record)}}, gifFile...)
	text := fmt.Sprintf("%s #%s: %s against %s, %d moves.%s\n%s", s.title(g.Name), g.ID, seatTitle(g, rules.P1), seatTitle(g, rules.P2), len(g.Moves), replayNote, numberedMoves(g))
	if len(flow(g).Takebacks) > 0 {
		text += "\nTaken back: " + strings.Join(flow(g).Takebacks, "; ")
	}
	if len(flow(g).Premoved) > 0 {
		text += "\nPlayed by premove: " + premovedList(flow(g).Premoved)
	}
	if g.Status == store.Finished {
		text += "\n" + resultText(g)
	}
	if render.DiscordLength(text) > 1900 {
		text = clip(text, 1700) + " (the whole record is attached)"
	}
	var buttons []Button
	if g.Status == store.Finished {
		buttons = []Button{{ID: fmt.Sprintf("analyse:%s:%d", g.ID, g.Version), Label: "Analyse", Style: Secondary}}
	}
	// Another channel's game may be private to that channel: its record is
	// shown to the one who asked only.
	return Reply{Message: Message{Text: text, Files: files, Buttons: buttons}, Private: g.Channel != inv.Channel}
}

// numberedMoves writes the move list numbered by turn: "1. 4 2 4 8 | 4 12 4 10".
func numberedMoves(g *store.Game) string {
	var b strings.Builder
	for i, m := range g.Moves {
		if i%2 == 0 {
			if i > 0 {
				b.WriteString("  ")
			}
			fmt.Fprintf(&b, "%d. %s", i/2+1, m.Text)
		} else {
			b.WriteString(" | " + m.Text)
		}
	}
	if b.Len() == 0 {
		return "(no moves yet)"
	}
	return b.String()
}

// rules is /rules: a game's rules in brief.
func (s *Service) rules(_ context.Context, inv Invocation) Reply {
	def, err := s.reg.Lookup(inv.Options["game"])
	if err != nil {
		return refuse("%v", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** (%s against %s; the class allows %s a move)\n%s\n", def.Title, def.Players[0], def.Players[1], FormatDuration(def.MoveTime), def.Summary)
	if len(def.Options) > 0 {
		b.WriteString("Options (in /play options:\"key=value ...\"):\n")
		for _, o := range def.Options {
			fmt.Fprintf(&b, "- %s: %s; %s (default %s)\n", o.Key, o.Help, o.Allowed(), o.Default)
		}
	}
	b.WriteString("Arbiter's own options: timeout=loss|adjudicate, rated=on|off.")
	return Reply{Message: Message{Text: b.String()}, Private: true}
}

// help is /help.
func (s *Service) help(_ context.Context, inv Invocation) Reply {
	var titles []string
	for _, d := range s.reg.Definitions() {
		titles = append(titles, d.Title)
	}
	// Past a dozen (games described in files), the rest are counted, so
	// that the help stays within a message.
	const named = 12
	if n := len(titles); n > named {
		titles = append(titles[:named-1], fmt.Sprintf("%d more games", n-named+1))
	}
	games := strings.Join(titles, ", ")
	if n := len(titles); n > 1 {
		games = strings.Join(titles[:n-1], ", ") + " and " + titles[n-1]
	}
	moveHelp := "/move move:c4 d4: play a move in the game's notation (the list autocompletes), or press Pick a move under the board; /moves [from:square] lists the legal ones."
	if inv.Typed {
		moveHelp = "/move c4 d4, or just c4 d4: play a move in the game's notation; /moves [from:square] lists the legal ones."
	}
	return Reply{Private: true, Message: Message{Text: strings.Join([]string{
		"**Arbiter** referees " + games + ", and plays them too (/rules game:... gives each game's rules).",
		"/play game:sixes: play the bot (level:1-5, side:first|second|random); add opponent:@someone to challenge a person, who can /accept or /decline.",
		moveHelp,
		"/premove line:\"their move, your answer; ...\" (conditional premoves), /vacation start|end|status (your clocks stop while away), /notify dm:on|off digest:HH:MM tz:Zone (your turns by DM).",
		"/board [style:text|emoji|image] [view:mine|first|second], /resign, /draw (offer or accept), /undo (with the opponent's consent; against the bot, unrated games only), /rematch.",
		"/history [game:id], /analyse [game:id] (the engine's review of a finished game), /games, /stats [user], /leaderboard game:..., /rules game:..., /help (this).",
		"Each move has a deadline (time:45s, 10m, 2d; default 2d): a reminder comes at half time and near the end; then the game is lost on time (or, with options:\"timeout=adjudicate\", decided by the game's scoring).",
		"Your own program: /token new gives you a token (shown once) for `arbiter bridge`, /token revoke ends it; /play ... program:true challenges a classmate's program, myprogram:true lets yours play for you.",
		"Referees: /referee start|abort|adjudicate|extend|pause|resume|export|term-close; /settings board:text|emoji|image (how boards are drawn in this channel); /diagnose (what the bot may do here, in Discord); /wall on|off|new|names (the projector's live wall: a secret link, public channels only).",
		"Tournaments: a referee's /tournament create (format: roundrobin, gauntlet, swiss: paired by points round by round, or knockout: a seeded bracket, two games a tie) and start, everyone's /tournament join and standings; /referee export [from] [to] attaches the grades.",
	}, "\n")}}
}

// games is /games: the games going on in this server, and the finished
// ones, newest first.
func (s *Service) games(ctx context.Context, inv Invocation) Reply {
	list, total, err := s.store.Archived(ctx, inv.Guild, 0, 15)
	if err != nil {
		return s.storeRefusal(inv, err)
	}
	running, err := s.store.Running(ctx, inv.Guild)
	if err != nil {
		return s.storeRefusal(inv, err)
	}
	var b strings.Builder
	if len(running) > 0 {
		fmt.Fprintf(&b, "%s going on:\n", plural(len(running), "game"))
	}
	for _, g := range running {
		here := ""
		if g.Channel == inv.Channel {
			here = " (here)"
		}
		if flow(g).Paused {
			here += " (" + pauseNote(g) + ")"
		}
		fmt.Fprintf(&b, "%s in <#%s>%s: %s against %s, move %d\n", s.title(g.Name), g.Channel, here, seatTitle(g, rules.P1), seatTitle(g, rules.P2), len(g.Moves)+1)
	}
	if n, err := s.store.QueuedBotTurns(ctx); err == nil && n > 0 {
		fmt.Fprintf(&b, "The bot's engine has %s to think about (a queue shared by every server).\n", plural(int(n), "turn"))
	}
	if total == 0 {
		b.WriteString("No finished games in this server yet.")
	} else {
		fmt.Fprintf(&b, "%s; the latest:\n", plural(int(total), "finished game"))
	}
	for _, sum := range list {
		fmt.Fprintf(&b, "#%s %s: %s vs %s, %s (%s), %d moves\n", sum.ID, s.title(sum.Name), plainName(sum.Players[0]), plainName(sum.Players[1]),
			resultWords(sum.Result, sum.Players), sum.Reason, sum.Moves)
	}
	return Reply{Message: Message{Text: strings.TrimSpace(b.String())}, Private: true}
}

// stats is /stats: a player's ratings and results in each game.
func (s *Service) stats(ctx context.Context, inv Invocation) Reply {
	who := inv.User
	if id := inv.Options["user"]; id != "" {
		who = inv.Users["user"]
		if who.ID == "" {
			who = User{ID: id, Name: id}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Ratings of %s:\n", who.Name)
	found := false
	for _, name := range s.reg.Names() {
		rs, err := s.store.Ratings(ctx, inv.Guild, name, who.ID)
		if err != nil {
			return s.storeRefusal(inv, err)
		}
		if len(rs) == 0 || rs[0].Games == 0 {
			continue
		}
		r := rs[0]
		found = true
		fmt.Fprintf(&b, "%s: %.0f ± %.0f, %s (%d won, %d drawn, %d lost)\n", s.title(name), r.Rating, 2*r.Deviation, plural(r.Games, "game"), r.Wins, r.Draws, r.Losses)
	}
	if !found {
		b.WriteString("no rated games yet.")
	}
	return Reply{Message: Message{Text: strings.TrimSpace(b.String())}, Private: true}
}

// leaderboard is /leaderboard: the best rated players of a game here.
func (s *Service) leaderboard(ctx context.Context, inv Invocation) Reply {
	def, err := s.reg.Lookup(inv.Options["game"])
	if err != nil {
		return refuse("%v", err)
	}
	rs, err := s.store.Leaderboard(ctx, inv.Guild, def.Name, 0, 10)
	if err != nil {
		return s.storeRefusal(inv, err)
	}
	if len(rs) == 0 {
		return Reply{Message: Message{Text: fmt.Sprintf("No rated %s games in this server yet.", def.Title)}}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s leaderboard**\n", def.Title)
	for i, r := range rs {
		fmt.Fprintf(&b, "%d. %s: %.0f ± %.0f (%s: %d won, %d drawn, %d lost)\n", i+1, r.Name, r.Rating, 2*r.Deviation, plural(r.Games, "game"), r.Wins, r.Draws, r.Losses)
	}
	return Reply{Message: Message{Text: strings.TrimSpace(b.String())}}
}

// plural writes "1 game" or "3 games".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// settings is /settings: show or change this channel's settings. Today
// there is one: board, how boards are drawn in this channel's messages
// (text, emoji or image); it applies to the game going on here at once.
func (s *Service) settings(ctx context.Context, inv Invocation) Reply {
	style, ok := inv.Options["board"]
	if !ok {
		cur, err := s.store.ChannelSetting(ctx, inv.Channel, "board")
		if err != nil {
			return s.storeRefusal(inv, err)
		}
		if cur == "" {
			cur = "text"
		}
		return Reply{Message: Message{Text: fmt.Sprintf("Boards in this channel are drawn as %s; /settings board:text|emoji|image changes it.", cur)}, Private: true}
	}
	if !s.isReferee(inv) {
		return refuse("only referees (the %s role, or Manage Server) can change this channel's settings", s.refereeRoleName())
	}
	if !slices.Contains(boardStyles(), style) {
		return refuse("board must be text, emoji or image, not %.20q", style)
	}
	if err := s.store.SetChannelSetting(ctx, inv.Channel, "board", style); err != nil {
		return s.storeRefusal(inv, err)
	}
	// A game going on keeps the style it began with: changing it would
	// bump the game's version and void the players' buttons mid-move.
	if g, err := s.store.Load(ctx, inv.Channel); err == nil && g.Status == store.Active && flow(g).Style != style {
		return Reply{Message: Message{Text: fmt.Sprintf("%s set this channel's boards to %s, from the next game on (the game going on keeps its style).", EscapeMarkdown(inv.User.Name), style)}}
	}
	return Reply{Message: Message{Text: fmt.Sprintf("%s set this channel's boards to %s.", EscapeMarkdown(inv.User.Name), style)}}
}

// resultWords says a result with the winner's name: "alice won", "draw",
// "no result".
func resultWords(r rules.Result, players [2]store.Player) string {
	if w, ok := r.Winner(); ok {
		return plainName(players[w]) + " won"
	}
	if r == rules.Draw {
		return "draw"
	}
	return "no result"
}
