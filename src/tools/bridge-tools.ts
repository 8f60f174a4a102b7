import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Bridge } from '../bridge/bridge.ts';
import type { ChatSession } from '../bridge/chat-session.ts';
import { spawnedText, stopButton } from '../chat/render/runs.ts';
import { chatKey } from '../chat/transport.ts';
import type { TurnSpec } from '../adapters/argv.ts';
import type { Adapter } from '../adapters/load.ts';
import type { BridgeConfig } from '../config/config.ts';
import type { SessionConfig } from '../session/session.ts';
import { runAddress, type SubagentRunRecord } from '../subagents/record.ts';
import type { Subagents } from '../subagents/subagents.ts';
import type { Orchestrator } from '../orchestration/orchestrator.ts';
import { AgentInbox } from './agent-inbox.ts';
import { MCP_SERVER_NAME, McpEndpoint, type Grant } from './mcp-endpoint.ts';
import { AGENT_TOOLS, APPROVAL_TOOL, type ToolScope } from './scope.ts';
import { ToolCalls } from './tool-calls.ts';

/** What main sessions are told about the tools (appended to the CLI's own system prompt). */
export const MAIN_SESSION_PROMPT = [
  'You are running inside jsonl-bridge, which relays this conversation to a chat.',
  `You can delegate self-contained work to background subagents with the ${MCP_SERVER_NAME} MCP server's spawn_subagent tool: each runs in parallel in the same working directory, and its result comes back to you by itself as a new message later. Use list_subagents, subagent_status, subagent_log and stop_subagent to manage them.`,
].join('\n');

/**
 * The tools part, wired in: the MCP endpoint, a secret and an MCP config for each main
 * session (and for subagents allowed to spawn), results handed back as new turns.
 */
export class BridgeTools {
  private readonly grants = new Map<string, Grant>();

  private constructor(
    readonly endpoint: McpEndpoint,
    private readonly config: BridgeConfig,
  ) {}

  static async start(config: BridgeConfig, bridge: Bridge, subagents: Subagents, orchestrator: Orchestrator): Promise<BridgeTools> {
    const announceTo = config.settings.subagents.announceTo;
    const calls = new ToolCalls(
      config,
      subagents,
      (run, position) => {
        // People see what the agent started, and can stop it, like any /spawn.
        const to = runAddress(run);
        void bridge.out.send(to, spawnedText(run, position, true), { buttons: [[stopButton(run)]] }).catch(() => {});
      },
      (scope) => bridge.chats.get(scope.address).record.workdir,
      orchestrator,
    );
    const endpoint = new McpEndpoint(calls);
    await endpoint.listen();
    const tools = new BridgeTools(endpoint, config);
    const inbox = new AgentInbox(bridge, announceTo === 'both');
    subagents.agentDelivery = (runs) => inbox.deliver(runs);
    subagents.registry.toolsFor = (run) => tools.forSubagent(run);
    bridge.chats.extras = (chat) => tools.forMainSession(chat);
    return tools;
  }

  /** The main session of a chat: the tools, and a word about them in its system prompt. */
  forMainSession(chat: ChatSession): Partial<SessionConfig> {
    const adapter = chat.adapter;
    const key = chatKey(chat.address);
    const scope: ToolScope = { address: chat.address, depth: 0, kind: 'main', sessionId: () => chat.record.cliSessionId, tools: AGENT_TOOLS };
    const mcp = this.mcpFor(adapter, `main-${key}`, scope);
    return {
      ...(mcp ? { mcp } : {}),
      ...(mcp && adapter.options.systemPrompt ? { systemPrompt: MAIN_SESSION_PROMPT } : {}),
    };
  }

  /**
   * A subagent gets the delegation tools only while the depth limit allows it to spawn, and
   * the permission tool only when its calls are to be approved.
   */
  forSubagent(run: SubagentRunRecord): TurnSpec['mcp'] | undefined {
    const spawn = run.depth < this.config.settings.subagents.maxDepth;
    const approvals = run.policy?.approvals === true;
    if (!spawn && !approvals) return undefined;
    const adapter = this.config.adapters.get(run.cli);
    if (!adapter) return undefined;
    const tools = new Set([...(spawn ? AGENT_TOOLS : []), ...(approvals ? [APPROVAL_TOOL] : [])]);
    const address = runAddress(run);
    return this.mcpFor(adapter, `run-${run.runId}`, { address, depth: run.depth, kind: 'subagent', runId: run.runId, tools, sessionId: () => run.childSessionId });
  }

  async close(): Promise<void> {
    await this.endpoint.close();
  }

  /** Sessions are created synchronously and rarely: the small config file is written in step. */
  private mcpFor(adapter: Adapter, name: string, scope: ToolScope): TurnSpec['mcp'] | undefined {
    if (!adapter.options.mcp) return undefined;
    let grant = this.grants.get(name);
    if (!grant) {
      grant = this.endpoint.grant(scope);
      this.grants.set(name, grant);
    }
    const mcp: NonNullable<TurnSpec['mcp']> = { url: grant.url, serverName: MCP_SERVER_NAME, token: grant.token };
    if (adapter.mcpConfigFormat === 'claude-json') {
      const dir = join(this.config.dataDir, 'mcp');
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      mcp.configFile = join(dir, `${name.replace(/[^\w-]/g, '_')}.json`);
      writeFileSync(mcp.configFile, JSON.stringify({ mcpServers: { [MCP_SERVER_NAME]: { type: 'http', url: grant.url } } }, null, 2), { mode: 0o600 });
    }
    return mcp;
  }
}
