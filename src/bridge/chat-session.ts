import type { Adapter } from '../adapters/load.ts';
import type { BridgeConfig } from '../config/config.ts';
import type { Settings } from '../config/bridge-manifest.ts';
import type { TurnOptions } from '../adapters/turn-options.ts';
import { AgentSession, type SessionOptions } from '../session/session.ts';
import { effectiveMode } from '../adapters/permissions.ts';
import type { PermissionMode } from '../policy/permission-mode.ts';
import { dataDirDenials } from '../policy/data-dir-rules.ts';
import type { ChatRecord, ChatStore, PendingMessage, SessionEntry } from '../store/chat-store.ts';
import type { ChatRef } from '../ports/transport.ts';
import type { TurnPresenter } from './turn-presenter.ts';
import type { Log } from '../log/logger.ts';

/** Sessions a chat remembers for /resume. */
const SESSIONS_KEPT = 20;

/** The slice of the configuration chats' sessions run on. */
export type ChatConfig = Pick<BridgeConfig, 'adapters' | 'defaultCli' | 'workdir' | 'projectRoots' | 'cliEnv' | 'permissionMode' | 'dataDir'> & {
  settings: Pick<Settings, 'stopGraceMs'>;
};

/** What the tools part adds to a chat's main session: the MCP endpoint, and a word about it. */
export type SessionTools = (chat: ChatSession) => Pick<TurnOptions, 'mcp' | 'systemPrompt'>;
/** What a chat's turns read afresh each time: whether its directory is trusted, and the agents its CLI's Task tool may delegate to. */
export type FreshSessionOptions = (chat: ChatSession) => Promise<Pick<SessionOptions, 'agents' | 'trusted'>>;

/**
 * One chat's (or topic's) main agent session and what is persisted about it. The CLI
 * session id is saved the moment the CLI names it, so a restart resumes the conversation.
 */
export class ChatSession {
  private agentSession: AgentSession | undefined;
  /** The presenter of the turn now running, for the Stop button and /status. */
  current: { id: string; presenter: TurnPresenter; startedAt: number } | undefined;

  constructor(
    readonly address: ChatRef,
    public record: ChatRecord,
    private readonly config: ChatConfig,
    private readonly store: ChatStore,
    private readonly tools: SessionTools,
    private readonly fresh: FreshSessionOptions,
    private readonly log: Log,
  ) {}

  get adapter(): Adapter {
    return this.config.adapters.get(this.record.cli) ?? this.config.adapters.get(this.config.defaultCli)!;
  }

  /** The mode the chat chose, or the bridge's default. */
  get permissionMode(): PermissionMode {
    return this.record.permissionMode ?? this.config.permissionMode;
  }

  /** What its CLI runs with: `ask` on a CLI that cannot ask runs read-only. */
  get effectivePermissionMode(): PermissionMode {
    return effectiveMode(this.adapter, this.permissionMode);
  }

  get agent(): AgentSession {
    const mode = this.effectivePermissionMode;
    this.agentSession ??= new AgentSession({
      adapter: this.adapter,
      cwd: this.record.workdir,
      env: this.config.cliEnv,
      options: {
        ...(this.record.model ? { model: this.record.model } : {}),
        // Reading without asking (safe, ask) stops at the data directory, where the CLI can be told so.
        ...(mode !== 'bypass' && this.adapter.options.disallowedTools ? { disallowedTools: dataDirDenials(this.config.dataDir) } : {}),
        ...this.tools(this),
      },
      freshOptions: () => this.fresh(this),
      log: this.log.child({ chat: this.record.key }),
      resumeId: this.record.cliSessionId,
      ...(mode === 'bypass' ? {} : { permissions: mode }),
      graceMs: this.config.settings.stopGraceMs,
      onResumeId: (id) => void this.save({ cliSessionId: id }),
    });
    return this.agentSession;
  }

  get busy(): boolean {
    return this.agentSession?.busy ?? false;
  }

  get queued(): number {
    return this.agentSession?.queued ?? 0;
  }

  /** A fresh CLI session on the next turn. */
  async reset(): Promise<void> {
    this.agentSession = undefined;
    await this.save({ cliSessionId: undefined });
  }

  /**
   * Changes what the next turn runs with. A new CLI or directory starts a fresh session (one
   * CLI cannot resume another's); a new model or permission mode continues the conversation.
   */
  async change(patch: Pick<Partial<ChatRecord>, 'cli' | 'model' | 'workdir' | 'permissionMode'>): Promise<void> {
    const fresh = (patch.cli !== undefined && patch.cli !== this.record.cli) || (patch.workdir !== undefined && patch.workdir !== this.record.workdir);
    this.agentSession = undefined;
    await this.save(fresh ? { ...patch, cliSessionId: undefined } : patch);
  }

  /** Whether every answer ends with the terminal command that continues the session (`/handoff on|off`). */
  async showHandoff(on: boolean): Promise<void> {
    await this.save({ showHandoff: on });
  }

  /** Continues a session found by /resume: its CLI, in its directory, from the next message on. */
  async resume(entry: Pick<SessionEntry, 'id' | 'cli' | 'workdir'>): Promise<void> {
    this.agentSession = undefined;
    await this.save({ cli: entry.cli, workdir: entry.workdir, cliSessionId: entry.id });
  }

  /** A turn ended in a session: remembered (first prompt, turns, when) for /resume, the newest few only. */
  async noteTurn(prompt: string, sessionId: string | undefined): Promise<void> {
    if (!sessionId) return;
    const now = Date.now();
    const sessions = [...(this.record.sessions ?? [])];
    const index = sessions.findIndex((entry) => entry.id === sessionId);
    const known = index >= 0 ? sessions.splice(index, 1)[0]! : undefined;
    const entry: SessionEntry = known
      ? { ...known, turns: known.turns + 1, lastAt: now }
      : { id: sessionId, cli: this.record.cli, workdir: this.record.workdir, firstPrompt: prompt.slice(0, 200), startedAt: now, lastAt: now, turns: 1 };
    await this.save({ sessions: [...sessions, entry].slice(-SESSIONS_KEPT) });
  }

  async stop(reason: string): Promise<number> {
    return (await this.agentSession?.stop(reason)) ?? 0;
  }

  async addPending(message: PendingMessage): Promise<void> {
    await this.save({ pending: [...(this.record.pending ?? []), message] });
  }

  async removePending(id: string): Promise<void> {
    await this.save({ pending: (this.record.pending ?? []).filter((p) => p.id !== id) });
  }

  /** Keeps the chat's record from its first message on: the bridge knows it can write here. */
  async remember(): Promise<void> {
    if (!this.store.get(this.record.key)) await this.save({});
  }

  private async save(patch: Partial<ChatRecord>): Promise<void> {
    this.record = { ...this.record, ...patch };
    await this.store.put(this.record).catch((error: Error) => this.log.error({ chat: this.record.key, err: error }, 'saving the chat failed'));
  }
}
