/**
 * The Teams app's manifest (schema 1.17), from the transport's own needs: a bot in personal
 * chats, teams and group chats, taking files in personal chats, its command menu the bridge's
 * most used commands (Teams shows ten at most, each title 32 characters, each description 128).
 */
export function teamsAppManifest(
  commands: readonly { name: string; description: string }[],
  app: { appId: string; host: string; name?: string },
): Record<string, unknown> {
  const name = app.name ?? 'jsonl-bridge';
  const site = `https://${app.host}`;
  const menu = MENU.flatMap((wanted) => commands.filter((c) => c.name === wanted)).map((command) => ({
    title: command.name.slice(0, 32),
    description: command.description.length > 128 ? `${command.description.slice(0, 127)}…` : command.description,
  }));
  return {
    $schema: 'https://developer.microsoft.com/en-us/json-schemas/teams/v1.17/MicrosoftTeams.schema.json',
    manifestVersion: '1.17',
    version: '1.0.0',
    id: app.appId,
    developer: { name, websiteUrl: site, privacyUrl: site, termsOfUseUrl: site },
    name: { short: name.slice(0, 30), full: name },
    description: {
      short: 'Your coding agents in Teams',
      full: 'Runs coding-agent CLIs (Claude Code, Codex, droid) for your team: mention the bot in a channel post, a group chat, or write to it in a personal chat.',
    },
    icons: { color: 'color.png', outline: 'outline.png' },
    accentColor: '#1F2328',
    bots: [
      {
        botId: app.appId,
        scopes: ['personal', 'team', 'groupChat'],
        supportsFiles: true,
        isNotificationOnly: false,
        commandLists: [{ scopes: ['personal', 'team', 'groupChat'], commands: menu }],
      },
    ],
    permissions: ['identity', 'messageTeamMembers'],
    validDomains: [app.host],
  };
}

/** The commands the menu offers, in its order. */
const MENU = ['status', 'help', 'stop', 'new', 'cli', 'permissions', 'spawn', 'file', 'whoami', 'allow'];

/** The app's icons as SVG: a color one (192×192) and an outline (32×32, white on transparent). */
export const TEAMS_ICONS = {
  color: `<svg xmlns="http://www.w3.org/2000/svg" width="192" height="192"><rect width="192" height="192" rx="32" fill="#1F2328"/><text x="96" y="124" font-family="monospace" font-size="88" font-weight="bold" fill="#FFFFFF" text-anchor="middle">{}</text></svg>`,
  outline: `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><rect x="2" y="2" width="28" height="28" rx="6" fill="none" stroke="#FFFFFF" stroke-width="2"/><path d="M12 10 L8 16 L12 22 M20 10 L24 16 L20 22" fill="none" stroke="#FFFFFF" stroke-width="2"/></svg>`,
};
