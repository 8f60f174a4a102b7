import { Ajv, type ValidateFunction } from 'ajv';
import { runInfo, runList, runLog } from '../presentation/runs.ts';
import { chatKey, type ChatRef, type Outbound } from '../ports/transport.ts';
import type { BridgeManifest } from '../config/bridge-manifest.ts';
import { displayName, type Requester, type SubagentRunRecord } from '../subagents/record.ts';
import type { SpawnOrigin } from '../subagents/spawner.ts';
import type { Subagents } from '../subagents/subagents.ts';
import type { ApprovalBroker } from '../approvals/approval-broker.ts';
import { runAsker, type Asker } from '../approvals/asker.ts';
import type { ToolScope } from './scope.ts';
import type { Orchestrator } from '../orchestration/orchestrator.ts';
import { parsePlan, PlanError } from '../orchestration/index.ts';
import { outgoingFile } from '../files/outgoing.ts';
import { megabytes } from '../files/sizes.ts';
import { plain } from '../presentation/deliver.ts';
import { plainText } from '../rich/index.ts';
import { basename } from 'node:path';

export interface ToolResult {
  text: string;
  isError: boolean;
}

/** Told in the chat when an agent starts a run, so people see it (and can stop it). */
export type SpawnNotice = (run: SubagentRunRecord, queuePosition: number) => void;

export interface ToolCallsOptions {
  /** The tools and their JSON Schemas, from manifest.json. */
  tools: BridgeManifest['tools'];
  /** The bridge's data directory, which send_file never sends from. */
  dataDir: string;
  subagents: Subagents;
  approvals: ApprovalBroker;
  orchestrator: Orchestrator;
  notice: SpawnNotice;
  /** Where send_file sends. */
  out: Outbound;
  /** The working directory and CLI of a chat: what its main agent's runs default to. */
  chatDefaults: (address: ChatRef) => { cwd: string; cli: string };
}

/**
 * The tools the bridge offers agents, with the schemas declared in manifest.json. Every
 * failure (bad arguments, limits, unknown CLI, too deep) is a tool error the agent can
 * read, never an exception.
 */
