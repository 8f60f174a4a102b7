import type { ApiConfig } from './api-settings.ts';
import { isNoChat, wholeChatKey, type ChatRef } from '../../kernel/ports/chat.ts';

/**
 * Which chats each API client may see and act in (BRIDGE_API_SCOPES). Every client reaches
 * the runs started with no chat, the API's own; a client the scopes do not name reaches
 * only those. Outside its scope a run does not exist for the client: the handlers answer as
 * for an unknown id, so a client cannot learn which ids other chats use.
 */
export class ApiScopes {
  constructor(private readonly scopes: ApiConfig['scopes']) {}

  reaches(client: string, chat: ChatRef): boolean {
    if (isNoChat(chat)) return true;
    const scope = Object.hasOwn(this.scopes, client) ? this.scopes[client] : undefined;
    return scope === '*' || (scope?.includes(wholeChatKey(chat)) ?? false);
  }

  /** The clients of `tokens` that reach no chat at all: start-up warns about each. */
  static unscoped(config: Pick<ApiConfig, 'tokens' | 'scopes'>): string[] {
    return config.tokens.map((t) => t.name).filter((name) => !Object.hasOwn(config.scopes, name));
  }
}
