// Package discordtest is a local stand-in for Discord, faithful where a
// slash-command bot depends on it, for tests of a bot built on discordgo.
//
// A Server runs on 127.0.0.1 and speaks Discord's REST API (v9 and v10
// paths) and its gateway websocket as discordgo sees them. A discordgo
// session reaches it through the server's HTTP client, whose transport sends
// every request, whatever its host, to the fake:
//
//	srv := discordtest.Start(t, discordtest.Options{Token: "x"})
//	s, _ := discordgo.New("Bot x")
//	s.Client = srv.HTTPClient()
//	s.Dialer = srv.Dialer()
//	s.Identify.Intents = discordgo.IntentsGuilds
//	err := s.Open() // GET /gateway answers with the fake's ws:// URL
//
// The server keeps guilds, users, roles, channels, threads, messages and
// application commands in memory. Tests drive it as Discord's users would:
// SendCommand, SendAutocomplete and PressButton dispatch INTERACTION_CREATE
// to the bot's gateway session, checked against the commands the bot
// registered and the messages it posted. RequestReconnect, InvalidateSession
// and DropConnections exercise the gateway's recovery paths; InjectRateLimit
// and InjectFailure make REST routes fail.
//
// # What it enforces, and where Discord documents it
//
// Paths are files of github.com/discord/discord-api-docs (developers/...),
// with the section. A refused request gets Discord's own status and JSON
// error code, and every breach is listed by Violations.
//
//   - Interactions (interactions/receiving-and-responding.mdx, "Responding
//     to an Interaction", "Interaction Callback", "Followup Messages"): a
//     first answer within 3 s, only one, with a callback type that fits the
//     interaction; tokens that serve followups and edits for 15 minutes; the
//     first followup after a deferral edits it, keeping its privacy; an
//     autocomplete has no followups; app_permissions are the bot's
//     permissions in the interaction's channel, overwrites included
//     ("Interaction Object").
//   - HTTP interactions (interactions/overview.mdx, "Setting Up an
//     Endpoint", "Acknowledging PING requests"): requests signed with
//     Ed25519, a PING answered by PONG, an endpoint refusing a genuine
//     request is a breach. Inline multipart
//     answers above 150 KB fail, as Discord fails them though it documents
//     no bound (issue discord/discord-api-docs#5250).
//   - Messages (resources/message.mdx, "Create Message"; reference.mdx,
//     "Uploading Files"): content, embed and attachment limits, upload size,
//     allowed mentions and who gets pinged, EPHEMERAL ignored on channel
//     messages, replies to known messages only; a nonce of at most 25
//     characters, and with enforce_nonce a repeat of one the bot used in
//     the last five minutes, in any channel, returns that message and
//     creates none.
//   - Components (components/reference.mdx): action rows of at most five
//     buttons, at most five rows, labels and custom ids within limits; a
//     string select ("String Select") alone in its row, 1 to 25 options
//     whose label, value and description are at most 100 characters, a
//     placeholder of at most 150, min_values and max_values within 0..25.
//     ChooseOption sends a pick as a client does ("String Select
//     Interaction Response Structure"): component_type 3 and values that
//     are options of the select, as many as it allows; an ephemeral
//     message's components are only for the user who sees it.
//   - Direct messages (resources/user.mdx, "Create DM"): POST
//     /users/@me/channels opens the DM channel with a known user, or
//     returns the one there is; a post in it fails with 50007 "Cannot send
//     messages to this user" (topics/opcodes-and-status-codes.mdx) when the
//     user closed their DMs (CloseDMs) or shares no server with the bot.
//   - Discord's OpenAPI description (github.com/discord/discord-api-spec,
//     specs/openapi.json, kept in testdata): with Options.OpenAPI every
//     JSON body the bot sends, REST requests and HTTP interaction answers,
//     is checked against the request schema of its operation (openapi.go
//     lists the keywords checked); each mismatch is a violation.
//   - Message formatting (reference.mdx, "Message Formatting"): markup
//     such as timestamps (<t:UNIX:f>, <t:UNIX:R>) is content like any
//     other; the fake keeps it as text, as Discord's API does.
//   - Application commands (interactions/application-commands.mdx,
//     "Application Command Object", "Registering a Command"): names,
//     descriptions, option order and types, at most 25 choices, choice
//     values of the option's type, autocomplete answers; `contexts` only on
//     global commands (a guild command's is flagged "ignored-field").
//   - Permissions (topics/permissions.mdx, "Permission Overwrites",
//     "Implicit Permissions"): a member's permissions in a channel from
//     @everyone, roles, and the channel's @everyone, role and member
//     overwrites, in Discord's order; no View Channel leaves nothing, no
//     Send Messages drops Attach Files and Embed Links. The bot's role has
//     only what Arbiter's invite asks for (PermBotDefault). Every route the
//     bot uses checks them (resources/channel.mdx, resources/message.mdx,
//     each endpoint's "Requires"): 50001 Missing Access where the bot
//     cannot see the channel, 50013 Missing Permissions where it lacks the
//     route's permission (topics/opcodes-and-status-codes.mdx, "JSON Error
//     Codes"). SetOverwrites and SetRolePermissions change them as a
//     server's admin would.
//   - Threads (topics/threads.mdx, "Permissions", "Locked Threads",
//     "Active & Archived Threads", "Editing & Deleting Threads";
//     resources/channel.mdx, "Start Thread without Message", "Modify
//     Channel", "Join Thread"): a thread has its
//     parent's permissions, with Send Messages in Threads for posting; a
//     post unarchives an archived thread unless it is locked; a locked
//     thread takes no post or edit from a bot without Manage Threads
//     (50083 archived, 50013 active); unarchiving by edit needs the bot in
//     the thread, and its creator or Manage Threads when locked; name,
//     archiving and auto-archive need the creator or Manage Threads; an
//     archived thread cannot be joined; a private thread is unseen by
//     non-members without Manage Threads; API v9 creates a private thread
//     when no type is given; auto-archive durations of 60, 1440, 4320 or
//     10080 minutes, counted on the server's clock. StartThread opens one
//     as a student would, without the bot in it.
//   - The gateway (events/gateway.mdx, "Connecting", "Heartbeat Interval",
//     "Identifying", "Resuming", "Gateway Intents"; close codes in
//     topics/opcodes-and-status-codes.mdx): HELLO then IDENTIFY or RESUME,
//     a session that a 1000/1001 close ends and other codes keep, missed
//     events replayed on RESUME, privileged intents refused with 4014,
//     shards by (guild_id >> 22) % num_shards. READY's resume_gateway_url
//     is distinct from GET /gateway's URL, and a RESUME elsewhere is a
//     breach ("Preparing to Resume"; Session.ResumesOffURL counts them).
//     ExpireSessions times out disconnected sessions, so that RESUME gets
//     op 9 ("Initiating a Disconnect", "Resuming"). StopHeartbeatAcks turns connections into zombies
//     (no ACK, no dispatch), as a client must detect between two
//     heartbeats ("Heartbeat Interval").
//   - Rate limits (topics/rate-limits.mdx): InjectRateLimit answers 429
//     with Discord's headers and body.
//   - Activities (activity.go): the LAUNCH_ACTIVITY (12) answer to a
//     command, a component or a modal submission, only for an application
//     with Activities enabled (Options.Activity;
//     interactions/receiving-and-responding.mdx, "Interaction Callback
//     Type"; activities/how-activities-work.mdx); the OAuth2 authorization
//     code exchange at POST /oauth2/token (topics/oauth2.mdx,
//     "Authorization Code Grant": client id and secret by HTTP Basic or in
//     the form; a code serves once, for at most ten minutes, after RFC 6749
//     section 4.1.2, and its reuse revokes its tokens); GET /users/@me by a
//     Bearer token with the identify scope (resources/user.mdx, "Get
//     Current User"); Get Application Activity Instance with the Bot token,
//     404 for an unknown instance (resources/application.mdx;
//     activities/development-guides/multiplayer-experience.mdx).
//     AuthorizeCode stands for the Embedded App SDK's authorize in
//     Discord's client, StartActivity for a launch. Enabling Activities
//     makes the default Entry Point command (type 4, handler 2), global
//     only, one per application, option-less (application-commands.mdx,
//     "Entry Point Commands"; user-actions.mdx); a global bulk overwrite
//     that leaves it out removes it, as it overwrites all types.
//
// Time is the server's own clock: real time plus an offset that Advance
// moves forward, so a test can age an interaction token or let a thread
// auto-archive without sleeping.
//
// What discordgo (v0.29.1-0.20260214123928-f43dd94faaac, its master
// after v0.29.0) does, as seen from here:
//   - Open fetches GET /gateway (not /gateway/bot) once and caches the URL
//     for the session's life; it RESUMEs on READY's resume_gateway_url
//     (v0.29.0 resumed on the cached URL).
//   - A missing heartbeat ACK is noticed only after five intervals (about
//     200 s with Discord's 41.25 s), and then closed with 1000, which ends
//     the session: package bot watches the ACKs itself.
//   - IDENTIFY asks for payload compression by default, so the fake sends
//     each payload as a zlib stream in a binary frame.
//   - RECONNECT (op 7): discordgo closes with 1012, sleeps a second, opens
//     and RESUMEs; missed events are replayed before RESUMED.
//   - INVALID_SESSION (op 9) on a live connection: discordgo closes with
//     1012 (which takes a second), then with d = true RESUMEs on
//     resume_gateway_url, with d = false forgets the session and
//     IDENTIFYs on a new connection to the cached URL.
//   - INVALID_SESSION answering a RESUME arrives inside Open, which holds
//     the session's lock that the op 9 handler takes: Open deadlocks and
//     the session is stuck for good (package bot detects it). Close sends
//     1000, which ends the session, yet a later Open on the same session
//     RESUMEs: it deadlocks so.
//   - Close right after Open races discordgo's heartbeat goroutine into a
//     reconnect loop; WaitConnected waits for the first heartbeat.
//   - 429 is retried after retry_after without limit; 502 up to
//     MaxRestRetries times; other errors come back as *discordgo.RESTError.
//   - InteractionResponseData always sends "embeds":null and
//     "components":null: an UPDATE_MESSAGE that leaves Embeds out drops
//     them, while null components are ignored.
//   - ThreadStart with type 0 omits the type, which API v9 takes as a
//     private thread.
//   - An edit with new Files appends them unless Attachments lists what to
//     keep (&[]*discordgo.MessageAttachment{} replaces all).
//   - An autocomplete's focused option value is the typed text as a
//     string, even for integer options: IntValue would panic.
//
// Invariants a change must keep: the fake is at least as strict as
// Discord's documentation, and each rule it enforces cites the page that
// states it; it imports nothing of Arbiter's, so it tests any discordgo
// bot; what it cannot check is said above rather than silently allowed.
package discordtest
