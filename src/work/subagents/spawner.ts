import { modelNameProblem } from '../../engine/adapters/turn-options.ts';
import type { Adapter } from '../../engine/adapters/load.ts';
import { canAsk, effectiveMode } from '../../engine/adapters/permissions.ts';
import { cannotHonour, describeRule, ruledAgents, rulesCovering, type ApprovalRule } from '../../kernel/policy/approval-rules.ts';
import { stricter, type PermissionMode } from '../../kernel/policy/permission-mode.ts';
import { chooseAgent } from '../../engine/agents/catalog.ts';
import { cliAgents } from '../../engine/agents/cli-agents.ts';
import type { AgentLibrary, AgentLibraryCatalog } from '../../engine/agents/library.ts';
import type { AgentDefinition } from '../../engine/agents/types.ts';
import { chatKey, isNoChat, type ChatRef } from '../../kernel/ports/chat.ts';
import { buildPolicy, narrowPolicy, PolicyError, type ToolPolicy } from '../../kernel/policy/tool-policy.ts';
import { findRepoRoot } from '../../engine/worktrees/index.ts';
import { paidBy, type Requester } from './record.ts';
import type { SubagentRegistry } from './registry.ts';
import type { Refusal, SpawnRequest, SpawnResult } from './spawn-request.ts';
import { unsupportedRun } from './run-options.ts';

/** What a spawn asks for, whoever asks: `/spawn` flags, the tool's arguments, a plan step. */
export interface SpawnIntent {
  task: string;
  /** The message a /spawn replied to. */
  context?: string;
  label?: string;
  cli?: string;
  model?: string;
  agent?: string;
  timeoutSeconds?: number;
  /** Only these tools (--allow Read,Grep). */
  allow?: string[];
  /** Without these tools (--deny Bash). */
  deny?: string[];
  /** Tool calls that need permission are asked in the chat. */
  ask?: boolean;
  /** The allowed tools are approved without asking, within bounds. */
  autoApprove?: boolean;
  /** A fresh git worktree on its own branch. */
  worktree?: boolean;
  /** At most this many agent turns (the CLI's --max-turns). */
  maxTurns?: number;
  /** At most this many US dollars (--budget): stopped once its cost reaches it. */
  budgetUsd?: number;
}

/** Who asks, from where, and the limits they carry: a run never gets more than its origin. */
export interface SpawnOrigin {
  address: ChatRef;
  requester: Requester;
  /** The working directory of the chat (or of the run) that asks. */
  cwd: string;
  /** The CLI of the chat (or run) that asks: the default when neither the spawn nor its agent names one. */
  cli: string;
  /** 0 for a chat (a person, the main agent, a plan they made); a run's own depth for a run. */
  depth: number;
  /** The asking run's tool policy: the spawned run's is narrowed to it. */
  policy?: ToolPolicy;
  requesterSessionId?: string;
  orchestration?: { id: string; step: string };
  /** The most the run may do (a webhook's mode): the stricter of it and the chat's mode binds. */
  mode?: PermissionMode;
  /** The message whose command asks (`messageKey`): kept on the run, so a replay after a restart finds it. */
  fromMessage?: string;
}

export interface SpawnerOptions {
  registry: SubagentRegistry;
  adapters: ReadonlyMap<string, Adapter>;
  /** The agents `--agent` may name, and those a run's Task tool may delegate to. */
  agents: AgentLibrary;
  limits: { maxDepth: number; timeoutSeconds: number };
  /** Why a chat (or the person asking) may start no new run now (a daily budget is spent), or undefined. */
  refuseWork?: (chatKey: string, person?: string) => string | undefined;
  /** What the run can be priced by, and what the person asking has left of their day: a run's budget needs both. */
  costs?: RunCosts;
  /** Whether the owner trusts a directory (/trust): a run spawned there may use what the repository ships. */
  trusts: (dir: string) => Promise<boolean>;
  /** The permission mode of the chat a run is spawned in (/permissions): it binds every run there. */
  chatMode?: (address: ChatRef) => PermissionMode;
  /** The hosts a chat's `/net` allows its agents: a run spawned there reaches them too. */
  netAllow?: (address: ChatRef) => readonly string[] | undefined;
  /** The operator's tool policy: work a rule covers runs only on a CLI that asks the bridge before each call. */
  approvalRules?: readonly ApprovalRule[];
  /** What a CLI lacks to work (its credentials), in one line: a run on it is refused so, at once (none: not asked). */
  lacks?: (adapter: Adapter) => Promise<string | undefined>;
}

