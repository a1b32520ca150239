// Package bot is Arbiter on Discord: the session, the registration of the
// command set, interactions in and messages out. It adapts package commands
// to discordgo and knows nothing of games.
//
// # Interactions in
//
// Slash commands, autocomplete requests and button presses arrive over the
// gateway (Bot.Run) or, in HTTP mode, at the interactions endpoint
// (Bot.ServeHTTP, Ed25519-verified). Each becomes a commands.Invocation:
// options as text, the user's role IDs resolved to role names, the Manage
// Server permission as ManageServer, resolved user options as Users. A
// button's custom id is read back by commands.ParseButton into the command
// and the game version it was drawn for, so a stale button is refused by
// commands, politely and privately.
//
// # Answering within three seconds
//
// Discord drops an interaction that has no first answer within 3 seconds.
// The policy is a timer: the command runs at once while a timer runs
// (Config.DeferAfter, 1.5 s, shortened when the interaction reached us late,
// as after a gateway reconnect). When the command is done first, its reply is
// the answer (ephemeral when private). When the timer fires first, the answer
// is a deferral ("Arbiter is thinking..."), ephemeral for the commands whose
// replies are private by nature (/help, /rules, /moves, /games, /stats and
// the Refresh button), public otherwise; when the reply comes, it replaces
// the deferral if their privacy agrees (and a public reply pings nobody),
// else the deferral is deleted and the reply is sent as a followup with the
// right privacy, so that private text is never shown to the channel and a
// move's mentions do ping. Autocomplete is answered directly, at most 25
// choices.
//
// # Messages out
//
// What comes later (the bot's move, reminders, timeouts, results) goes
// through Notifier, an ordinary channel message over REST: interaction
// tokens die after 15 minutes and games last days. Every message allows
// pings only for commands.Message.Mentions; buttons go in action rows of at
// most five; files are attachments; text over Discord's 2000 characters is
// attached as a file instead.
//
// # Threads
//
// /play ... thread:true opens a public thread from the channel for the game
// (auto-archive after a week, Discord's longest, since a game's turns may
// take days), runs /play in the thread, posts the game's announcement there
// and answers in the channel with a link to the thread. When /play is
// refused, the empty thread is archived. Notifier unarchives a thread that
// went quiet before it posts into it.
//
// # Processes
//
// One process per gateway shard runs Bot.Run; bot-turn workers may run in
// it or in separate `arbiter worker` processes, which need no gateway:
// NewSession's session serves REST without Open.
package bot
