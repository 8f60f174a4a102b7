import { chatKey, chatRef, NO_CHAT, type ChatRef } from '../../ports/chat.ts';

/**
 * Format 1 → 2: chats, threads, users and messages were numbers of the one transport there
 * was; now each id is a string and each chat names its transport, so records key chats by
 * `transport:chat[:thread]`. Every step leaves a record already in format 2 as it is, so a
 * migration cut short and run again does no harm. A field left undefined is none in the file.
 */

/** Which transport a format-1 chat id belonged to. */
export type LegacyTransport = (chatId: number) => string;

type Json = Record<string, unknown>;

/** Format 1's chat of the API's own runs. */
const OLD_NO_CHAT = Number.MIN_SAFE_INTEGER;

export class IdsAsStrings {
  constructor(private readonly transportOf: LegacyTransport) {}

  /** `-100123` or `-100123:45` → `transport:-100123[:45]`; a key already qualified is kept. */
  key(old: string): string {
    const match = /^(-?\d+)(?::(\d+))?$/.exec(old);
    if (!match) return old;
    return chatKey(this.ref(Number(match[1]), match[2] === undefined ? undefined : Number(match[2])));
  }

  private ref(chatId: number, threadId: number | undefined): ChatRef {
    return chatId === OLD_NO_CHAT ? NO_CHAT : chatRef(this.transportOf(chatId), chatId, threadId);
  }

  private rekey<T>(map: Record<string, T> | undefined): Record<string, T> {
    return Object.fromEntries(Object.entries(map ?? {}).map(([key, value]) => [this.key(key), value]));
  }

  private requester(requester: unknown): unknown {
    const r = requester as Json | undefined;
    if (r?.kind === 'user' && typeof r.userId === 'number') return { ...r, userId: String(r.userId) };
    if (r?.kind === 'agent' && typeof r.chatKey === 'string') return { ...r, chatKey: this.key(r.chatKey) };
    return requester;
  }

  /** chats.json: keyed by chat, each record naming its chat. */
  chats(data: Json): Json {
    const chats = Object.values((data.chats as Record<string, Json>) ?? {}).map((record) => {
      if (typeof record.chatId !== 'number') return record;
      const { chatId, threadId, pending, ...rest } = record;
      const chat = this.ref(chatId, threadId as number | undefined);
      return {
        ...rest,
        key: chatKey(chat),
        chat,
        ...(Array.isArray(pending)
          ? { pending: pending.map((p: Json) => (typeof p.messageId === 'number' ? { ...p, messageId: String(p.messageId) } : p)) }
          : {}),
      };
    });
    return { ...data, chats: Object.fromEntries(chats.map((record) => [record.key as string, record])) };
  }

  /** A run of subagents.json or its archive. */
  run(run: Json): Json {
    if (typeof run.requesterChatId !== 'number') return run;
    const { requesterChatId, requesterThreadId, ...rest } = run;
    return {
      ...rest,
      chat: this.ref(requesterChatId, requesterThreadId as number | undefined),
      requesterKey: this.key(String(rest.requesterKey)),
      requester: this.requester(rest.requester),
    };
  }

  /** An orchestration of orchestrations.json or its archive. */
  orchestration(record: Json): Json {
    if (typeof record.chatId !== 'number') return record;
    const { chatId, threadId, progressMessageId, ...rest } = record;
    return {
      ...rest,
      chat: this.ref(chatId, threadId as number | undefined),
      chatKey: this.key(String(rest.chatKey)),
      requester: this.requester(rest.requester),
      progressMessageId: typeof progressMessageId === 'number' ? String(progressMessageId) : progressMessageId,
    };
  }

  /** subagents.json, orchestrations.json: the numbers given out, by chat, and the records under `field`, each as `step` makes it. */
  numbered(data: Json, field: 'runs' | 'orchestrations', step: (record: Json) => Json): Json {
    return { ...data, numbers: this.rekey(data.numbers as Record<string, number>), [field]: mapValues((data[field] as Record<string, Json>) ?? {}, step) };
  }

  /** usage.json: keyed by chat. */
  usage(data: Json): Json {
    return { ...data, chats: this.rekey(data.chats as Record<string, unknown>) };
  }
}

function mapValues<T, U>(map: Record<string, T>, f: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(map).map(([key, value]) => [key, f(value)]));
}
