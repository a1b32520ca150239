// Package commands is Arbiter's game flow, apart from any chat platform:
// an Invocation (who asked what, where) goes in and a Reply comes out.
// Messages that come later (the bot's move, a reminder, a result) go out
// through a Notifier. The Discord layer (package bot) and the console adapt
// it; nothing here knows either.
//
// Invariants a change must keep: nothing here knows about Discord or any
// other platform; every state change of a game is stored (through the
// store.Store contract) before the reply or notification that announces it,
// so a restart loses nothing a player was told; a stale request (an old
// button, a move against a changed version) is refused, never applied twice;
// bad input gets a clear message and changes nothing; the reply texts and
// the console's command syntax are contracts.
package commands

import "context"

// User is a person as the platform knows them.
type User struct {
	ID   string // stable id: a Discord user id, or "local:NAME" in the console
	Name string // display name
}

// Invocation is one command from one user in one channel.
type Invocation struct {
	Guild   string
	Channel string // a Discord thread is a channel too
	User    User
	// Roles are the names of the user's roles in the guild.
	Roles []string
	// ManageServer says the user has the platform's manage-server right,
	// which makes them a referee.
	ManageServer bool
	// Command is the command's name without the slash, e.g. "move"; Sub is
	// the subcommand of a group such as "referee start".
	Command string
	Sub     string
	// Options are the option values as text, by option name. A user option
	// holds the user's id; Users has their names.
	Options map[string]string
	Users   map[string]User
	// Focused names the option being typed, for an autocomplete request.
	Focused string
	// Game and Version are set when the invocation comes from a button:
	// the game (its archive id) and the version the button was drawn for.
	// A button of another game, or older than the game, is refused.
	Game    string
	Version int64
	// Typed says the front end has typed commands only, with no buttons
	// and no autocomplete (the console): replies say what to type.
	Typed bool
}

// Button is an action offered under a message.
type Button struct {
	// ID is the invocation the button makes: "CMD:GAME:VERSION", e.g.
	// "resign:12:31"; ParseButton reads it back.
	ID    string
	Label string
	Style ButtonStyle
}

// ButtonStyle is how a button looks.
type ButtonStyle int

// The button styles.
const (
	Secondary ButtonStyle = iota
	Primary
	Success
	Danger
)

// File is an attachment.
type File struct {
	Name        string
	ContentType string
	Data        []byte
}

// Message is what Arbiter says in a channel.
type Message struct {
	// Text is the message; a board in a code block or as emoji is part of it.
	Text    string
	Files   []File
	Buttons []Button
	// Menu, when set, is a list of choices offered above the buttons (the
	// move picker's steps).
	Menu *Menu `json:",omitempty"`
	// Mentions are the user ids the message may ping; any other mention in
	// Text is shown but pings nobody.
	Mentions []string
	// Key is the idempotency key of a posted message: posting the same
	// key again is a no-op where the platform allows (Discord's nonce).
	// A key names one message across every channel and server: Discord
	// takes a repeat by the same author anywhere for the same message.
	Key string `json:",omitempty"`
}

// Reply answers an invocation.
type Reply struct {
	Message
	// Private replies are seen only by the one who asked: refusals, errors
	// and help.
	Private bool
	// Choices answer an autocomplete request.
	Choices []Choice
	// Update asks the platform to show a private reply in place of the
	// private message whose menu made the invocation (the picker's next
	// step), where it can; else it is a new private message.
	Update bool
	// LaunchActivity asks the platform to open the play page as its
	// embedded app (a Discord Activity) for the one who asked, in place
	// of the message; a platform that cannot shows the message.
	LaunchActivity bool
}

// Notifier posts messages that are not answers to an invocation: the bot's
// moves, reminders, timeouts and results. The Discord layer posts them as
// ordinary channel messages; the console prints them.
type Notifier interface {
	Post(ctx context.Context, channel string, msg Message) error
}
