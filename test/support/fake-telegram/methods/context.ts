import type { BotState } from '../bot-state.ts';
import type { Params } from '../params.ts';
import type { UpdateQueue } from '../update-queue.ts';
import type { World } from '../world.ts';

/** Behaviour switches of the fake bot account. */
export interface BotSettings {
  /** Privacy mode: in groups the bot only sees commands, replies to it and mentions of it. */
  readonly groupPrivacy: boolean;
  /** Whether the bot is an administrator in groups, which lets it delete other people's messages. */
  readonly botIsGroupAdmin: boolean;
}

/** Everything a Bot API method handler may read or change. */
export interface MethodContext {
  readonly params: Params;
  readonly world: World;
  readonly updates: UpdateQueue;
  readonly state: BotState;
  readonly settings: BotSettings;
  /** Aborted when the client closes the connection. */
  readonly signal: AbortSignal;
}

/** Returns the method's `result`, or throws ApiError. */
export type MethodHandler = (ctx: MethodContext) => unknown;
