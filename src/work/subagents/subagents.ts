import { rm } from 'node:fs/promises';
import { removeWorktree } from '../../engine/worktrees/index.ts';
import type { Settings } from '../../kernel/settings/bridge-manifest.ts';
import type { EngineSettings } from '../../engine/engine-settings.ts';
import type { RestartSettings } from '../restart-settings.ts';
import type { ApprovalRule } from '../../kernel/policy/approval-rules.ts';
import { decoders, type AgentEvent } from '../../kernel/protocols/index.ts';
import { LineDecoder } from '../../kernel/protocols/line-decoder.ts';
import { parseLine } from '../../engine/process/lines.ts';
import type { AuditLog } from '../../kernel/audit/audit-log.ts';
import { isActive, type SubagentRunRecord } from './record.ts';
import { SubagentRegistry, type RegistryOptions } from './registry.ts';
import { RunExecutor, type RunExecutorOptions } from './run-executor.ts';
import { readRotated } from './run-log.ts';
import type { RunStore } from './run-store.ts';
import { Spawner, type SpawnerOptions } from './spawner.ts';
import { every } from '../../kernel/concurrency/periodic.ts';
import type { Log } from '../../kernel/log/logger.ts';

/** The slice of the configuration the subagent part runs on. */
export type SubagentConfig = Pick<EngineSettings, 'adapters' | 'cliEnv' | 'dataDir'> &
  Partial<Pick<EngineSettings, 'prices'>> & {
    restart: RestartSettings;
    approvalRules?: ApprovalRule[];
    settings: Pick<Settings, 'subagents' | 'stopGraceMs' | 'approvalTimeoutSeconds'> & Partial<Pick<Settings, 'silenceSeconds'>>;
  };

/** What the part is built on: the configuration, the runs' store and audit trail, and what its executor, registry and spawner are handed (see theirs). */
export type SubagentsOptions = Pick<RunExecutorOptions, 'toolsFor' | 'permissions' | 'remote' | 'fallback' | 'tell'> &
  Pick<RegistryOptions, 'onBlocked' | 'onStuck'> &
  Pick<SpawnerOptions, 'refuseWork' | 'costs' | 'chatMode' | 'netAllow' | 'lacks' | 'agents' | 'trusts'> & {
    config: SubagentConfig;
    store: RunStore;
    audit: AuditLog;
    log: Log;
  };

/** The subagent part: the registry, the one way to spawn into it, and the sweep of ended runs. */
export class Subagents {
  readonly store: RunStore;
  readonly registry: SubagentRegistry;
  readonly spawner: Spawner;
  readonly audit: AuditLog;
  private readonly endListeners: ((run: SubagentRunRecord) => void)[] = [];
  private readonly startListeners: ((run: SubagentRunRecord) => void)[] = [];
  private sweeping: { stop: () => void } | undefined;

  constructor(private readonly options: SubagentsOptions) {
    const { config, store, audit } = options;
    this.store = store;
    this.audit = audit;
    // The store, audit trail, log and what runs tell (onBlocked, onStuck) are the part's own.
    this.registry = new SubagentRegistry({
      ...options,
      // So are its executor's tools, permissions, fallback, workers and log.
      executor: new RunExecutor({ ...config, ...options }),
      onEnded: (run) => this.endListeners.forEach((listener) => listener(run)),
      onStarted: (run) => this.startListeners.forEach((listener) => listener(run)),
    });
    // Whether work is refused, what it costs, the chat's mode and hosts, what a CLI lacks, the agents and trust: as given.
    this.spawner = new Spawner({ ...options, ...config, registry: this.registry, limits: config.settings.subagents });
  }

  /** Called as every run starts. */
  onStarted(listener: (run: SubagentRunRecord) => void): void {
    this.startListeners.push(listener);
  }

  /** Called once for every run that ends, after its record is saved (the outbox, approvals and orchestrations follow runs this way). */
  onEnded(listener: (run: SubagentRunRecord) => void): void {
    this.endListeners.push(listener);
  }

  /** Recovers what a previous bridge left (interrupted, queued), then runs and sweeps. */
  async start(sweepIntervalMs = 60_000): Promise<{ interrupted: number; requeued: number }> {
    const recovered = await this.registry.recover();
    this.sweeping = every(
      sweepIntervalMs,
      () => this.sweep(),
      (error) => this.options.log.error({ err: error }, 'sweeping finished runs failed'),
    );
    return recovered;
  }

  /**
   * Keeps the live store small: ended, fully announced runs move to the archive once their
   * retention is over, and the archive keeps only the newest runs of each chat (their logs
   * go with the ones dropped).
   */
  async sweep(now = Date.now()): Promise<{ archived: number; dropped: number }> {
    const due = this.store.all().filter((run) => !isActive(run) && run.archiveAfter !== undefined && run.archiveAfter <= now);
    if (!due.length) return { archived: 0, dropped: 0 };
    // Worktrees of finished runs go with them, unless their branch holds unmerged commits.
    for (const [index, run] of due.entries()) {
      if (!run.worktree || run.worktree.removed) continue;
      const result = await removeWorktree(run.worktree).catch((error: Error) => ({ removed: false, reason: error.message }));
      due[index] = { ...run, worktree: { ...run.worktree, removed: result.removed, ...(result.reason ? { kept: result.reason } : {}) } };
      if (!result.removed) this.options.log.warn({ run: run.runId }, `kept the run's worktree: ${result.reason}`);
    }
    await this.store.archive(due);
    const dropped = await this.store.trimArchive(this.options.config.settings.subagents.historyPerChat);
    await Promise.all(dropped.flatMap((run) => [rm(run.logFile, { force: true }), rm(`${run.logFile}.1`, { force: true })]));
    return { archived: due.length, dropped: dropped.length };
  }

  /** Resolves once no run is queued or running (scripts, tests). */
  async idle(): Promise<void> {
    while (!this.isIdle()) await new Promise((resolve) => setTimeout(resolve, 100));
  }

  isIdle(): boolean {
    return !this.store.all().some(isActive);
  }

  async shutdown(): Promise<void> {
    this.sweeping?.stop();
    await this.registry.shutdown();
  }

  /** The events of one of the run's log lines, decoded in its CLI's protocol (a decoder for the run's lines, in order). */
  lineDecoder(run: SubagentRunRecord): (raw: string) => AgentEvent[] {
    const adapter = this.options.config.adapters.get(run.cli);
    const decoder = new LineDecoder(decoders[adapter?.protocol ?? 'claude-stream-json']!);
    return (raw) => {
      const line = parseLine(raw);
      return line ? decoder.decode(line.raw, line.json) : [];
    };
  }

  /** The run's decoded log, for /subagents log. */
  async events(run: SubagentRunRecord): Promise<AgentEvent[]> {
    return (await readRotated(run.logFile)).flatMap(this.lineDecoder(run));
  }
}
