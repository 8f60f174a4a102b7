import { status } from '@grpc/grpc-js';
import type { EngineSettings } from '../../engine/engine-settings.ts';
import type { PeopleSettings } from '../../chat/people/people-settings.ts';
import { validatePlan } from '../../work/orchestration/validate.ts';
import { PlanError, STRATEGIES, type Plan, type PlanStep, type Strategy } from '../../work/orchestration/plan.ts';
import type { Orchestrator } from '../../work/orchestration/orchestrator.ts';
import { chatKey } from '../../kernel/ports/chat.ts';
import { resolveDirectory } from '../../engine/projects/directories.ts';
import { isActive } from '../../work/subagents/record.ts';
import type { Refusal } from '../../work/subagents/spawn-request.ts';
import type { SpawnIntent } from '../../work/subagents/spawner.ts';
import type { Subagents } from '../../work/subagents/subagents.ts';
import { ApiError, mayActIn, namedChat, streaming, text, unary, type CallDeps } from './calls.ts';
import { apiDelivery, subagentInfo } from './convert.ts';
import type { SubagentServiceHandlers } from './generated/jsonl_bridge/v1/SubagentService.ts';
import { watchOrchestration, watchRun } from './watch.ts';

export interface ApiDeps extends CallDeps {
  subagents: Subagents;
  orchestrator: Orchestrator;
  config: Pick<EngineSettings, 'workdir' | 'projectRoots' | 'offLimits' | 'defaultCli'> & Pick<PeopleSettings, 'bareNumbers'>;
}

const LIMITS = { name: 100, tools: 100, toolName: 200, steps: 50 };
const RUN_ID = /^[\w-]{4,64}$/;

const REFUSAL_CODES: Record<Refusal, status> = {
  invalid: status.INVALID_ARGUMENT,
  limit: status.RESOURCE_EXHAUSTED,
  unavailable: status.UNAVAILABLE,
};

/** The SubagentService: every call authenticated, checked, then handed to the same parts /spawn and /orchestrate use. */
export function subagentHandlers(deps: ApiDeps): SubagentServiceHandlers {
  const { subagents, orchestrator } = deps;
  const { registry } = subagents;

  // Another chat's run is answered exactly as an unknown one: no oracle for ids outside the scope.
  const run = (id: string, client: string) => {
    if (!RUN_ID.test(id))
      throw new ApiError(status.INVALID_ARGUMENT, `subagent_id: expected a run id (letters, digits, "_" and "-"), got "${id.slice(0, 80)}"`);
    const found = registry.get(id);
    if (!found || !deps.scopes.reaches(client, found.chat))
      throw new ApiError(status.NOT_FOUND, `no subagent run ${id} (ended runs are kept for a while, then archived)`);
    return found;
  };

  return {
    SpawnSubagent: unary(deps, async (request, client) => {
      if (Object.keys(request.env).length) throw new ApiError(status.INVALID_ARGUMENT, 'env: not supported; a run has the bridge’s environment for its CLI');
      text('prompt', request.prompt, true);
      text('name', request.name, false, LIMITS.name);
      const address = namedChat(deps, request.chat);
      mayActIn(deps, client, address);
      const cwd = await directory(deps, request.workingDirectory);
      const intent: SpawnIntent = {
        task: request.prompt,
        ...(request.name ? { label: request.name } : {}),
        ...(request.cli ? { cli: request.cli } : {}),
        ...(request.model ? { model: request.model } : {}),
        ...(request.agent ? { agent: request.agent } : {}),
        ...(request.timeoutSeconds ? { timeoutSeconds: request.timeoutSeconds } : {}),
        ...tools(request.allowedTools, request.disallowedTools, request.autoApprovePermissions),
        ...(request.maxTurns ? { maxTurns: positive('max_turns', request.maxTurns) } : {}),
        ...(request.ask ? { ask: true } : {}),
        ...(request.worktree ? { worktree: true } : {}),
      };
      const result = await subagents.spawner.spawn(intent, {
        address,
        requester: { kind: 'api', client },
        cwd,
        cli: deps.config.defaultCli,
        depth: 0,
        ...(request.parentSessionId ? { requesterSessionId: request.parentSessionId } : {}),
      });
      if (!result.ok) throw new ApiError(REFUSAL_CODES[result.refusal ?? 'invalid'], result.error);
      return { subagentId: result.run.runId, sessionId: result.run.childSessionId ?? '', number: result.run.number, queuePosition: result.queuePosition };
    }),

    SendToSubagent: unary(deps, async (request, client) => {
      text('text', request.text, true);
      const target = run(request.subagentId, client);
      const sent = await registry.send(target.runId, request.text, `API client ${client}`);
      if (!sent.ok) throw new ApiError(status.FAILED_PRECONDITION, sent.error);
      const { delivery, messageId } = sent;
      return {
        pending: delivery.via === 'next_turn' ? delivery.waiting : 0,
        delivery: apiDelivery(delivery.via),
        messageId: delivery.via === 'next_turn' ? '' : messageId,
      };
    }),

    CancelSubagent: unary(deps, async (request, client) => {
      const target = run(request.subagentId, client);
      const cancelled = await registry.stop(target.runId, `API client ${client}`);
      return { cancelled, run: subagentInfo(registry.get(target.runId)!, deps.config.bareNumbers) };
    }),

    ListSubagents: unary(deps, async (request, client) => {
      const chosen = request.chat ? chatKey(namedChat(deps, request.chat)) : undefined;
      const runs = subagents.store
        .all()
        .filter((r) => deps.scopes.reaches(client, r.chat) && (chosen === undefined || r.requesterKey === chosen) && (!request.activeOnly || isActive(r)))
        .sort((a, b) => a.createdAt - b.createdAt);
      return { runs: runs.map((r) => subagentInfo(r, deps.config.bareNumbers)) };
    }),

    RevokeAutoApprove: unary(deps, async (request, client) => {
      const target = run(request.subagentId, client);
      return { revoked: await registry.revokeAutoApprove(target.runId, `API client ${client}`) };
    }),

    CreateOrchestration: unary(deps, async (request, client) => {
      if (request.steps.length > LIMITS.steps) throw new ApiError(status.INVALID_ARGUMENT, `steps: at most ${LIMITS.steps}, got ${request.steps.length}`);
      text('name', request.name, false, LIMITS.name);
      const strategy = strategyOf(request.strategy);
      const steps: PlanStep[] = request.steps.map((step, i) => {
        const where = `steps[${i}]`;
        text(`${where}.prompt`, step.prompt, true);
        if (step.workingDirectory)
          throw new ApiError(status.INVALID_ARGUMENT, `${where}.working_directory: not supported per step; steps work in the plan's chat directory`);
        return {
          id: step.id,
          name: step.name || step.id,
          prompt: step.prompt,
          ...(step.cli ? { cli: step.cli } : {}),
          ...(step.model ? { model: step.model } : {}),
          ...(step.agent ? { agent: step.agent } : {}),
          worktree: false,
          depends_on: step.dependsOn,
          ...tools(step.allowedTools, [], step.autoApprovePermissions),
          ...(step.maxTurns ? { maxTurns: positive(`${where}.max_turns`, step.maxTurns) } : {}),
        };
      });
      let plan: Plan;
      try {
        plan = validatePlan({ strategy, steps, ...(request.name ? { name: request.name } : {}) });
      } catch (error) {
        if (error instanceof PlanError) throw new ApiError(status.INVALID_ARGUMENT, error.message);
        throw error;
      }
      const address = namedChat(deps, request.chat);
      mayActIn(deps, client, address);
      const created = await orchestrator.create(plan, {
        address,
        requester: { kind: 'api', client },
        cwd: deps.config.workdir,
        cli: deps.config.defaultCli,
        depth: 0,
      });
      if (!created.ok) throw new ApiError(status.INVALID_ARGUMENT, created.error);
      return { orchestrationId: created.record.id, number: created.record.number };
    }),

    WatchSubagent: streaming(deps, async (call, client) => {
      const { fromSequence } = call.request;
      await watchRun(subagents, run(call.request.subagentId, client), Number(fromSequence), call, deps.config.bareNumbers);
    }),

    WatchOrchestration: streaming(deps, async (call, client) => {
      const id = call.request.orchestrationId;
      const found = RUN_ID.test(id) ? orchestrator.get(id) : undefined;
      if (!found || !deps.scopes.reaches(client, found.chat)) throw new ApiError(status.NOT_FOUND, `no orchestration ${id.slice(0, 80)}`);
      await watchOrchestration(orchestrator, id, call);
    }),
  };
}

