import { interrupted, type Interrupt } from '../../services/telemetry/metrics-sessions.ts';
import type { Adapter } from '../../engine/adapters/load.ts';
import type { EngineSettings } from '../../engine/engine-settings.ts';
import type { DefaultModes } from './default-modes.ts';
import type { Settings } from '../../kernel/settings/bridge-manifest.ts';
import type { TurnOptions } from '../../engine/adapters/turn-options.ts';
import { AgentSession } from '../../engine/session/session.ts';
import { type LiveProcess, type SessionConfig, type SessionOptions } from '../../engine/session/session-config.ts';
import { type Stopped } from '../../engine/session/turn-controls.ts';
import type { LivePool } from '../../engine/session/live-pool.ts';
import type { LiveLaunch, PermissionAnswerer, PermissionRequest } from '../../engine/session/live-cli.ts';
import type { PermissionDecision } from '../../kernel/protocols/events.ts';
import { effectiveMode } from '../../engine/adapters/permissions.ts';
import { canRunLive } from '../../engine/adapters/live.ts';
import type { PermissionMode } from '../../kernel/policy/permission-mode.ts';
import type { BusyMode } from '../../kernel/policy/busy-mode.ts';
import { dataDirDenials } from '../../kernel/policy/data-dir-rules.ts';
import type { ChatRecord, ChatStore, OutsideSource, OutsideText, SessionEntry } from '../../kernel/store/chat-store.ts';
import { outgrows, withSource } from './outside-text.ts';
import { ChatMessages } from './chat-messages.ts';
import type { ChatRef } from '../../kernel/ports/chat.ts';
import type { CurrentTurn } from './current-turn.ts';
import { ChatGrants } from './chat-grants.ts';
import { withTurn } from './resume-list.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { writtenHostRules } from '../../engine/sandbox/host-rules.ts';
import type { HostQuestion } from '../../engine/sandbox/egress-decision.ts';
import { modelApiBase } from '../../engine/sandbox/model-api-access.ts';
import type { GrantHolder } from '../../work/approvals/session-grants.ts';
import { cannotHonour, rulesCovering, type ApprovalRule } from '../../kernel/policy/approval-rules.ts';
import type { FallbackChain } from '../../engine/fallback/chain.ts';
import { noted, TurnWatcher } from '../../engine/fallback/work-notes.ts';
import type { TurnOutcome } from '../../engine/session/running-turn.ts';
import { chatHandover } from '../../engine/fallback/chat-handover.ts';

/** The slice of the configuration chats' sessions run on. */
export type ChatConfig = Pick<EngineSettings, 'adapters' | 'defaultCli' | 'workdir' | 'projectRoots' | 'offLimits' | 'cliEnv' | 'dataDir' | 'fallback'> &
  DefaultModes & {
    approvalRules?: ApprovalRule[];
    settings: Pick<Settings, 'stopGraceMs'>;
  };

/** Answers a live CLI's permission requests for the chat (by its mode; questions and plans as buttons). */
export type ChatPermissions = (chat: ChatSession, request: PermissionRequest, turn: Parameters<PermissionAnswerer>[1]) => Promise<PermissionDecision>;

/** What every chat's session is built from, beside its record. */
export interface ChatParts {
  config: ChatConfig;
  store: ChatStore;
  /** What the tools part adds to each main session: the MCP endpoint, and a word about it. */
  tools: (chat: ChatSession) => Pick<TurnOptions, 'mcp' | 'systemPrompt'>;
  /** The session is closed (a new one starts): the secret its tools were granted stops working now, not at the next turn. */
  revokeTools?: (chat: ChatSession) => void;
  /** What its turns read afresh each time: whether its directory is trusted, and the agents its CLI's Task tool may delegate to. */
  fresh: (chat: ChatSession) => Promise<Pick<SessionOptions, 'agents' | 'trusted'>>;
  /** Keep CLIs between turns within this bound (absent: one process per turn). */
  live?: LivePool;
  /** Where a chat's kept CLI runs, when not in this process (a worker: BRIDGE_SESSION_WORKERS). */
  liveProcess?: (chat: ChatSession, launch: LiveLaunch, answer: PermissionAnswerer) => LiveProcess;
  permissions?: ChatPermissions;
  /** Its sandbox refused a host: once per host and process. */
  onBlocked?: (chat: ChatSession, host: string, why: string) => void;
  /** Who is asked about a host not on its list, once the address it resolves to is known (in `ask`), or undefined (refused at once). */
  askHost?: (chat: ChatSession, host: string, port: number) => HostQuestion | undefined;
  /** Says a line in the chat: which CLI took over when a limit stopped its own (none: turns a limit stops end so). */
  tell?: (chat: ChatSession, text: string) => Promise<void>;
  /** What a CLI lacks to work (its credentials), in one line, asked before each turn (none: nothing is asked). */
  lacks?: SessionConfig['lacks'];
  log: Log;
}

