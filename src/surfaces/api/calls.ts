import { status, type Metadata, type sendUnaryData, type ServerUnaryCall, type ServerWritableStream } from '@grpc/grpc-js';
import type { PeopleSettings } from '../../chat/people/people-settings.ts';
import { isNoChat, wholeChatKey, type ChatRef } from '../../kernel/ports/chat.ts';
import type { Log } from '../../kernel/log/logger.ts';
import type { ChatStore } from '../../kernel/store/chat-store.ts';
import type { ApiClients } from './auth.ts';
import type { ApiScopes } from './scopes.ts';
import { chatOf } from './convert.ts';
import type { ChatRef as ApiChatRef } from './generated/jsonl_bridge/v1/ChatRef.ts';

/** What every service's calls are checked with: who the client is, which chats it reaches, and which the bot can. */
export interface CallDeps {
  config: Pick<PeopleSettings, 'bareNumbers'>;
  clients: ApiClients;
  scopes: ApiScopes;
  /** Whether the bot can write to a chat (`wholeChatKey`): someone allowed has talked to it there. */
  store: Pick<ChatStore, 'knows'>;
  log: Log;
}

/** A refusal with its gRPC code and a sentence a client's author can act on. */
export class ApiError extends Error {
  constructor(
    readonly code: status,
    message: string,
  ) {
    super(message);
  }
}

/** The longest text a request may carry (a prompt, a message). */
export const MAX_TEXT = 100_000;

/** A unary call: authenticated, then answered with the handler's response or its refusal's code. */
export function unary<Req, Res>(deps: CallDeps, handle: (request: Req, client: string) => Promise<Res>) {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => {
    const client = authenticate(deps, call.metadata);
    if (typeof client !== 'string') return callback(client);
    handle(call.request, client).then(
      (response) => callback(null, response),
      (error: unknown) => callback(asServiceError(deps, error)),
    );
  };
}

/** A streaming call: authenticated; the handler writes and returns when the stream is done. */
export function streaming<Req, Res>(deps: CallDeps, handle: (call: ServerWritableStream<Req, Res>, client: string) => Promise<void>) {
  return (call: ServerWritableStream<Req, Res>) => {
    const client = authenticate(deps, call.metadata);
    // An error emitted on the stream is how grpc-js ends it with that status.
    const fail = (failure: { code: status; details: string }) => call.emit('error', Object.assign(new Error(failure.details), failure));
    if (typeof client !== 'string') return fail(client);
    handle(call, client).then(
      () => call.end(),
      (error: unknown) => fail(asServiceError(deps, error)),
    );
  };
}

/** Acting in a chat (a new run or plan, a message, a look at it): only in the client's scope, and only where the bot can speak. */
export function mayActIn(deps: CallDeps, client: string, chat: ChatRef): void {
  if (isNoChat(chat)) return;
  // As the client wrote it: a bare number for the transport whose ids are numbers.
  const named = chat.transport === deps.config.bareNumbers ? chat.chat : wholeChatKey(chat);
  if (!deps.scopes.reaches(client, chat))
    throw new ApiError(status.PERMISSION_DENIED, `chat ${named} is outside the chats BRIDGE_API_SCOPES gives the client "${client}"`);
  if (!deps.store.knows(wholeChatKey(chat)))
    throw new ApiError(
      status.FAILED_PRECONDITION,
      `the bot cannot reach chat ${named}: nobody allowed has talked to it there yet (a bot may write only to chats that have talked to it)`,
    );
}

/** The chat a request names, or a refusal saying what was wrong with it. */
export function namedChat(deps: CallDeps, ref: ApiChatRef | null | undefined): ChatRef {
  const chat = chatOf(ref, deps.config.bareNumbers);
  if (!chat) throw new ApiError(status.INVALID_ARGUMENT, `chat: expected "transport:chat" or a number, got "${String(ref?.chat).slice(0, 80)}"`);
  return chat;
}

/** A text field within its limits. */
export function text(field: string, value: string, required: boolean, max = MAX_TEXT): void {
  if (required && !value.trim()) throw new ApiError(status.INVALID_ARGUMENT, `${field}: required`);
  if (value.length > max) throw new ApiError(status.INVALID_ARGUMENT, `${field}: at most ${max} characters, got ${value.length}`);
}

function authenticate(deps: CallDeps, metadata: Metadata): string | { code: status; details: string } {
  if (deps.clients.none) return { code: status.PERMISSION_DENIED, details: 'the API accepts no client: BRIDGE_API_TOKENS is not set on the bridge' };
  const client = deps.clients.identify(metadata);
  return (
    client ?? { code: status.UNAUTHENTICATED, details: 'missing or unknown token: send `authorization: Bearer <token>` with a token from BRIDGE_API_TOKENS' }
  );
}

function asServiceError(deps: CallDeps, error: unknown): { code: status; details: string } {
  if (error instanceof ApiError) return { code: error.code, details: error.message };
  deps.log.error({ err: error }, 'an API call failed');
  return { code: status.INTERNAL, details: 'the bridge failed to answer; its log says why' };
}
