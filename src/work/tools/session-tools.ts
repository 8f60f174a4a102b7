import { rmSync } from 'node:fs';
import { agentReadableFolder } from '../../engine/process/agent-space.ts';
import type { ChatRef } from '../../kernel/ports/chat.ts';
import type { McpAccess, TurnOptions } from '../../engine/adapters/turn-options.ts';
import type { Adapter } from '../../engine/adapters/load.ts';
import type { EngineSettings } from '../../engine/engine-settings.ts';
import type { SubagentRunRecord } from '../subagents/record.ts';
import { MCP_SERVER_NAME, type Grant, type McpEndpoint } from './mcp-endpoint.ts';
import type { ToolScope } from './scope.ts';
import { toolsGranted } from './index.ts';
import { askerId, mainAsker } from '../approvals/asker.ts';
import type { GrantHolder } from '../approvals/session-grants.ts';
import { canRunLive } from '../../engine/adapters/live.ts';
import { mcpAccessFor } from './mcp-config.ts';
import type { PermissionMode } from '../../kernel/policy/permission-mode.ts';
import type { McpServerConfig } from '../../engine/agents/mcp-servers.ts';
import type { AgentLibrary } from '../../engine/agents/library.ts';

/** What main sessions are told about the tools (appended to the CLI's own system prompt). */
export const MAIN_SESSION_PROMPT = [
  'You are running inside jsonl-bridge, which relays this conversation to a chat.',
  `You can delegate self-contained work to background subagents with the ${MCP_SERVER_NAME} MCP server's spawn_subagent tool: each runs in parallel in the same working directory, and its result comes back to you by itself as a new message later. Use list_subagents, subagent_status, subagent_log and stop_subagent to manage them.`,
  `To show the user a file you made or found (a chart, a screenshot, a patch), send it to the chat with send_file; files the user sends you are saved under .bridge/inbox/ and named in their message.`,
  `To come back to something later (look at CI again in 20 minutes), set yourself a follow-up with schedule: its prompt returns to you as a new message then.`,
].join('\n');

/** A main session asking for its tools: its chat, its CLI, its CLI session id as it is now, and how it treats permissions. */
export interface MainSession extends Pick<ToolScope, 'address' | 'sessionId' | 'turnBy'> {
  adapter: Adapter;
  /** What the session runs with on its CLI (`ask` only where the CLI can ask: see effectiveMode). */
  mode: PermissionMode;
  /** The tools waiting for the chat's answer, for the turn's progress message. */
  onApprovalWaiting?: (tools: string[]) => void;
  /** Whom "Allow for this session" covers in the turn at work: its typist, or none (see Asker). */
  grantHolder?: () => GrantHolder | undefined;
  /** Where it works: the agents of this directory are the ones it may name. */
  workdir: string;
}

export interface SessionToolsOptions {
  endpoint: McpEndpoint;
  config: Pick<EngineSettings, 'adapters' | 'dataDir'>;
  /** manifest.json `settings.subagents.maxDepth`: how deep runs may spawn runs. */
  maxDepth: number;
  /**
   * How long the CLI waits for one call of the bridge's tools: longer than a question may stay
   * open (Claude Code gives up on a tool call after 60 s unless told otherwise, and would treat
   * an answer given later as lost).
   */
  toolTimeoutMs: number;
  /** A session's secret stopped working (its run ended, or a chat started a new session): named by its asker id. */
  onRevoked?: (name: string) => void;
  /** The agents spawn_subagent may name, listed in its description for CLIs without a Task tool to hand them to. */
  agents?: AgentLibrary;
}

/**
 * The bridge's tools, handed to each session that gets them: a secret of its own on the MCP
 * endpoint and the config its CLI reads it from, for each main session and for subagents
 * that may spawn or must ask for approvals.
 */
export class SessionTools {
  private readonly grants = new Map<string, { grant: Grant; configFile?: string }>();
  /** Where the CLIs' MCP config files go, made at the first one (see agentReadableFolder). */
  private configDir: string | undefined;

  constructor(private readonly options: SessionToolsOptions) {}