/**
 * One chat's (or topic's) main agent session and what is persisted about it. The CLI
 * session id is saved the moment the CLI names it, so a restart resumes the conversation.
 */
export class ChatSession {
  private agentSession: AgentSession | undefined;
  /** The turn now at work. */
  current: CurrentTurn | undefined;
  /** What the session was given (its tools' secret, "Allow for this session"), and under what. */
  readonly grants: ChatGrants<ReturnType<ChatParts['tools']>>;
  /** What the chat has taken and still owes: pending messages, the ids taken, commands begun, albums gathering, files waiting for words. */
  readonly messages: ChatMessages;
  /** What the turn at work has done so far (its tools, the call in flight): for a brief, should a limit stop its CLI; each turn watches afresh. */
  watcher = new TurnWatcher();

  constructor(
    readonly address: ChatRef,
    public record: ChatRecord,
    private readonly parts: ChatParts,
  ) {
    this.grants = new ChatGrants(() => parts.revokeTools?.(this));
    this.messages = new ChatMessages(
      () => this.record,
      (patch) => this.save(patch),
    );
  }

  get adapter(): Adapter {
    return this.parts.config.adapters.get(this.record.cli) ?? this.parts.config.adapters.get(this.parts.config.defaultCli)!;
  }

  /** Where its CLI's model API is, as a turn that gets no answer from it names it. */
  get modelApi(): string | undefined {
    const access = this.adapter.walls.modelApi;
    return access && modelApiBase(access, this.parts.config.cliEnv);
  }

  /** The mode the chat chose, or the bridge's default. */
  get permissionMode(): PermissionMode {
    return this.record.permissionMode ?? this.parts.config.permissionMode;
  }

  /** What its CLI runs with: `ask` on a CLI that cannot ask runs read-only. */
  get effectivePermissionMode(): PermissionMode {
    return effectiveMode(this.adapter, this.permissionMode, { live: this.agent.runsLive });
  }

  /** The rules of the tool policy this chat's turns could meet (none when it only reads). */
  get approvalRules(): ApprovalRule[] {
    return rulesCovering(this.parts.config.approvalRules ?? [], { readOnly: this.effectivePermissionMode === 'safe' });
  }

  /**
   * Why the chat's turns may not run on its CLI: a rule of the tool policy needs people to
   * approve some calls, and in `bypass` a CLI the bridge keeps no control channel with (droid)
   * would run them unseen. (`ask` on such a CLI only reads; a live CLI asks about each call.)
   */
  ruleRefusal(): string | undefined {
    const rules = this.approvalRules;
    if (!rules.length || this.agent.runsLive || this.effectivePermissionMode !== 'bypass') return undefined;
    return `${cannotHonour(this.adapter.name, rules[0]!, `this turn was not run on ${this.adapter.name}`)} ${this.ruleWayOut()}`;
  }

  /** What lets the chat work when its CLI cannot honour the rules: a CLI that asks before each call (kept live), or reading only. */
  ruleWayOut(): string {
    const asking = [...this.parts.config.adapters.values()].filter(canRunLive).map((adapter) => `/cli ${adapter.name}`);
    return `${asking.length ? `${asking.join(' or ')}, or /permissions safe,` : '/permissions safe'} lets the chat work.`;
  }

  /** The chat's one agent session (sessionConfig: what it runs with is read at each turn). */
  get agent(): AgentSession {
    this.agentSession ??= new AgentSession(sessionConfig(this, this.parts));
    return this.agentSession;
  }

  /**
   * Whom "Allow for this session" covers in the turn at work: the person who typed it, under
   * the chat's settings as they are now. None for a turn no person typed (a webhook, a
   * schedule, an API client, a run's result): it uses no grant and is offered none.
   */
  turnGrantHolder(): GrantHolder | undefined {
    const person = this.current?.by;
    if (!person) return undefined;
    const settings = JSON.stringify([this.grants.epoch, this.effectivePermissionMode, this.record.cli, this.record.workdir, this.record.model ?? '']);
    return { person, settings };
  }

  /** Everything a turn runs with beyond its prompt, as the chat is set now. */
  async turnOptions(): Promise<SessionOptions> {
    const mode = this.effectivePermissionMode;
    return {
      model: this.record.model,
      // Reading without asking (safe, ask) stops at the data directory, where the CLI can be told so.
      ...(mode !== 'bypass' && this.adapter.options.disallowedTools ? { disallowedTools: dataDirDenials(this.parts.config.dataDir) } : {}),
      ...this.grants.tools(this.grantKey(), () => this.parts.tools(this)),
      ...(await this.parts.fresh(this)),
    };
  }

