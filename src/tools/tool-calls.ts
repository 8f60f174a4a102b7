import { Ajv, type ValidateFunction } from 'ajv';
import { runInfo, runList, runLog } from '../chat/render/runs.ts';
import { chatKey } from '../chat/transport.ts';
import type { BridgeManifest } from '../config/bridge-manifest.ts';
import { displayName, type SubagentRunRecord } from '../subagents/record.ts';
import type { Subagents } from '../subagents/subagents.ts';
import type { ToolScope } from './scope.ts';

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
    private readonly manifest: BridgeManifest,
    private readonly subagents: Subagents,
    private readonly notice: SpawnNotice = () => {},
  ) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    for (const tool of manifest.tools) this.validators.set(tool.name, ajv.compile(tool.inputSchema));
  }

  get tools() {
    return this.manifest.tools;
  }

  async call(scope: ToolScope, name: string, args: unknown): Promise<ToolResult> {
    const validate = this.validators.get(name);
    if (!validate) return error(`Unknown tool "${name}".`);
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
    if (input.agent) return error(`Unknown agent "${String(input.agent)}": no agent definitions are set up.`);
    const result = await this.subagents.registry.spawn({
      address: scope.address,
      requester: { kind: 'agent', chatKey: chatKey(scope.address), ...(scope.sessionId() ? { sessionId: scope.sessionId() } : {}) },
      requesterSessionId: scope.sessionId(),
      task: String(input.task),
      depth: scope.depth + 1,
      ...(input.label ? { label: String(input.label) } : {}),
      ...(input.cli ? { cli: String(input.cli) } : {}),
      ...(input.model ? { model: String(input.model) } : {}),
      ...(input.timeoutSeconds ? { timeoutSeconds: Number(input.timeoutSeconds) } : {}),
    });
    if (!result.ok) return error(result.error);
    this.notice(result.run, result.queuePosition);
    const { run } = result;
    const where = result.queuePosition ? `queued (${result.queuePosition} in line; it starts when a slot frees)` : 'started';
    const back = scope.kind === 'main' && run.delivery.agent === 'pending' ? ' Its result will arrive by itself as a new message in this conversation: do not wait or poll for it; go on with other work or end your turn.' : ' Its result will be announced in the chat.';
    return ok(`Subagent #${run.number} ${where}: id ${run.runId}, label "${displayName(run)}", CLI ${run.cli}.${back}`);
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