/** How a spawn's budget is checked: whether its CLI and model can be priced, and the asking person's day. */
export interface RunCosts {
  /** Why a run on this CLI and model cannot be held to a budget, or undefined. */
  unpriced(cli: string, model: string | undefined): string | undefined;
  /** What a person (`<transport>:<id>`) has left to spend today, when their day has a budget. */
  personLeft(person: string): number | undefined;
}

/** The longest a run may be given (the spawn tool's schema says the same): a day. */
export const MAX_TIMEOUT_SECONDS = 86_400;

export type Prepared = { ok: true; request: SpawnRequest } | { ok: false; error: string; refusal?: Refusal };

/**
 * The one way a run is built, for `/spawn`, the spawn tool and plan steps alike. Precedence,
 * field by field: what the spawn says, then its agent definition, then the origin's defaults
 * (its CLI, its directory), then the bridge's. Every refusal is a sentence in the result,
 * never an exception: each caller words it its own way (a chat message, a tool error, a
 * refused plan).
 */
export class Spawner {
  constructor(private readonly options: SpawnerOptions) {}

  async spawn(intent: SpawnIntent, origin: SpawnOrigin): Promise<SpawnResult> {
    const prepared = await this.prepare(intent, origin);
    return prepared.ok ? this.options.registry.spawn(prepared.request) : prepared;
  }