  /** What the session's tools were granted for: a change of it is a new secret. */
  private grantKey(): string {
    return JSON.stringify([this.effectivePermissionMode, this.adapter.name, this.record.workdir]);
  }

  get busy(): boolean {
    return this.agentSession?.busy ?? false;
  }

  get queued(): number {
    return this.agentSession?.queued ?? 0;
  }

  /** A fresh CLI session on the next turn, with a new MCP secret (the old one stops working). */
  async reset(): Promise<void> {
    this.agentSession?.reset();
    this.grants.endSession(true);
    // A new session has no work to brief on, nor one to go back to once a limit resets.
    await this.save({ cliSessionId: undefined, outsideText: undefined, home: undefined, work: undefined });
  }

  /** Text from outside the chat's people went into the current session: it keeps that for good (see OutsideText). */
  async noteOutsideText(source: OutsideSource): Promise<void> {
    await this.save({ outsideText: withSource(this.record.outsideText, source) });
  }

  /** What outside text a session of this chat holds (the current one, or one /resume lists). */
  outsideTextOf(sessionId: string): OutsideText | undefined {
    if (sessionId === this.record.cliSessionId) return this.record.outsideText;
    return this.record.sessions?.find((entry) => entry.id === sessionId)?.outsideText;
  }

  /**
   * The current session holds outside text whose sender may do less than the chat's mode now
   * allows (it was loosened, or the bridge's default was): the next turn starts a new session.
   * Returns what the old one held, for the chat to be told; undefined when nothing changed.
   */
  async leaveOutgrownSession(): Promise<OutsideText | undefined> {
    const outside = this.record.outsideText;
    if (!this.outgrown) return undefined;
    await this.reset();
    return outside;
  }

  /** Whether the current session holds outside text whose sender may do less than the chat's mode now allows. */
  get outgrown(): boolean {
    return outgrows(this.record.outsideText, this.effectivePermissionMode);
  }

  /**
   * Changes what the next turn runs with. A new CLI or directory starts a fresh session (one
   * CLI cannot resume another's); a new model or permission mode continues the conversation,
   * unless the mode now allows more than outside text in it may do: then a fresh session
   * starts too, and what the old one held is returned for the chat to be told.
   */
  async change(patch: Pick<Partial<ChatRecord>, 'cli' | 'model' | 'workdir' | 'permissionMode'>): Promise<OutsideText | undefined> {
    const fresh = (patch.cli !== undefined && patch.cli !== this.record.cli) || (patch.workdir !== undefined && patch.workdir !== this.record.workdir);
    if (fresh) this.agentSession?.reset();
    // `model: undefined` is a change too (back to the CLI's default).
    if ((Object.keys(patch) as (keyof typeof patch)[]).some((field) => patch[field] !== this.record[field])) this.grants.settingChanged();
    // A CLI chosen by hand: the session a limit moved away from is not gone back to.
    const chosen = patch.cli !== undefined && patch.cli !== this.record.cli ? { home: undefined, work: undefined } : {};
    await this.save(fresh ? { ...patch, ...chosen, cliSessionId: undefined, outsideText: undefined } : patch);
    // The secret given for the old mode, CLI or directory stops working now, not at the next turn (a running turn keeps it till then).
    if (!this.busy) this.grants.revokeUnlessFor(this.grantKey());
    return this.leaveOutgrownSession();
  }

  /** The CLIs its turns go on in when a limit stops theirs: the chat's /fallback, else BRIDGE_FALLBACK; none: they wait. */
  get fallbackChain(): FallbackChain | undefined {
    const chosen = this.record.fallback;
    return chosen === 'off' ? undefined : (chosen ?? this.parts.config.fallback);
  }

  knowsCli(cli: string): boolean {
    return this.parts.config.adapters.has(cli);
  }

  get knownClis(): string[] {
    return [...this.parts.config.adapters.keys()];
  }

  /** A turn ended: its answer in the notes of the CLI's work (the brief another CLI gets), as the patch its end writes. */
  workNoted(prompt: string, outcome: TurnOutcome): Pick<ChatRecord, 'work'> {
    if (outcome.status !== 'completed') return {};
    const notes = this.record.work?.cli === this.record.cli ? this.record.work : { cli: this.record.cli, answers: [], files: [] };
    return { work: noted(notes, prompt, outcome.text, this.watcher.files) };
  }

  /**
   * The session moves to `cli` (a limit stopped its own, or one that stopped is back),
   * continuing `sessionId` there or a fresh one: the agent session continues from it itself.
   * What the old CLI's tools were granted stops working; outside text the session held goes
   * with the brief, so it stays marked.
   */
  async switchCli(cli: string, sessionId: string | undefined, patch: Pick<Partial<ChatRecord>, 'home' | 'limited' | 'work'>): Promise<void> {
    this.grants.endSession(true);
    await this.save({ ...patch, cli, cliSessionId: sessionId });
    this.current?.presenter.retitle(cli);
  }