export class ToolCalls {
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly options: ToolCallsOptions) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    for (const tool of options.tools) this.validators.set(tool.name, ajv.compile(tool.inputSchema));
  }

  get tools() {
    return this.options.tools;
  }

  private get subagents(): Subagents {
    return this.options.subagents;
  }

  async call(scope: ToolScope, name: string, args: unknown): Promise<ToolResult> {
    const validate = this.validators.get(name);
    if (!validate || !scope.tools.has(name)) return error(`Unknown tool "${name}".`);
    if (!validate(args ?? {})) {
      const problems = (validate.errors ?? []).map(
        (e) => `${e.instancePath || '(arguments)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : ''}`,
      );
      return error(`Invalid arguments for ${name}: ${problems.join('; ')}.`);
    }
    const input = (args ?? {}) as Record<string, unknown>;
    switch (name) {
      case 'spawn_subagent':
        return this.spawn(scope, input);
      case 'list_subagents':
        return ok(plainText(runList(this.runs(scope), (run) => this.subagents.registry.queuePosition(run))));
      case 'subagent_status':
        return this.withRun(scope, input.id, (run) => ok(plainText(runInfo(run))));
      case 'subagent_log':
        return this.withRun(scope, input.id, async (run) =>
          ok(plainText(runLog(run, await this.subagents.events(run), (input.lines as number | undefined) ?? 20))),
        );
      case 'create_orchestration':
        return this.orchestrate(scope, input);
      case 'approve_tool':
        return this.approve(scope, input);
      case 'send_file':
        return this.sendFile(scope, input);
      case 'stop_subagent':
        return this.withRun(scope, input.id, async (run) => {
          const stopped = await this.subagents.registry.stop(run.runId, 'the agent');
          return stopped ? ok(`Stopped #${run.number} ${displayName(run)}.`) : error(`#${run.number} has already ended (${run.status}).`);
        });
      default:
        return error(`Tool "${name}" is declared but not implemented.`);
    }
  }

  private async spawn(scope: ToolScope, input: Record<string, unknown>): Promise<ToolResult> {
    const result = await this.subagents.spawner.spawn(
      {
        task: String(input.task),
        ...(input.label !== undefined ? { label: input.label as string } : {}),
        ...(input.cli !== undefined ? { cli: input.cli as string } : {}),
        ...(input.model !== undefined ? { model: input.model as string } : {}),
        ...(input.agent !== undefined ? { agent: input.agent as string } : {}),
        ...(input.timeoutSeconds !== undefined ? { timeoutSeconds: Number(input.timeoutSeconds) } : {}),
        ...(input.worktree === true ? { worktree: true } : {}),
      },
      this.origin(scope),
    );
    if (!result.ok) return error(result.error);
    this.options.notice(result.run, result.queuePosition);
    const { run } = result;
    const where = result.queuePosition ? `queued (${result.queuePosition} in line; it starts when a slot frees)` : 'started';
    const back =
      scope.kind === 'main' && run.delivery.agent === 'pending'
        ? ' Its result will arrive by itself as a new message in this conversation: do not wait or poll for it; go on with other work or end your turn.'
        : ' Its result will be announced in the chat.';
    return ok(`Subagent #${run.number} ${where}: id ${run.runId}, label "${displayName(run)}", CLI ${run.cli}.${back}`);
  }

  /** A plan of steps, validated before anything runs; it returns at once, the result comes later. */
  private async orchestrate(scope: ToolScope, input: Record<string, unknown>): Promise<ToolResult> {
    let plan;
    try {
      plan = parsePlan(input.plan);
    } catch (caught) {
      if (caught instanceof PlanError) return error(`The plan was not started: ${caught.message}`);
      throw caught;
    }
    const created = await this.options.orchestrator.create(plan, this.origin(scope));
    if (!created.ok) return error(`The plan was not started: ${created.error}`);
    const back = scope.kind === 'main' ? ' When it ends, its outcome will arrive by itself as a new message in this conversation.' : '';
    return ok(
      `Orchestration #${created.record.number} started: id ${created.record.id}, ${plan.steps.length} steps (${plan.strategy}). Progress is shown in the chat.${back}`,
    );
  }

  /**
   * Where the caller's runs start from: a main session's chat (its directory and CLI, depth
   * 0, asking the chat if the session does), or the calling run itself (its directory, CLI, depth and tool policy).
   */
  private origin(scope: ToolScope): SpawnOrigin {
    const sessionId = scope.sessionId();
    const requester: Requester = { kind: 'agent', chatKey: chatKey(scope.address), ...(sessionId ? { sessionId } : {}) };
    const base = { address: scope.address, requester, ...(sessionId ? { requesterSessionId: sessionId } : {}) };
    const caller = scope.runId ? this.subagents.registry.get(scope.runId) : undefined;
    if (caller) return { ...base, cwd: caller.cwd, cli: caller.cli, depth: caller.depth, ...(caller.policy ? { policy: caller.policy } : {}) };
    // A main session that asks before its tools run starts runs that ask too.
    return { ...base, ...this.options.chatDefaults(scope.address), depth: scope.depth, ...(scope.asker ? { policy: { approvals: true } } : {}) };
  }

  /** Claude Code's permission prompt, for a main session that asks or a run under a policy: the answer is JSON text. */
  private async approve(scope: ToolScope, input: Record<string, unknown>): Promise<ToolResult> {
    const asker = this.asker(scope);
    if (!asker) return ok(JSON.stringify({ behavior: 'deny', message: 'This run is no longer known to the bridge.' }));
    const decision = await this.options.approvals.decide(asker, String(input.tool_name), (input.input ?? {}) as Record<string, unknown>);
    return ok(JSON.stringify(decision));
  }

  private asker(scope: ToolScope): Asker | undefined {
    if (scope.asker) return scope.asker;
    const run = scope.runId ? this.subagents.registry.get(scope.runId) : undefined;
    return run && runAsker(run, () => this.subagents.registry.holdTimeout(run.runId));
  }

  /** A file from the caller's own directory (a run's worktree, a chat's working directory) to its chat. */
  private async sendFile(scope: ToolScope, input: Record<string, unknown>): Promise<ToolResult> {
    const caller = scope.runId ? this.subagents.registry.get(scope.runId) : undefined;
    const dir = caller ? (caller.worktree?.workdir ?? caller.cwd) : this.options.chatDefaults(scope.address).cwd;
    const wanted = String(input.path);
    const file = await outgoingFile(dir, wanted, [dir], this.options.dataDir);
    if (!file.ok) return error(`Not sent: ${file.error}`);
    const caption = typeof input.caption === 'string' && input.caption.trim() ? input.caption.trim() : undefined;
    const who = caller ? `#${caller.number} ${displayName(caller)}` : undefined;
    const shown = [who && `${who}:`, caption].filter(Boolean).join(' ');
    try {
      await this.options.out.sendFile(scope.address, { path: file.path, content: file.content, as: file.as, ...(shown ? { caption: plain(shown) } : {}) });
    } catch (caught) {
      return error(`Not sent: the chat refused it (${(caught as Error).message}).`);
    } finally {
      await file.close();
    }
    return ok(`Sent ${basename(file.path)} (${megabytes(file.bytes)}) to the chat as a ${file.as}.`);
  }

  private runs(scope: ToolScope): SubagentRunRecord[] {
    return this.subagents.registry.forChat(chatKey(scope.address));
  }

  private async withRun(scope: ToolScope, id: unknown, use: (run: SubagentRunRecord) => ToolResult | Promise<ToolResult>): Promise<ToolResult> {
    const run = this.subagents.registry.find(chatKey(scope.address), String(id));
    if (!run) return error(`No run "${String(id)}" in this chat. list_subagents shows them.`);
    return use(run);
  }
}

const ok = (text: string): ToolResult => ({ text, isError: false });
const error = (text: string): ToolResult => ({ text, isError: true });
