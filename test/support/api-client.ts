import { credentials, Metadata, type ClientReadableStream, type ServiceError } from '@grpc/grpc-js';
import { loadServices } from '../../src/surfaces/api/proto.ts';
import type { SubagentServiceClient } from '../../src/surfaces/api/generated/jsonl_bridge/v1/SubagentService.ts';
import type { ChatServiceClient } from '../../src/surfaces/api/generated/jsonl_bridge/v1/ChatService.ts';
import type { ChatInfo__Output } from '../../src/surfaces/api/generated/jsonl_bridge/v1/ChatInfo.ts';
import type { ChatTurnEvent__Output } from '../../src/surfaces/api/generated/jsonl_bridge/v1/ChatTurnEvent.ts';
import { OWNER, type TelegramWorld } from './telegram-world.ts';

/**
 * A real gRPC client of the bridge's SubagentService over the network (grpc-js, the same
 * .proto), with promise-shaped calls: what a CI job driving the bridge would write.
 */
export interface ApiClient {
  raw: SubagentServiceClient;
  call<Res>(method: UnaryMethod, request: object): Promise<Res>;
  /** Every message of a stream until it ends (or fails: rejects with the ServiceError). */
  stream<Res>(method: 'WatchSubagent' | 'WatchOrchestration', request: object, onMessage?: (message: Res) => void): Promise<Res[]>;
  close(): void;
}

type UnaryMethod = 'SpawnSubagent' | 'SendToSubagent' | 'CancelSubagent' | 'ListSubagents' | 'CreateOrchestration' | 'RevokeAutoApprove';

/** `rootCert`: the server's certificate, for TLS; none: plaintext. */
export function apiClient(address: string, token?: string, rootCert?: Buffer): ApiClient {
  const Service = loadServices().SubagentService;
  const raw = new Service(address, rootCert ? credentials.createSsl(rootCert) : credentials.createInsecure());
  const metadata = () => {
    const m = new Metadata();
    if (token !== undefined) m.set('authorization', `Bearer ${token}`);
    return m;
  };
  const untyped = raw as unknown as Record<
    string,
    (request: object, metadata: Metadata, callback?: (error: ServiceError | null, response: unknown) => void) => unknown
  >;
  return {
    raw,
    call<Res>(method: UnaryMethod, request: object) {
      return new Promise<Res>((resolve, reject) =>
        untyped[method]!.call(raw, request, metadata(), (error, response) => (error ? reject(error) : resolve(response as Res))),
      );
    },
    stream<Res>(method: 'WatchSubagent' | 'WatchOrchestration', request: object, onMessage?: (message: Res) => void) {
      const call = untyped[method]!.call(raw, request, metadata()) as ClientReadableStream<Res>;
      const messages: Res[] = [];
      return new Promise<Res[]>((resolve, reject) => {
        call.on('data', (message: Res) => {
          messages.push(message);
          onMessage?.(message);
        });
        call.on('error', reject);
        call.on('end', () => resolve(messages));
      });
    },
    close: () => raw.close(),
  };
}

/** A real gRPC client of the bridge's ChatService, beside the SubagentService on the same address. */
export interface ChatApiClient {
  raw: ChatServiceClient;
  getChat(request: object): Promise<ChatInfo__Output>;
  /**
   * SendMessage: `messages` every message of the stream until it ends (or rejects with the
   * ServiceError); `onMessage` sees each as it comes; `cancel` hangs up.
   */
  send(request: object, onMessage?: (message: ChatTurnEvent__Output) => void): { messages: Promise<ChatTurnEvent__Output[]>; cancel(): void };
  close(): void;
}

export function chatApiClient(address: string, token?: string): ChatApiClient {
  const raw = new (loadServices().ChatService)(address, credentials.createInsecure());
  const metadata = () => {
    const m = new Metadata();
    if (token !== undefined) m.set('authorization', `Bearer ${token}`);
    return m;
  };
  return {
    raw,
    getChat: (request) => new Promise((resolve, reject) => raw.GetChat(request, metadata(), (error, response) => (error ? reject(error) : resolve(response!)))),
    send(request, onMessage) {
      const call = raw.SendMessage(request, metadata());
      const received: ChatTurnEvent__Output[] = [];
      const messages = new Promise<ChatTurnEvent__Output[]>((resolve, reject) => {
        call.on('data', (message: ChatTurnEvent__Output) => {
          received.push(message);
          onMessage?.(message);
        });
        call.on('error', reject);
        call.on('end', () => resolve(received));
      });
      return { messages, cancel: () => call.cancel() };
    },
    close: () => raw.close(),
  };
}

/** Where the bridge's API listens, as its start-up line says (BRIDGE_API_ADDR may name port 0). */
export function apiAddressOf(world: TelegramWorld): string {
  return /SubagentService listening on (\S+),/.exec(world.bridge.log())![1]!;
}

/** Telegram lets a bot write only to chats that have talked to it: each of these says /help first. */
export async function introduceChats(world: TelegramWorld, chatIds: readonly number[]): Promise<void> {
  for (const chatId of chatIds) {
    world.telegram.sendText({ chatId, userId: OWNER, text: '/help', firstName: 'Ada', ...(chatId === OWNER ? { chatType: 'private' as const } : {}) });
    await world.telegram.waitFor(() => world.telegram.botMessages(chatId).length > 0, 20_000);
  }
}
