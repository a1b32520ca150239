// Signing in inside Discord: the Embedded App SDK (vendored, see
// vendor/build.sh) says ready, asks the user to authorize the identify
// scope, and the server exchanges the code with Discord, checks the
// Activity instance and answers with a session for the channel's game.
// With ?mock=CODE (tests) the SDK's own DiscordSDKMock stands where
// Discord's client would be, answering authorize with CODE; the server
// checks that code with Discord all the same.

import { DiscordSDK, DiscordSDKMock } from "./vendor/embedded-app-sdk.js";

export async function signIn(clientId, params) {
  let sdk;
  if (params.has("mock")) {
    sdk = new DiscordSDKMock(clientId, params.get("guild_id"), params.get("channel_id"), null);
    sdk._updateCommandMocks({ authorize: async () => ({ code: params.get("mock") }) });
  } else {
    sdk = new DiscordSDK(clientId);
  }
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const resp = await fetch("/api/v1/activity/token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, instance: sdk.instanceId }),
  });
  const ans = await resp.json();
  if (!resp.ok) throw new Error(ans.error || resp.statusText);
  return ans;
}