  /**
   * The main session of a chat: the tools, and a word about them in its system prompt. A
   * session that asks also gets the permission tool; one that may only read gets no tools,
   * since a run it started could do more than it.
   */
  forMainSession(session: MainSession): Pick<TurnOptions, 'mcp' | 'systemPrompt'> {
    const { adapter, address, mode } = session;
    const name = askerId.main(address);
    if (mode === 'safe') {
      this.revoke(name);
      return {};
    }
    const asks = mode === 'ask';
    const scope: ToolScope = {
      address,
      depth: 0,
      kind: 'main',
      sessionId: session.sessionId,
      turnBy: session.turnBy,
      // A CLI with a control channel asks the bridge there, not through the permission tool.
      tools: toolsGranted('delegate', 'main', 'everyone', ...(asks && !canRunLive(adapter) ? (['approve'] as const) : [])),
      agentsNote: this.agentsNote(adapter, session.workdir),
      asker: asks
        ? () => {
            const holder = session.grantHolder?.();
            return mainAsker(address, adapter.name, {
              onWaiting: session.onApprovalWaiting,
              ...(holder ? { grantHolder: holder, startedBy: `${address.transport}:${holder.person}` } : {}),
            });
          }
        : undefined,
    };
    const mcp = this.mcpFor(adapter, name, scope);
    return {
      mcp,
      ...(mcp && adapter.options.systemPrompt ? { systemPrompt: MAIN_SESSION_PROMPT } : {}),
    };
  }

  /**
   * A subagent gets send_file, the delegation tools only while the depth limit allows it to
   * spawn, and the permission tool only when its calls are to be approved.
   */
  forSubagent(run: SubagentRunRecord, reuse?: string): McpAccess | undefined {
    // A read-only run gets none, like a safe main session: a run it started could do more than it.
    if (run.policy?.readOnly) return undefined;
    const spawn = run.depth < this.options.maxDepth;
    const approvals = run.policy?.approvals === true;
    const adapter = this.options.config.adapters.get(run.cli);
    if (!adapter) return undefined;
    const tools = toolsGranted('everyone', ...(spawn ? (['delegate'] as const) : []), ...(approvals ? (['approve'] as const) : []));
    return this.mcpFor(
      adapter,
      askerId.run(run.runId),
      {
        address: run.chat,
        depth: run.depth,
        kind: 'subagent',
        runId: run.runId,
        tools,
        sessionId: () => run.childSessionId,
        agentsNote: this.agentsNote(adapter, run.cwd),
      },
      run.mcpServers,
      reuse,
    );
  }

  /** For a CLI that cannot take agents into its own Task tool: they are named in spawn_subagent's description instead. */
  private agentsNote(adapter: Adapter, workdir: string): ToolScope['agentsNote'] {
    const { agents } = this.options;
    if (!agents || adapter.options.agents) return undefined;
    return async () => {
      const usable = (await agents.catalog(workdir)).agents.filter((agent) => agent.enabled);
      if (!usable.length) return undefined;
      return `Agents you can name in "agent" (each runs with its own prompt, tools and model): ${usable.map((agent) => `${agent.slug} (${agent.description})`).join('; ')}.`;
    };
  }

  /** The bridge is stopping, its CLIs stopped: their config files go. */
  close(): void {
    if (this.configDir) rmSync(this.configDir, { recursive: true, force: true });
    this.configDir = undefined; // a session granted late (a turn starting as the bridge stops) makes a new one
  }

  /** A chat's session is closed (`/new`): its secret stops working and its config file goes. */
  releaseMain(address: ChatRef): void {
    this.revoke(askerId.main(address));
  }

  /** A run has ended: its secret stops working and its config file goes. */
  release(runId: string): void {
    this.revoke(askerId.run(runId));
  }

  /**
   * A fresh secret for each session (a main session's `/new` gets a new one, the old one
   * stops working), in a 0600 config file for CLIs that read one. Sessions are created
   * rarely and synchronously: the small file is written in step.
   */
  private mcpFor(adapter: Adapter, name: string, scope: ToolScope, others?: Record<string, McpServerConfig>, reuse?: string): McpAccess | undefined {
    if (!adapter.options.mcp) return undefined;
    this.revoke(name);
    const grant = this.options.endpoint.grant(scope, reuse);
    const dir = (this.configDir ??= agentReadableFolder('mcp'));
    const mcp = mcpAccessFor(adapter, { url: grant.url, serverName: MCP_SERVER_NAME, token: grant.token }, dir, name, this.options.toolTimeoutMs, others);
    this.grants.set(name, { grant, configFile: mcp.configFile });
    return mcp;
  }

  private revoke(name: string): void {
    const held = this.grants.get(name);
    if (!held) return;
    held.grant.revoke();
    if (held.configFile) rmSync(held.configFile, { force: true });
    this.grants.delete(name);
    this.options.onRevoked?.(name);
  }
}