function positive(field: string, value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > 1000)
    throw new ApiError(status.INVALID_ARGUMENT, `${field}: a whole number from 1 to 1000, got ${value}`);
  return value;
}

function tools(allowed: string[], denied: string[], autoApprove: boolean): Pick<SpawnIntent, 'allow' | 'deny' | 'autoApprove'> {
  for (const [field, list] of [
    ['allowed_tools', allowed],
    ['disallowed_tools', denied],
  ] as const) {
    if (list.length > LIMITS.tools) throw new ApiError(status.INVALID_ARGUMENT, `${field}: at most ${LIMITS.tools} tools`);
    const bad = list.find((tool) => !tool.trim() || tool.length > LIMITS.toolName);
    if (bad !== undefined) throw new ApiError(status.INVALID_ARGUMENT, `${field}: "${bad.slice(0, 80)}" is not a tool name or rule`);
  }
  if (autoApprove && !allowed.length)
    throw new ApiError(status.INVALID_ARGUMENT, 'INVALID_PERMISSION_CONFIG: auto_approve_permissions requires non-empty allowed_tools');
  return { ...(allowed.length ? { allow: allowed } : {}), ...(denied.length ? { deny: denied } : {}), ...(autoApprove ? { autoApprove: true } : {}) };
}

async function directory(deps: ApiDeps, wanted: string): Promise<string> {
  if (!wanted) return deps.config.workdir;
  const resolved = await resolveDirectory(deps.config.workdir, wanted, deps.config);
  if (!resolved.ok) throw new ApiError(status.INVALID_ARGUMENT, `working_directory: ${resolved.error}`);
  return resolved.dir;
}

function strategyOf(value: string | number): Strategy {
  const name = String(value)
    .replace(/^ORCHESTRATION_STRATEGY_/, '')
    .toLowerCase();
  if (name === 'unspecified' || name === '0') return 'dag';
  if ((STRATEGIES as readonly string[]).includes(name)) return name as Strategy;
  throw new ApiError(status.INVALID_ARGUMENT, `strategy: expected PARALLEL, SEQUENTIAL or DAG, got ${value}`);
}
