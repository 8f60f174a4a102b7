import { ConfigError } from '../../kernel/errors/config-error.ts';
import { qualifiedId } from '../../kernel/ports/chat.ts';
import { commaList } from '../../kernel/settings/variables.ts';
import { hostPort, tlsFiles } from '../../kernel/settings/listen-address.ts';

/** The SubagentService (BRIDGE_API_ADDR): where it listens, the clients it accepts, and TLS when a certificate is given. */
export interface ApiConfig {
  host: string;
  port: number;
  /** One per client: its name goes into the audit log. Empty: every call is refused. */
  tokens: { name: string; token: string }[];
  /** BRIDGE_API_SCOPES: the chats each client may see and act in (`*`: every chat); a client not here reaches only runs with no chat. */
  scopes: Record<string, ApiScope>;
  /** BRIDGE_API_NO_CHAT_MODE: the mode of the runs a client starts with no chat (nobody to ask there, so never `ask`). */
  noChatMode: NoChatMode;
  tls?: { cert: Buffer; key: Buffer };
}

export type NoChatMode = 'safe' | 'bypass';

/** Every chat, or these (each `transport:chat`, as `wholeChatKey` writes it). */
export type ApiScope = '*' | string[];

export async function apiConfig(env: NodeJS.ProcessEnv, bareNumbers: string): Promise<ApiConfig | undefined> {
  const addr = env.BRIDGE_API_ADDR?.trim();
  if (!addr) return undefined;
  const tokens = commaList(env.BRIDGE_API_TOKENS).map((entry) => {
    const match = /^([\w.-]{1,64})=(\S{16,})$/.exec(entry);
    if (!match) throw new ConfigError(`BRIDGE_API_TOKENS: expected name=token pairs, each token at least 16 characters, got "${entry.replace(/=.*/, '=…')}"`);
    return { name: match[1]!, token: match[2]! };
  });
  const names = tokens.map((t) => t.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice) throw new ConfigError(`BRIDGE_API_TOKENS: the client "${twice}" is named twice`);
  const scopes = apiScopes(env.BRIDGE_API_SCOPES, names, bareNumbers);
  const tls = await tlsFiles(env, 'BRIDGE_API');
  return {
    ...hostPort('BRIDGE_API_ADDR', addr, '127.0.0.1:50051'),
    tokens,
    scopes,
    noChatMode: noChatMode(env.BRIDGE_API_NO_CHAT_MODE),
    ...(tls ? { tls } : {}),
  };
}

/** `name=chat|chat,name=*`: each name one of BRIDGE_API_TOKENS', each chat a bare number (the `bareNumbers` transport's chat) or `transport:id`. */
function apiScopes(raw: string | undefined, clients: string[], bareNumbers: string): Record<string, ApiScope> {
  const scopes: Record<string, ApiScope> = {};
  for (const entry of commaList(raw)) {
    const match = /^([\w.-]{1,64})=(.+)$/.exec(entry);
    if (!match)
      throw new ConfigError(`BRIDGE_API_SCOPES: expected name=chat|chat or name=* pairs, like ci=-1001234567890|42,ops=*, got "${entry.slice(0, 80)}"`);
    const [, name, list] = match as unknown as [string, string, string];
    if (!clients.includes(name))
      throw new ConfigError(`BRIDGE_API_SCOPES: "${name}" is not a client of BRIDGE_API_TOKENS (${clients.length ? clients.join(', ') : 'none is set'})`);
    if (Object.hasOwn(scopes, name)) throw new ConfigError(`BRIDGE_API_SCOPES: the client "${name}" is named twice`);
    if (list.trim() === '*') {
      scopes[name] = '*';
      continue;
    }
    scopes[name] = list.split('|').map((chat) => {
      const id = chat.trim();
      const qualified =
        /^-?\d{1,16}$/.test(id) && Number(id) !== 0 ? qualifiedId(id, bareNumbers) : /^-?\d+$/.test(id) ? undefined : qualifiedId(id, bareNumbers);
      if (!qualified)
        throw new ConfigError(
          `BRIDGE_API_SCOPES: expected chat ids (numbers, like -1001234567890, or transport:id) or * for "${name}", got "${id.slice(0, 40)}"`,
        );
      return qualified;
    });
  }
  return scopes;
}

function noChatMode(raw: string | undefined): NoChatMode {
  const mode = raw?.trim().toLowerCase() || 'safe';
  if (mode === 'ask')
    throw new ConfigError(
      'BRIDGE_API_NO_CHAT_MODE: "ask" cannot work, a run of no chat has nobody to ask: set safe (the default: its runs only read) or bypass',
    );
  if (mode !== 'safe' && mode !== 'bypass') throw new ConfigError(`BRIDGE_API_NO_CHAT_MODE: expected safe or bypass, got "${raw!.trim().slice(0, 40)}"`);
  return mode;
}