  /** What a message sent while the agent works does (/busy). */
  get busyMode(): BusyMode {
    return this.record.busyMode ?? this.parts.config.busyMode;
  }

  /**
   * Saves a setting the next turns read (see ChatRecord): /busy, /net (read at each
   * connection), /plan, /fallback, /handoff, the CLIs a limit stopped, the CLI session a turn
   * named.
   */
  async set(setting: Pick<Partial<ChatRecord>, 'busyMode' | 'netAllow' | 'planning' | 'fallback' | 'showHandoff' | 'limited' | 'cliSessionId'>): Promise<void> {
    await this.save(setting);
  }

  /** Closes the live CLI process (it resumes on the next message): the session then has one writer, a terminal. */
  async closeLive(): Promise<void> {
    await this.agentSession?.closeLive();
  }

  /** Continues a session found by /resume: its CLI, in its directory, from the next message on. */
  async resume(entry: Pick<SessionEntry, 'id' | 'cli' | 'workdir'>): Promise<void> {
    this.agentSession?.continueFrom(entry.id);
    this.grants.endSession(false);
    await this.save({ cli: entry.cli, workdir: entry.workdir, cliSessionId: entry.id, outsideText: this.outsideTextOf(entry.id) });
  }

  /** A turn ended in a session: remembered for /resume. */
  async noteTurn(prompt: string, sessionId: string | undefined, answered: boolean): Promise<void> {
    if (sessionId) await this.save({ sessions: withTurn(this.record, prompt, sessionId, answered) });
  }

  /** `why`: what cut the turn short, for the metrics (a person's Stop by default). */
  async stop(reason: string, options: { keepQueued?: boolean; why?: Interrupt } = {}): Promise<Stopped> {
    const stopped = (await this.agentSession?.stop(reason, options)) ?? { running: false, dropped: 0 };
    if (stopped.running) interrupted(this.record.cli, options.why ?? 'stop');
    return stopped;
  }

  /** Keeps the chat's record from its first message on (the bridge knows it can write here), and its title as it changes. */
  async remember(title?: string): Promise<void> {
    const named = title && title !== this.record.title ? { title } : undefined;
    if (named || !this.parts.store.get(this.record.key)) await this.save(named ?? {});
  }

  private async save(patch: Partial<ChatRecord>): Promise<void> {
    this.record = { ...this.record, ...patch };
    await this.parts.store.put(this.record).catch((error: Error) => this.parts.log.error({ chat: this.record.key, err: error }, 'saving the chat failed'));
  }
}

/**
 * The chat's one agent session's configuration. What it runs with is read from the chat at
 * each turn, so a change (a model, a mode, a directory) applies from the next turn on: a live
 * CLI whose command line it changes is restarted once the running turn ends, resuming the
 * session.
 */
function sessionConfig(chat: ChatSession, parts: ChatParts): SessionConfig {
  const { live, permissions, config } = parts;
  return {
    get adapter() {
      return chat.adapter;
    },
    get cwd() {
      return chat.record.workdir;
    },
    get permissions() {
      const mode = chat.effectivePermissionMode;
      return mode === 'bypass' ? undefined : mode;
    },
    get watched() {
      return chat.approvalRules.length > 0;
    },
    refusal: () => chat.ruleRefusal(),
    lacks: parts.lacks,
    env: config.cliEnv,
    // The chat's own home in its walls; in `safe` its directory is read-only there too.
    get walls() {
      return {
        home: chat.record.key,
        readOnly: chat.effectivePermissionMode === 'safe',
        egress: {
          allow: () => [...writtenHostRules(chat.record.netAllow), ...chat.grants.hostRules],
          onBlocked: (host: string, why: string) => parts.onBlocked?.(chat, host, why),
          ask: (host: string, port: number) => parts.askHost?.(chat, host, port),
        },
      };
    },
    freshOptions: () => chat.turnOptions(),
    log: parts.log.child({ chat: chat.record.key }),
    resumeId: chat.record.cliSessionId,
    graceMs: config.settings.stopGraceMs,
    // Remembered the moment the CLI names it, for the next turn and the next start.
    onResumeId: (id) => void chat.set({ cliSessionId: id }),
    live,
    ...(parts.liveProcess ? { liveProcess: (launch, answer) => parts.liveProcess!(chat, launch, answer) } : {}),
    ...(permissions ? { onPermission: (request, turn) => permissions(chat, request, turn) } : {}),
    ...(parts.tell ? { handover: chatHandover(chat, (text) => parts.tell!(chat, text)) } : {}),
  };
}
