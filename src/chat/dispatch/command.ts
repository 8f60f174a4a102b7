import type { Role } from '../people/roles.ts';
import type { Allowlist } from '../people/allowlist.ts';
import { chatKey, type RichText, type MessageRef, type SendOptions, type IncomingMessage, type Outbound } from '../../kernel/ports/chat.ts';
import type { WireButton } from '../../kernel/ports/buttons.ts';
import type { ChatSession } from '../session/chat-session.ts';
import type { ChatSessions } from '../session/chat-sessions.ts';
import type { Attachments } from '../session/attachments.ts';
import type { EngineSettings } from '../../engine/engine-settings.ts';
import type { PeopleSettings } from '../people/people-settings.ts';
import type { Settings } from '../../kernel/settings/bridge-manifest.ts';
import type { CommandServices } from './command-services.ts';
import type { SpawnOrigin } from '../../work/subagents/spawner.ts';

/** What a command may ask of the bot that runs it. */
export interface CommandHost {
  readonly config: Pick<EngineSettings, 'adapters' | 'projectRoots' | 'offLimits' | 'projects' | 'dataDir' | 'cliEnv' | 'agentUser' | 'sandbox'> &
    Pick<PeopleSettings, 'owners' | 'admins' | 'allowedUsers' | 'groupTurns'>;
  readonly out: Outbound;
  readonly chats: Pick<ChatSessions, 'get' | 'active'>;
  /** Every command, in the order /help lists them. */
  readonly commands: readonly Command[];
  /** Files people sent: those waiting for a user's next message, and saving a replied-to message's. */
  readonly attachments: Pick<Attachments, 'take' | 'save'>;
  /** What an allowed person is here (an owner, an admin or a member), and whether an owner. */
  readonly allowlist: Pick<Allowlist, 'roleOf' | 'isOwner'>;
}

/** What every part of a command (its handler, its buttons, its /stop and /status hooks) is given. */
export interface CommandScope {
  bot: CommandHost;
  /** The parts of the bridge beyond the chat's own session: subagents, orchestrations, agents, trust, usage. */
  services: CommandServices;
}

export interface CommandContext extends CommandScope {
  chat: ChatSession;
  message: IncomingMessage;
  /** What follows the command word. */
  args: string;
  reply: (text: RichText, options?: SendOptions) => Promise<MessageRef>;
  /** Aborted when the command passes its deadline: work that can stop (streams, archives) stops. */
  signal: AbortSignal;
}

/**
 * A slash command, whole: what /help and the transport's command menu show of it, who may use
 * it, its handler, and what it adds to the chat besides (buttons on its replies, a line in
 * /stop's report, rows in /status). `manifest.json`'s `commands` are generated from these.
 */
export interface Command {
  /** The command word, without the slash: lowercase letters, digits and _, at most 32. */
  readonly name: string;
  /** One line for the command menu (at most 256 characters). */
  readonly description: string;
  readonly usage: string;
  /**
   * Who may use it, for every use or by what it is asked (a command anyone may read with, that
   * only the owner may change with); none: every member. Everyone else is refused before the handler runs.
   */
  readonly access?: Role | ((args: string) => Role);
  /**
   * It starts work for an agent (a run, a plan, a message to a run), always or by what it is
   * asked: in a group where only the people named with /allow start turns, the others are refused it.
   */
  readonly startsWork?: boolean | ((args: string) => boolean);
  /**
   * What became of a use of it a restart cut short, found by the message that asked for it
   * (`messageKey`, kept with what it made): its work is there, or is not (it is then carried out
   * again, once), or cannot be known (the chat is told what is known). None: cannot be known.
   */
  readonly effectOf?: (key: string, args: string, scope: CommandScope) => CommandEffect | undefined;
  /** Its own deadline, for a command whose work may rightly take longer than `commandTimeoutSeconds` (zipping a directory). */
  readonly timeoutSeconds?: (settings: Pick<Settings, 'fileTransferTimeoutSeconds'>) => number;
  /** Carries it out; what it returns is its answer, sent in reply to the message that asked (none: it answered itself, or needs none). */
  run(ctx: CommandContext): Promise<RichText | void>;
  /** Routes the presses of the buttons its replies carry, through `on` (the bot's). */
  buttons?(on: WireButton, scope: CommandScope): void;
  /**
   * What else /stop stops for it in this chat; a line for /stop's report when it stopped something.
   * `onlyOf`: a member's /stop, which stops the turn but, of the chat's work, only theirs (`<transport>:<id>`).
   */
  stop?(chat: ChatSession, reason: string, scope: CommandScope, onlyOf?: string): Promise<string | undefined>;
  /** Rows it adds to /status. */
  status?(chat: ChatSession, scope: CommandScope): Promise<[string, string][]>;
}

/** What became of a command a restart cut short (see `Command.effectOf`). */
export type CommandEffect = { kind: 'done' } | { kind: 'none' } | { kind: 'unknown'; said: string };

/**
 * The key of the message that asked for some work (`<chat>#<message id>`), kept with what it
 * made, so a command carried out again after a restart finds its work and makes none twice.
 */
export function messageKey(message: Pick<IncomingMessage, 'address' | 'messageId'>): string | undefined {
  return message.messageId === undefined ? undefined : `${chatKey(message.address)}#${message.messageId}`;
}

/** Where work a person starts with a command comes from: their chat, its directory and CLI, and the message that asked (a restart carries it out once). */
export function commandOrigin(
  ctx: Pick<CommandContext, 'chat' | 'message'>,
): Pick<SpawnOrigin, 'address' | 'requester' | 'cwd' | 'cli' | 'depth' | 'fromMessage'> {
  const { user } = ctx.message;
  return {
    address: ctx.chat.address,
    requester: { kind: 'user', userId: user.id, ...(user.name ? { name: user.name } : {}) },
    cwd: ctx.chat.record.workdir,
    cli: ctx.chat.record.cli,
    depth: 0,
    fromMessage: messageKey(ctx.message),
  };
}

/** A wrong use of a command: answered with this message and the command's usage. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** What `parse` reads from a command's words; its own error (`kind`) is a wrong use, answered with its message (after `said`). */
export function parsed<T>(kind: abstract new (...args: never[]) => Error, parse: () => T, said = ''): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof kind) throw new UsageError(`${said}${error.message}`);
    throw error;
  }
}

/** Commands that change what the next turn runs with wait for the running one. */
export function refuseWhileBusy(chat: ChatSession): void {
  if (chat.busy) throw new UsageError('A turn is running. /stop it first, or wait for it to end.');
}

/** The role a command needs, and whether it starts work for an agent, asked with these arguments. */
export function askedWith(command: Pick<Command, 'access' | 'startsWork'>, args: string): { access: Role; startsWork: boolean } {
  const { access = 'member', startsWork = false } = command;
  return { access: typeof access === 'function' ? access(args) : access, startsWork: typeof startsWork === 'function' ? startsWork(args) : startsWork };
}
