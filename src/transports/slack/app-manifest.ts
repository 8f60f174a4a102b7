/**
 * The Slack app the bridge needs, as a manifest (https://api.slack.com/reference/manifests):
 * pasted into "Create New App → From a manifest", it is the whole set-up but the two tokens.
 * `npm run manifest` writes it as slack-app-manifest.yml.
 */

/** What each Web API method the transport calls needs of the bot token (Slack's documented scopes). */
export const METHOD_SCOPES: Readonly<Record<string, readonly string[]>> = {
  'auth.test': [],
  'chat.postMessage': ['chat:write'],
  'chat.update': ['chat:write'],
  'chat.delete': ['chat:write'],
  'chat.postEphemeral': ['chat:write'],
  'reactions.add': ['reactions:write'],
  // The thread status while the agent works (Slack takes chat:write for it since March 2026; assistant:write before).
  'assistant.threads.setStatus': ['chat:write'],
  // A conversation of any kind: public and private channels, DMs, group DMs.
  'conversations.info': ['channels:read', 'groups:read', 'im:read', 'mpim:read'],
  'conversations.members': ['channels:read', 'groups:read', 'im:read', 'mpim:read'],
  'users.info': ['users:read'],
  'files.getUploadURLExternal': ['files:write'],
  'files.completeUploadExternal': ['files:write'],
  // Downloading a file people sent (url_private_download) with the bot token.
  'files.download': ['files:read'],
};

/** The events the bridge reads: people's messages where the bot is (DMs, channels, private channels, group DMs). */
export const BOT_EVENTS: Readonly<Record<string, string>> = {
  'message.im': 'im:history',
  'message.channels': 'channels:history',
  'message.groups': 'groups:history',
  'message.mpim': 'mpim:history',
};

/** The one slash command: Slack owns /status and others, so every command of the bridge goes under it. */
export const SLASH_COMMAND = '/bridge';

export function slackAppManifest(commands: readonly { name: string }[], name = 'jsonl-bridge'): Record<string, unknown> {
  const scopes = new Set<string>(['commands']);
  for (const needed of Object.values(METHOD_SCOPES)) for (const scope of needed) scopes.add(scope);
  for (const scope of Object.values(BOT_EVENTS)) scopes.add(scope);
  const examples = ['status', 'spawn', 'help'].filter((c) => commands.some((command) => command.name === c));
  return {
    display_information: {
      name,
      description: 'Your coding agents (Claude Code, Codex, droid) in Slack',
      background_color: '#1f2328',
    },
    features: {
      app_home: { messages_tab_enabled: true, messages_tab_read_only_enabled: false, home_tab_enabled: false },
      bot_user: { display_name: name, always_online: true },
      slash_commands: [
        {
          command: SLASH_COMMAND,
          description: 'A command of the bridge',
          usage_hint: `<command> [arguments]: ${examples.join(', ')}, … (${commands.length} commands)`,
          should_escape: false,
        },
      ],
    },
    oauth_config: { scopes: { bot: [...scopes].sort() } },
    settings: {
      event_subscriptions: { bot_events: Object.keys(BOT_EVENTS) },
      interactivity: { is_enabled: true },
      org_deploy_enabled: false,
      socket_mode_enabled: true,
      token_rotation_enabled: false,
    },
  };
}
