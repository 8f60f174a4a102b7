import { Ajv, type ValidateFunction } from 'ajv';
import { runInfo, runList, runLog } from '../chat/render/runs.ts';
import { chatKey } from '../chat/transport.ts';
import { catalogFor, chooseAgent, policyWithAgent, type AgentChoice } from '../agents/spawn-with-agent.ts';
import type { BridgeConfig } from '../config/config.ts';
import type { ToolPolicy } from '../policy/tool-policy.ts';
import { displayName, type SubagentRunRecord } from '../subagents/record.ts';
import type { Subagents } from '../subagents/subagents.ts';
import type { ToolScope } from './scope.ts';
import type { Orchestrator } from '../orchestration/orchestrator.ts';
import { parsePlan, PlanError } from '../orchestration/index.ts';

export interface ToolResult {
  text: string;
  isError: boolean;
}

/** Told in the chat when an agent starts a run, so people see it (and can stop it). */
export type SpawnNotice = (run: SubagentRunRecord, queuePosition: number) => void;

/**
 * The tools the bridge offers agents, with the schemas declared in manifest.json. Every
 * failure (bad arguments, limits, unknown CLI, too deep) is a tool error the agent can
 * read, never an exception.
 */
export class ToolCalls {
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(
    private readonly config: BridgeConfig,
    private readonly subagents: Subagents,
    private readonly notice: SpawnNotice = () => {},
    /** The working directory of the caller's chat. */
    private readonly workdirOf: (scope: ToolScope) => string = () => config.workdir,
    private readonly orchestrator?: Orchestrator,
  ) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    for (const tool of config.manifest.tools) this.validators.set(tool.name, ajv.compile(tool.inputSchema));
  }

  private workdir(scope: ToolScope): string {
    return this.workdirOf(scope);
  }

  /** An agent's own tool lists; a definition that breaks the policy rules is the agent's error. */
  private agentPolicy(agent: AgentChoice): { policy?: ToolPolicy } {
    const policy = policyWithAgent({}, agent);
    return policy ? { policy } : {};
  }

  get tools() {
    return this.config.manifest.tools;
  }

  async call(scope: ToolScope, name: string, args: unknown): Promise<ToolResult> {
    const validate = this.validators.get(name);
    if (!validate || !scope.tools.has(name)) return error(`Unknown tool "${name}".`);
    if (!validate(args ?? {})) {
      const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '(arguments)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : ''}`);
      return error(`Invalid arguments for ${name}: ${problems.join('; ')}.`);
    }
    const input = (args ?? {}) as Record<string, unknown>;
    switch (name) {
      case 'spawn_subagent':
        return this.spawn(scope, input);
      case 'list_subagents':
        return ok(runList(this.runs(scope), (run) => this.subagents.registry.queuePosition(run)).plain);
      case 'subagent_status':
        return this.withRun(scope, input.id, (run) => ok(runInfo(run).plain));
      case 'subagent_log':
        return this.withRun(scope, input.id, async (run) => ok(runLog(run, await this.subagents.events(run), (input.lines as number | undefined) ?? 20).plain));
      case 'create_orchestration':
        return this.orchestrate(scope, input);
      case 'approve_tool':
        return this.approve(scope, input);
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
    const limits = this.subagents.registry.limits;
    if (scope.depth + 1 > limits.maxDepth) {
      return error(`You are a subagent at depth ${scope.depth}; subagents may be nested ${limits.maxDepth} deep at most. Do the work yourself.`);
    }
    let agent: AgentChoice | undefined;
    if (input.agent) {
      const chosen = chooseAgent(await catalogFor(this.workdir(scope), this.config.dataDir, [...this.config.adapters.keys()]), String(input.agent));
      if (typeof chosen === 'string') return error(chosen);
      agent = chosen;
    }
    const result = await this.subagents.registry.spawn({
      address: scope.address,
      requester: { kind: 'agent', chatKey: chatKey(scope.address), ...(scope.sessionId() ? { sessionId: scope.sessionId() } : {}) },
      requesterSessionId: scope.sessionId(),
      task: String(input.task),
      depth: scope.depth + 1,
      ...(input.label ?? agent?.label ? { label: String(input.label ?? agent?.label) } : {}),
      ...(input.cli ?? agent?.cli ? { cli: String(input.cli ?? agent?.cli) } : {}),
      ...(input.model ?? agent?.model ? { model: String(input.model ?? agent?.model) } : {}),
      ...(agent ? { agent: agent.agent, agentPrompt: agent.agentPrompt, ...(agent.maxTurns ? { maxTurns: agent.maxTurns } : {}) } : {}),
      ...(agent ? this.agentPolicy(agent) : {}),
      ...(input.worktree === true ? { worktree: true } : {}),
      cwd: this.workdir(scope),
      ...(input.timeoutSeconds ? { timeoutSeconds: Number(input.timeoutSeconds) } : {}),
    });
    if (!result.ok) return error(result.error);
    this.notice(result.run, result.queuePosition);
    const { run } = result;
    const where = result.queuePosition ? `queued (${result.queuePosition} in line; it starts when a slot frees)` : 'started';
    const back = scope.kind === 'main' && run.delivery.agent === 'pending' ? ' Its result will arrive by itself as a new message in this conversation: do not wait or poll for it; go on with other work or end your turn.' : ' Its result will be announced in the chat.';
    return ok(`Subagent #${run.number} ${where}: id ${run.runId}, label "${displayName(run)}", CLI ${run.cli}.${back}`);
  }

  /** A plan of steps, validated before anything runs; it returns at once, the result comes later. */
  private async orchestrate(scope: ToolScope, input: Record<string, unknown>): Promise<ToolResult> {
    if (!this.orchestrator) return error('Orchestrations are not available here.');
    if (scope.depth + 1 > this.subagents.registry.limits.maxDepth) return error('Subagents may not start orchestrations at this depth. Do the work yourself.');
    let plan;
    try {
      plan = parsePlan(input.plan);
    } catch (caught) {
      if (caught instanceof PlanError) return error(`The plan was not started: ${caught.message}`);
      throw caught;
    }
    const record = await this.orchestrator.create(plan, scope.address, { kind: 'agent', chatKey: chatKey(scope.address), ...(scope.sessionId() ? { sessionId: scope.sessionId() } : {}) });
    const back = scope.kind === 'main' ? ' When it ends, its outcome will arrive by itself as a new message in this conversation.' : '';
    return ok(`Orchestration #${record.number} started: id ${record.id}, ${plan.steps.length} steps (${plan.strategy}). Progress is shown in the chat.${back}`);
  }

  /** Claude Code's permission prompt for a run under a policy: the answer is JSON text. */
  private async approve(scope: ToolScope, input: Record<string, unknown>): Promise<ToolResult> {
    const run = scope.runId ? this.subagents.registry.get(scope.runId) : undefined;
    if (!run) return ok(JSON.stringify({ behavior: 'deny', message: 'This run is no longer known to the bridge.' }));
    const decision = await this.subagents.approvals.decide(run, String(input.tool_name), (input.input ?? {}) as Record<string, unknown>);
    return ok(JSON.stringify(decision));
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
