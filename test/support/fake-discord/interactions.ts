/** Discord keeps an interaction's first answer open this long; after it, 10062 "Unknown interaction". */
export const INTERACTION_ANSWER_MS = 3000;
/** Its token lasts this long for follow-ups. */
export const INTERACTION_TOKEN_MS = 15 * 60 * 1000;

export interface InteractionRecord {
  id: string;
  token: string;
  /** 2: an application command; 3: a component (a button). */
  type: 2 | 3;
  channelId: string;
  userId: string;
  createdAt: number;
  /** The callback's type once answered (4 reply, 5 deferred reply, 6 deferred update, 7 update). */
  answeredWith?: number;
  answeredAt?: number;
  /** The reply's message (a deferred one too: it shows "thinking…" until edited). */
  originalMessageId?: string;
  /** The message a pressed button is on. */
  messageId?: string;
  /** The command's name, or the button's custom_id. */
  name: string;
}

export class Interactions {
  private readonly byToken = new Map<string, InteractionRecord>();

  add(record: InteractionRecord): void {
    this.byToken.set(record.token, record);
  }

  get all(): InteractionRecord[] {
    return [...this.byToken.values()];
  }

  byId(id: string): InteractionRecord | undefined {
    return this.all.find((r) => r.id === id);
  }

  withToken(token: string): InteractionRecord | undefined {
    return this.byToken.get(token);
  }
}
