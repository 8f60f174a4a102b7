import { ConfigError } from './errors/config-error.ts';
import { commaList } from './settings/variables.ts';

/**
 * The one list of the bridge's transports, by id: what the core must know of each before one
 * is chosen. A transport is its folder, `src/transports/<id>/` (the web chat's is the web
 * server's, `src/surfaces/web/`), whose `transport.ts` exports its TransportKind as default.
 * It is loaded from there only when it is served or checked, so a bridge on one chat app
 * never loads the others' client libraries, and the layers below (the log, the environment of
 * CLIs) can know every transport's prefix without depending on any. A new transport is its
 * folder and one line here.
 */
export interface KnownTransport {
  id: string;
  /** Its folder under src/, where its `transport.ts` is. */
  folder: string;
  /** Its chats' turns, as a sentence names them: "2 Telegram turns", "1 web-chat turn". */
  turns: string;
  /** The prefix of its own environment variables: kept from every CLI, and redacted wherever they show. */
  envPrefix?: string;
  /** Whether a bare number, where a person writes a chat or user, means this transport's. */
  bareNumbers?: boolean;
  /** What to set to serve it, for the line that says nothing is set. */
  needs: string;
  /** Whether its settings are present: served without BRIDGE_TRANSPORTS. */
  configured(env: NodeJS.ProcessEnv): boolean;
}

const set = (env: NodeJS.ProcessEnv, name: string) => Boolean(env[name]?.trim());

/** The console's transport id: the bridge started with `--console` has it, and /help is written for a terminal there. */
export const CONSOLE = 'console';

export const TRANSPORTS: readonly KnownTransport[] = [
  {
    id: 'telegram',
    folder: 'transports/telegram',
    turns: 'Telegram',
    envPrefix: 'TELEGRAM_',
    bareNumbers: true,
    needs: 'TELEGRAM_BOT_TOKEN',
    configured: (env) => set(env, 'TELEGRAM_BOT_TOKEN'),
  },
  {
    id: 'slack',
    folder: 'transports/slack',
    turns: 'Slack',
    envPrefix: 'SLACK_',
    needs: 'SLACK_BOT_TOKEN with SLACK_APP_TOKEN (or SLACK_SIGNING_SECRET)',
    configured: (env) => set(env, 'SLACK_BOT_TOKEN'),
  },
  {
    id: 'discord',
    folder: 'transports/discord',
    turns: 'Discord',
    envPrefix: 'DISCORD_',
    needs: 'DISCORD_BOT_TOKEN',
    configured: (env) => set(env, 'DISCORD_BOT_TOKEN'),
  },
  {
    id: 'mattermost',
    folder: 'transports/mattermost',
    turns: 'Mattermost',
    envPrefix: 'MATTERMOST_',
    needs: 'MATTERMOST_URL with MATTERMOST_TOKEN',
    configured: (env) => set(env, 'MATTERMOST_TOKEN'),
  },
  {
    id: 'teams',
    folder: 'transports/teams',
    turns: 'Teams',
    envPrefix: 'TEAMS_',
    needs: 'TEAMS_APP_ID with TEAMS_APP_PASSWORD and TEAMS_TENANT_ID',
    configured: (env) => set(env, 'TEAMS_APP_ID'),
  },
  {
    id: 'matrix',
    folder: 'transports/matrix',
    turns: 'Matrix',
    envPrefix: 'MATRIX_',
    needs: 'MATRIX_HOMESERVER_URL with MATRIX_ACCESS_TOKEN',
    configured: (env) => set(env, 'MATRIX_ACCESS_TOKEN'),
  },
  {
    id: 'web',
    folder: 'surfaces/web',
    turns: 'web-chat',
    needs: 'BRIDGE_WEB_ADDR',
    configured: (env) => set(env, 'BRIDGE_WEB_ADDR'),
  },
  {
    id: CONSOLE,
    folder: 'transports/console',
    turns: 'console',
    needs: '--console',
    // Only ever chosen by `--console`: a terminal is not a setting.
    configured: () => false,
  },
];

/** The transport a bare number means (BRIDGE_ALLOWED_USERS, BRIDGE_API_SCOPES, the API's chat_id). */
export const BARE_NUMBERS: string = TRANSPORTS.find((t) => t.bareNumbers)!.id;

/**
 * The prefixes of the bridge's own variables, every transport's included: its settings and
 * secrets (a bot token, API and transcription keys, the Redis URL with its password). A
 * coding agent and the git hooks it may trigger have no business with any of them.
 */
export const BRIDGE_ENV_PREFIXES: readonly string[] = [...TRANSPORTS.flatMap((t) => (t.envPrefix ? [t.envPrefix] : [])), 'BRIDGE_', 'SUBAGENTS_'];

/** Served beside a chat app, never alone: its people log in through one. */
const BESIDE = new Set(['web']);

/**
 * The transports `npm start` serves: with `--console`, this terminal (and the web chat with
 * BRIDGE_WEB_ADDR); else those BRIDGE_TRANSPORTS names, or every one whose settings are
 * present. A ConfigError says what is missing, naming every transport when none is set.
 */
export function chooseTransports(argv: readonly string[], env: NodeJS.ProcessEnv): KnownTransport[] {
  const web = byId('web')!;
  // Named or not, a BRIDGE_TRANSPORTS that is wrong is said, with --console too: the next start without it would stop on it.
  const written = writtenTransports(env);
  if (argv.includes('--console')) return [byId('console')!, ...(web.configured(env) ? [web] : [])];
  if (written) {
    const chosen: KnownTransport[] = [];
    for (const transport of written) {
      if (!transport.configured(env)) throw new ConfigError(`BRIDGE_TRANSPORTS names ${transport.id}, but ${transport.needs} is not set`);
      if (!chosen.includes(transport)) chosen.push(transport);
    }
    // The web pages and their chat come together: the pages show it.
    if (web.configured(env) && !chosen.includes(web))
      throw new ConfigError('BRIDGE_WEB_ADDR serves the web pages with their chat: add web to BRIDGE_TRANSPORTS, or unset BRIDGE_WEB_ADDR');
    if (chosen.every((t) => BESIDE.has(t.id)))
      throw new ConfigError('BRIDGE_TRANSPORTS: the web chat is served beside a chat app, whose people log in to it; name one too');
    return chosen;
  }
  const present = TRANSPORTS.filter((t) => t.configured(env));
  if (present.every((t) => BESIDE.has(t.id)))
    throw new ConfigError(
      `no chat app is set: set ${CHAT_APPS.map((t) => t.needs).join(', or ')}; or run \`npm start -- --console\` to use the bridge in this terminal`,
    );
  return present;
}

const byId = (id: string) => TRANSPORTS.find((t) => t.id === id);

/** Every transport but the terminal and those served beside one. */
const CHAT_APPS = TRANSPORTS.filter((t) => t.id !== 'console' && !BESIDE.has(t.id));

/** The transports BRIDGE_TRANSPORTS names, in order (undefined when it is unset); a name that is none stops the start, saying which are. */
function writtenTransports(env: NodeJS.ProcessEnv): KnownTransport[] | undefined {
  const written = env.BRIDGE_TRANSPORTS?.trim();
  if (!written) return undefined;
  return commaList(written)
    .map((part) => part.toLowerCase())
    .map((id) => {
      const transport = byId(id);
      if (!transport || transport.id === 'console')
        throw new ConfigError(
          `BRIDGE_TRANSPORTS: "${id}" is not a transport; choose among ${[...CHAT_APPS, byId('web')!].map((t) => t.id).join(', ')} (the terminal is --console)`,
        );
      return transport;
    });
}
