import { EventEmitter, on } from 'node:events';
import { status, type ServerWritableStream } from '@grpc/grpc-js';
import type { AuditLog } from '../../kernel/audit/audit-log.ts';
import { chatKey, isNoChat, type ChatRef } from '../../kernel/ports/chat.ts';
import type { AgentEvent } from '../../kernel/protocols/events.ts';
import type { TurnOutcome } from '../../engine/session/running-turn.ts';
import { ApiError, mayActIn, namedChat, streaming, text, unary, type CallDeps } from './calls.ts';
import type { Bot } from '../../chat/bot.ts';
import type { ChatSession } from '../../chat/session/chat-session.ts';
import { apiChat, apiEvent } from './convert.ts';
import { writer } from './watch.ts';
import type { ChatInfo } from './generated/jsonl_bridge/v1/ChatInfo.ts';
import type { ChatRef as ApiChatRef } from './generated/jsonl_bridge/v1/ChatRef.ts';
import type { ChatServiceHandlers } from './generated/jsonl_bridge/v1/ChatService.ts';
import type { ChatTurnEvent } from './generated/jsonl_bridge/v1/ChatTurnEvent.ts';
import type { TurnStatus } from './generated/jsonl_bridge/v1/TurnStatus.ts';

export interface ChatApiDeps extends CallDeps {
  /** A message into a chat's main session (queued behind the turn at work, never steering it), and a look at a chat. */
  bot: Pick<Bot, 'inject' | 'chats'>;
  audit: Pick<AuditLog, 'record'>;
}

/** How a message from an API client is headed in its chat: the client's name, as BRIDGE_API_TOKENS gives it. */
export const fromClient = (client: string) => `🔌 ${client}`;

/**
 * The ChatService: a message into a chat's main session, followed to its answer, and a look
 * at a chat; each only in a chat of the client's scope that the bot can reach.
 */
export function chatHandlers(deps: ChatApiDeps): ChatServiceHandlers {
  const chatIn = (ref: ApiChatRef | null | undefined, client: string): ChatRef => {
    const chat = namedChat(deps, ref);
    if (isNoChat(chat)) throw new ApiError(status.INVALID_ARGUMENT, 'chat: required (chat_id, or chat as "transport:chat")');
    mayActIn(deps, client, chat);
    return chat;
  };

  return {
    SendMessage: streaming(deps, async (call, client) => {
      const { request } = call;
      text('text', request.text, true);
      const by = `API client ${client}`;
      const audit = (chat: string, decision: string, more: { turnId?: string; detail?: string } = {}) =>
        void deps.audit.record({ event: 'message', chat, by, input: request.text, decision, ...more });
      let chat: ChatRef;
      try {
        chat = chatIn(request.chat, client);
      } catch (error) {
        // A chat that does not parse was never a chat: nothing to name in the trail.
        if (error instanceof ApiError && error.code !== status.INVALID_ARGUMENT) audit(chatKey(namedChat(deps, request.chat)), `refused: ${error.message}`);
        throw error;
      }
      // The turn's events and outcome, kept until the stream takes them; nothing is kept once the client has gone.
      const turn = new EventEmitter();
      const watching = new AbortController();
      const items = on(turn, 'item', { signal: watching.signal }) as AsyncIterableIterator<[Item]>;
      const follower = { onEvent: (event: AgentEvent) => turn.emit('item', { event }), onEnded: (ended: TurnOutcome) => turn.emit('item', { ended }) };
      const sent = await deps.bot.inject(chat, { text: request.text, from: fromClient(client) }, follower);
      if (!sent.ok) {
        audit(chatKey(chat), `refused: ${sent.reason}`);
        throw new ApiError(status.RESOURCE_EXHAUSTED, sent.reason);
      }
      audit(chatKey(chat), 'accepted', sent.turnId ? { turnId: sent.turnId } : { detail: 'kept for after the restart' });
      await followTurn(call, items, watching, { turnId: sent.turnId, position: sent.position, chat: apiChat(chat, deps.config.bareNumbers) });
    }),

    GetChat: unary(deps, async (request, client) => {
      const chat = chatIn(request.chat, client);
      return chatInfo(chat, deps.bot.chats.get(chat), deps.config.bareNumbers);
    }),
  };
}

type Item = { event: AgentEvent } | { ended: TurnOutcome };

/** `accepted`, the turn's events numbered from 0, then `ended`: until the turn ends or the client goes. */
async function followTurn(
  call: ServerWritableStream<unknown, ChatTurnEvent>,
  items: AsyncIterableIterator<[Item]>,
  watching: AbortController,
  accepted: { turnId: string; position: number; chat: ApiChatRef },
): Promise<void> {
  const { write, gone } = writer(call);
  // The client went away: the turn goes on, unwatched.
  void gone.then(() => watching.abort());
  await write({ accepted: { turnId: accepted.turnId, queuePosition: accepted.position, chat: accepted.chat } });
  if (!accepted.turnId) {
    await write({ ended: { turnId: '', status: 'TURN_STATUS_POSTPONED', text: '', error: 'the bridge is restarting: the message runs once it is back' } });
    return;
  }
  let sequence = 0;
  try {
    for await (const [item] of items) {
      if ('event' in item) {
        const event = apiEvent(item.event, sequence);
        if (event) {
          sequence++;
          await write({ agent: event });
        }
        continue;
      }
      const outcome = item.ended;
      await write({
        ended: {
          turnId: accepted.turnId,
          status: `TURN_STATUS_${outcome.status.toUpperCase()}` as TurnStatus,
          text: outcome.text,
          error: outcome.error ?? '',
          costUsd: outcome.result?.costUsd ?? 0,
          durationMs: outcome.durationMs,
          sessionId: outcome.sessionId ?? '',
        },
      });
      return;
    }
  } catch (error) {
    if (!watching.signal.aborted) throw error;
  }
}

function chatInfo(address: ChatRef, chat: ChatSession, bareNumbers: string): ChatInfo {
  const { record } = chat;
  return {
    chat: apiChat(address, bareNumbers),
    cli: record.cli,
    model: record.model ?? '',
    sessionId: record.cliSessionId ?? '',
    workingDirectory: record.workdir,
    permissionMode: `PERMISSION_MODE_${chat.permissionMode.toUpperCase()}` as ChatInfo['permissionMode'],
    busyMode: `BUSY_MODE_${chat.busyMode.toUpperCase()}` as ChatInfo['busyMode'],
    turnRunning: chat.busy,
    turnStartedAtMs: chat.current?.startedAt ?? 0,
    queued: chat.queued,
  };
}
