import type { Outbound } from '../chat/transport.ts';
import type { BridgeConfig } from '../config/config.ts';
import { decoders, type AgentEvent } from '../protocols/index.ts';
import { LineDecoder } from '../protocols/line-decoder.ts';
import { parseLine } from '../process/lines.ts';
import { AuditLog } from '../audit/audit-log.ts';
import { ApprovalBroker } from '../policy/approvals.ts';
import { Announcer } from './announcer.ts';
import type { SubagentRunRecord } from './record.ts';
import { SubagentRegistry } from './registry.ts';
import { readRunLog } from './run-log.ts';
import { RunStore } from './run-store.ts';
import { Sweeper } from './sweeper.ts';

/** The subagent part, put together: registry, outbox, sweeper, over one store. */
export class Subagents {
  readonly registry: SubagentRegistry;
  readonly announcer: Announcer;
  readonly sweeper: Sweeper;
  readonly audit: AuditLog;
  readonly approvals: ApprovalBroker;

  private constructor(
    readonly store: RunStore,
    private readonly config: BridgeConfig,
    out: Outbound,
    log: (line: string) => void,
  ) {
    this.audit = new AuditLog(config.dataDir);
    this.announcer = new Announcer({ store, out, settings: config.settings, log, toAgent: (runs) => this.toAgent(runs) });
    this.registry = new SubagentRegistry({
      config,
      store,
      log,
      audit: this.audit,
      onEnded: (run) => {
        this.approvals.cancel(run.runId);
        this.announcer.kick();
        for (const listener of this.endListeners) listener(run);
      },
    });
    this.approvals = new ApprovalBroker({
      out,
      audit: this.audit,
      timeoutMs: config.settings.approvalTimeoutSeconds * 1000,
      holdTimeout: (runId) => this.registry.holdTimeout(runId),
      log,
    });
    this.sweeper = new Sweeper(store, config.settings.subagents.historyPerChat, log);
  }

  private readonly endListeners: ((run: SubagentRunRecord) => void)[] = [];

  /** Called once for every run that ends, after its record is saved (orchestrations follow their steps this way). */
  onEnded(listener: (run: SubagentRunRecord) => void): void {
    this.endListeners.push(listener);
  }

  /** Set by the tools part: gives finished runs' results back to the main agent that spawned them. */
  agentDelivery: ((runs: SubagentRunRecord[]) => Promise<void>) | undefined;

  static async open(config: BridgeConfig, out: Outbound, log: (line: string) => void): Promise<Subagents> {
    return new Subagents(await RunStore.open(config.dataDir), config, out, log);
  }

  /** Recovers what a previous bridge left (interrupted, queued, unannounced), then runs. */
  async start(sweepIntervalMs?: number): Promise<{ interrupted: number; requeued: number }> {
    const recovered = await this.registry.recover();
    this.announcer.kick();
    this.sweeper.start(sweepIntervalMs);
    return recovered;
  }

  /** Resolves once no run is queued or running and every announcement is out (scripts, tests). */
  async idle(): Promise<void> {
    while (!this.isIdle()) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await this.announcer.settle();
  }

  isIdle(): boolean {
    return !this.store.all().some((run) => run.status === 'queued' || run.status === 'running');
  }

  async shutdown(): Promise<void> {
    this.sweeper.stop();
    await this.registry.shutdown();
    await this.announcer.settle();
    this.announcer.close();
    await this.audit.flush();
  }

  /** The run's decoded log, for /subagents log. */
  async events(run: SubagentRunRecord): Promise<AgentEvent[]> {
    const adapter = this.config.adapters.get(run.cli);
    const decoder = new LineDecoder(decoders[adapter?.protocol ?? 'claude-stream-json']!);
    return (await readRunLog(run.logFile)).flatMap((raw) => {
      const line = parseLine(raw);
      return line ? decoder.decode(line.raw, line.json) : [];
    });
  }

  private async toAgent(runs: SubagentRunRecord[]): Promise<void> {
    if (!this.agentDelivery) throw new Error('no main-agent delivery is set up');
    await this.agentDelivery(runs);
  }
}
