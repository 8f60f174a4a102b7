import type { RichText, MessageRef, SendOptions, IncomingMessage, Outbound } from '../../ports/transport.ts';
import type { ChatSession } from '../chat-session.ts';
import type { Attachments } from '../attachments.ts';
import type { BridgeConfig } from '../../config/config.ts';

/** What a command may ask of the bot that runs it. */
export interface CommandHost {
  readonly config: Pick<BridgeConfig, 'adapters' | 'manifest' | 'projectRoots' | 'projects' | 'dataDir'>;
  readonly out: Outbound;
  /** Stops the chat's turn, its queue, and whatever else the chat has running; returns a report. */
  stopChat(chat: ChatSession, reason: string): Promise<string>;
  /** Lines other parts add to /status. */
  statusExtras(chat: ChatSession): Promise<[string, string][]>;
  /** Files people sent: those waiting for a user's next message, and saving a replied-to message's. */
  readonly attachments: Pick<Attachments, 'take' | 'save'>;
}

export interface CommandContext {
  bridge: CommandHost;
  chat: ChatSession;
  message: IncomingMessage;
  /** What follows the command word. */
  args: string;
  reply: (text: RichText, options?: SendOptions) => Promise<MessageRef>;
  /** The command's usage line from manifest.json. */
  usage: string;
  /** Aborted when the command passes its deadline: work that can stop (streams, archives) stops. */
  signal: AbortSignal;
}

export type CommandHandler = (ctx: CommandContext) => Promise<void>;

/** How a command is run: by default within `commandTimeoutSeconds` (manifest.json). */
export interface CommandOptions {
  /** Its own deadline, for a command whose work may rightly take longer (zipping a directory). */
  timeoutSeconds?: number;
}

/** A wrong use of a command: answered with this message and the command's usage. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Commands that change what the next turn runs with wait for the running one. */
export function refuseWhileBusy(chat: ChatSession): void {
  if (chat.busy) throw new UsageError('A turn is running. /stop it first, or wait for it to end.');
}
