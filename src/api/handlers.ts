import { status, type sendUnaryData, type ServerUnaryCall, type ServerWritableStream } from '@grpc/grpc-js';
import type { BridgeConfig } from '../config/config.ts';
import { validatePlan } from '../orchestration/validate.ts';
import { PlanError, STRATEGIES, type Plan, type PlanStep, type Strategy } from '../orchestration/plan.ts';
import type { Orchestrator } from '../orchestration/orchestrator.ts';
import { chatKey, isNoChat, wholeChatKey, type ChatRef } from '../ports/transport.ts';
import type { ChatRef as ApiChatRef } from './generated/jsonl_bridge/v1/ChatRef.ts';
import { resolveDirectory } from '../projects/directories.ts';
import { isActive } from '../subagents/record.ts';
import type { Refusal } from '../subagents/spawn-request.ts';
import type { SpawnIntent } from '../subagents/spawner.ts';
import type { Subagents } from '../subagents/subagents.ts';
import type { ApiClients } from './auth.ts';
import type { ApiScopes } from './scopes.ts';
import { chatOf, DELIVERIES, subagentInfo } from './convert.ts';
import type { SubagentServiceHandlers } from './generated/jsonl_bridge/v1/SubagentService.ts';
import { watchOrchestration, watchRun } from './watch.ts';
import type { Log } from '../log/logger.ts';

export interface ApiDeps {
  subagents: Subagents;
  orchestrator: Orchestrator;
  config: Pick<BridgeConfig, 'workdir' | 'projectRoots' | 'defaultCli' | 'bareNumbers'>;
  clients: ApiClients;
  scopes: ApiScopes;
  /** Whether the bot can write to this chat (`wholeChatKey`): someone allowed has talked to it there. */
  reachable: (chat: string) => boolean;
  log: Log;
}

/** A refusal with its gRPC code and a sentence a client's author can act on. */
class ApiError extends Error {
  constructor(
    readonly code: status,
    message: string,
  ) {
    super(message);
  }
}

const LIMITS = { text: 100_000, name: 100, tools: 100, toolName: 200, steps: 50 };
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
      mayStartIn(deps, client, address);
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
        delivery: DELIVERIES[delivery.via],
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
          ...(() => {
            const t = tools(step.allowedTools, [], step.autoApprovePermissions);
            return { ...(t.allow ? { allow: t.allow } : {}), ...(t.autoApprove ? { autoApprove: true } : {}) };
          })(),
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
      mayStartIn(deps, client, address);
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

/** A unary call: authenticated, then answered with the handler's response or its refusal's code. */
function unary<Req, Res>(deps: ApiDeps, handle: (request: Req, client: string) => Promise<Res>) {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => {
    const client = authenticate(deps, call.metadata);
    if (typeof client !== 'string') return callback(client);
    handle(call.request, client).then(
      (response) => callback(null, response),
      (error: unknown) => callback(asServiceError(deps, error)),
    );
  };
}

/** A streaming call: authenticated; the handler writes and returns when the stream is done. */
function streaming<Req, Res>(deps: ApiDeps, handle: (call: ServerWritableStream<Req, Res>, client: string) => Promise<void>) {
  return (call: ServerWritableStream<Req, Res>) => {
    const client = authenticate(deps, call.metadata);
    // An error emitted on the stream is how grpc-js ends it with that status.
    const fail = (failure: { code: status; details: string }) => call.emit('error', Object.assign(new Error(failure.details), failure));
    if (typeof client !== 'string') return fail(client);
    handle(call, client).then(
      () => call.end(),
      (error: unknown) => fail(asServiceError(deps, error)),
    );
  };
}

/** A new run or plan only in a chat of the client's scope, and only where the bot can speak. */
function mayStartIn(deps: ApiDeps, client: string, chat: ChatRef): void {
  if (isNoChat(chat)) return;
  // As the client wrote it: a bare number for the transport whose ids are numbers.
  const named = chat.transport === deps.config.bareNumbers ? chat.chat : wholeChatKey(chat);
  if (!deps.scopes.reaches(client, chat))
    throw new ApiError(status.PERMISSION_DENIED, `chat ${named} is outside the chats BRIDGE_API_SCOPES gives the client "${client}"`);
  if (!deps.reachable(wholeChatKey(chat)))
    throw new ApiError(
      status.FAILED_PRECONDITION,
      `the bot cannot reach chat ${named}: nobody allowed has talked to it there yet (a bot may write only to chats that have talked to it)`,
    );
}

/** The chat a request names, or a refusal saying what was wrong with it. */
function namedChat(deps: ApiDeps, ref: ApiChatRef | null | undefined): ChatRef {
  const chat = chatOf(ref, deps.config.bareNumbers);
  if (!chat) throw new ApiError(status.INVALID_ARGUMENT, `chat: expected "transport:chat" or a number, got "${String(ref?.chat).slice(0, 80)}"`);
  return chat;
}

function authenticate(deps: ApiDeps, metadata: ServerUnaryCall<unknown, unknown>['metadata']): string | { code: status; details: string } {
  if (deps.clients.none) return { code: status.PERMISSION_DENIED, details: 'the API accepts no client: BRIDGE_API_TOKENS is not set on the bridge' };
  const client = deps.clients.identify(metadata);
  return (
    client ?? { code: status.UNAUTHENTICATED, details: 'missing or unknown token: send `authorization: Bearer <token>` with a token from BRIDGE_API_TOKENS' }
  );
}

function asServiceError(deps: ApiDeps, error: unknown): { code: status; details: string } {
  if (error instanceof ApiError) return { code: error.code, details: error.message };
  deps.log.error({ err: error }, 'an API call failed');
  return { code: status.INTERNAL, details: 'the bridge failed to answer; its log says why' };
}

function text(field: string, value: string, required: boolean, max = LIMITS.text): void {
  if (required && !value.trim()) throw new ApiError(status.INVALID_ARGUMENT, `${field}: required`);
  if (value.length > max) throw new ApiError(status.INVALID_ARGUMENT, `${field}: at most ${max} characters, got ${value.length}`);
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
  const resolved = await resolveDirectory(deps.config.workdir, wanted, deps.config.projectRoots);
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