  /** The run's request, checked against the CLI, the agent, the policy rules and the origin's limits. */
  async prepare(intent: SpawnIntent, origin: SpawnOrigin): Promise<Prepared> {
    const { adapters, limits } = this.options;
    const task = intent.task.trim();
    if (!task) return refuse('The task is empty.');
    // The person a spawn is charged to: who typed it (a schedule's maker included), none for work nobody typed.
    const person = paidBy({ requester: origin.requester, chat: origin.address });
    const spent = this.options.refuseWork?.(chatKey(origin.address), person);
    if (spent) return { ...refuse(spent), refusal: 'limit' };
    if (
      intent.timeoutSeconds !== undefined &&
      !(Number.isInteger(intent.timeoutSeconds) && intent.timeoutSeconds >= 1 && intent.timeoutSeconds <= MAX_TIMEOUT_SECONDS)
    ) {
      return refuse(`A timeout is a whole number of seconds from 1 to ${MAX_TIMEOUT_SECONDS} (a day), got ${intent.timeoutSeconds}.`);
    }
    const depth = origin.depth + 1;
    if (depth > Math.max(1, limits.maxDepth))
      return refuse(`Subagents may be nested ${limits.maxDepth} deep at most, and this one would be at depth ${depth}. Do the work yourself.`);

    // Read from disk only when the spawn names an agent or its CLI takes agents into its Task tool.
    let reading: Promise<AgentLibraryCatalog> | undefined;
    // A safe chat's runs only read: a repository's own agents count for none of them, trusted or not.
    const bound = stricter(this.options.chatMode?.(origin.address) ?? 'bypass', origin.mode ?? 'bypass');
    const readOnly = bound === 'safe';
    const catalog = () => (reading ??= this.options.agents.catalog(origin.cwd, { readOnly }));
    let agent: AgentDefinition | undefined;
    if (intent.agent) {
      const chosen = chooseAgent(await catalog(), intent.agent);
      if (typeof chosen === 'string') return refuse(chosen);
      agent = chosen;
    }
    const cli = intent.cli ?? agent?.cli ?? origin.cli;
    const adapter = adapters.get(cli);
    if (!adapter) return refuse(`Unknown CLI "${cli}". Available: ${[...adapters.keys()].join(', ')}.`);
    const lacking = await this.options.lacks?.(adapter);
    if (lacking) return { ...refuse(lacking), refusal: 'unavailable' };
    // The CLIs a refusal suggests instead: those that can.
    const able = (can: (adapter: Adapter) => boolean) => [...adapters.values()].flatMap((other) => (can(other) ? [other.name] : [])).join(', ');
    // An agent's own MCP servers go into the run's MCP configuration file: a CLI must read one.
    const readsMcpFile = (adapter: Adapter) => adapter.mcpConfigFormat === 'claude-json';
    if (agent?.mcpServers && !readsMcpFile(adapter))
      return refuse(
        `Agent "${agent.slug}" needs MCP servers (${agent.mcpServers.join(', ')}), which ${cli} cannot be given: run it with a CLI that reads an MCP configuration file (${able(readsMcpFile)}).`,
      );
    const taskAgents = adapter.options.agents ? cliAgents(await catalog(), cli, ruledAgents(this.options.approvalRules ?? [])) : {};
    const servers = agent?.mcpServers ? (await catalog()).mcpServers : {};
    const model = intent.model ?? agent?.model;
    const badModel = model === undefined ? undefined : modelNameProblem(model);
    if (badModel) return refuse(`${badModel}: "${model!.replace(/\p{Cc}/gu, '\uFFFD').slice(0, 60)}".`);
    const askedUsd = intent.budgetUsd ?? agent?.budgetUsd;
    if (askedUsd !== undefined && !(Number.isFinite(askedUsd) && askedUsd > 0))
      return refuse(`A budget is an amount of US dollars above 0, like 0.50, got ${askedUsd}.`);
    const unpriced = askedUsd === undefined ? undefined : this.options.costs?.unpriced(cli, model);
    if (unpriced) return refuse(`A budget cannot be held here: ${unpriced}`);
    // Beyond what the person has left today is allowed; their day still binds.
    const left = askedUsd !== undefined && person ? this.options.costs?.personLeft(person) : undefined;
    const budget = askedUsd === undefined ? undefined : left !== undefined && left < askedUsd ? { usd: left, askedUsd } : { usd: askedUsd };

    // Auto-approval approves a list without asking: the list must come from the person asking or the operator, not from a repository.
    if (intent.autoApprove && !intent.allow && agent && agent.source !== 'user') {
      return refuse(
        `INVALID_PERMISSION_CONFIG: auto-approval needs --allow: the tools of agent "${agent.slug}" come from the project (${agent.file}), not from you or the operator.`,
      );
    }
    let policy: ToolPolicy | undefined;
    try {
      const own = buildPolicy({
        allowedTools: intent.allow ?? agent?.allowedTools,
        disallowedTools: intent.deny ?? agent?.disallowedTools,
        ask: intent.ask,
        autoApprove: intent.autoApprove,
      });
      policy = narrowPolicy(origin.policy, own);
    } catch (error) {
      if (error instanceof PolicyError) return refuse(error.message);
      throw error;
    }
    // A run an agent starts gets no more than the agent's own session: beyond it, the chat is asked.
    if (origin.requester.kind === 'agent' && exceeds(adapter, policy, adapters.get(origin.cli), origin.policy)) policy = { ...policy, approvals: true };
    // Whoever spawns (a person, an agent, a plan, the API, a webhook), the chat's mode binds the run.
    const mode = effectiveMode(adapter, bound);
    if (mode === 'safe') {
      const lifted = [
        intent.autoApprove && '--auto-approve',
        intent.ask && '--ask',
        intent.allow && '--allow',
        agent?.mcpServers && `agent ${agent.slug}'s MCP servers`,
      ].filter(Boolean);
      if (lifted.length)
        return refuse(
          isNoChat(origin.address)
            ? `Runs of no chat are in safe mode: they only read, and ${lifted.join(', ')} cannot change that. BRIDGE_API_NO_CHAT_MODE sets their mode.`
            : `This chat is in safe mode: its runs only read, and ${lifted.join(', ')} cannot change that. /permissions changes the chat's mode.`,
        );
      // An agent's own allowlist is dropped, not obeyed: it could list tools that write.
      policy = { disallowedTools: policy?.disallowedTools, approvals: false, readOnly: true };
    } else if (mode === 'ask' && !policy?.approvals) policy = { ...policy, approvals: true };
    // A rule of the tool policy binds in every mode: the run's CLI asks the bridge before each call, which answers what no rule covers itself.
    const rules = rulesCovering(this.options.approvalRules ?? [], {
      agent: agent?.slug,
      readOnly: policy?.readOnly,
      allowedTools: policy?.allowedTools,
      disallowedTools: policy?.disallowedTools,
    });
    if (rules.length && isNoChat(origin.address))
      return refuse(
        `The tool policy (tool-policy.json) needs ${rules[0]!.approvals} people's Allow for ${describeRule(rules[0]!)}, and a run of no chat has nobody to ask: start it in a chat.`,
      );
    if (rules.length && !canAsk(adapter)) return refuse(cannotHonour(cli, rules[0]!, `the run was not started: spawn it on a CLI that asks (${able(canAsk)})`));
    if (rules.length && !policy?.approvals) policy = { ...policy, approvals: true, ruledOnly: true };
    const label = intent.label ?? agent?.name;
    // Trust is decided once, for the directory the run comes from (its worktree is that repository's); a run that only reads never trusts.
    const trusted = mode !== 'safe' && (await this.options.trusts(origin.cwd));
    const netAllow = this.options.netAllow?.(origin.address);
    // In the order the run's record (and /subagents info) lists its fields.
    const request: SpawnRequest = {
      address: origin.address,
      ...(origin.requesterSessionId ? { requesterSessionId: origin.requesterSessionId } : {}),
      requester: origin.requester,
      cli,
      ...(model ? { model } : {}),
      ...(agent ? { agent: agent.slug } : {}),
      task,
      ...(intent.context ? { context: intent.context } : {}),
      ...(label ? { label } : {}),
      policy,
      chatMode: mode,
      ...((intent.maxTurns ?? agent?.maxTurns) ? { maxTurns: intent.maxTurns ?? agent?.maxTurns } : {}),
      budget,
      ...(agent ? { agentPrompt: agent.prompt } : {}),
      ...(Object.keys(taskAgents).length ? { agents: taskAgents } : {}),
      ...(agent?.mcpServers ? { mcpServers: Object.fromEntries(agent.mcpServers.map((name) => [name, servers[name]!])) } : {}),
      ...(intent.worktree ? { isolate: true } : {}),
      ...(trusted ? { trusted: true } : {}),
      orchestration: origin.orchestration,
      ...(netAllow?.length ? { netAllow: [...netAllow] } : {}),
      ...(origin.fromMessage ? { fromMessage: origin.fromMessage } : {}),
      cwd: origin.cwd,
      depth,
      timeoutSeconds: intent.timeoutSeconds ?? limits.timeoutSeconds,
    };
    const unsupported = unsupportedRun(adapter, request);
    if (unsupported) return refuse(unsupported);
    // Refused now, not when the run starts: outside a repository there is nothing to branch from.
    if (request.isolate && !(await findRepoRoot(request.cwd))) return refuse(`${request.cwd} is not inside a git repository: --worktree needs one.`);
    return { ok: true, request };
  }
}

/** Whether the child would do more unattended than its parent (a codex sandbox starting a claude that bypasses). */
function exceeds(child: Adapter, childPolicy: ToolPolicy | undefined, parent: Adapter | undefined, parentPolicy: ToolPolicy | undefined): boolean {
  // How much a run may do without a person: asking the chat < a workspace sandbox < everything.
  const rank = (adapter: Adapter | undefined, policy: ToolPolicy | undefined) =>
    ['ask', 'workspace', 'everything'].indexOf(policy?.approvals && !policy.ruledOnly ? 'ask' : (adapter?.permissions.unattended ?? 'everything'));
  return rank(child, childPolicy) > rank(parent, parentPolicy);
}

function refuse(error: string): { ok: false; error: string } {
  return { ok: false, error };
}
