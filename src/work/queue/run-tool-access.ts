import { rmSync } from 'node:fs';
import type { Adapter } from '../../engine/adapters/load.ts';
import type { McpAccess } from '../../engine/adapters/turn-options.ts';
import type { McpServerConfig } from '../../engine/agents/mcp-servers.ts';
import { agentReadableFolder } from '../../engine/process/agent-space.ts';
import type { Secrets } from '../../kernel/log/secrets.ts';
import { askerId } from '../approvals/asker.ts';
import { mcpAccessFor } from '../tools/mcp-config.ts';

/**
 * The bridge's tools for the runs on a worker: each run's access to the MCP endpoint with its
 * placement's bearer (never shown in a log line), given as its CLI starts and taken back, with
 * its config file, as it leaves (the bridge revokes the bearer then too).
 */
export class RunToolAccess {
  private readonly access = new Map<string, { access: McpAccess; bearer: string }>();
  /** Where the CLIs' MCP config files go, made at the first one. */
  private dir: string | undefined;

  constructor(private readonly secrets: Secrets) {}

  of(runId: string): McpAccess | undefined {
    return this.access.get(runId)?.access;
  }

  grant(
    runId: string,
    adapter: Adapter,
    endpoint: { url: string; serverName: string },
    bearer: string,
    timeoutMs: number,
    servers: Record<string, McpServerConfig> | undefined,
  ): void {
    this.secrets.add(bearer);
    const dir = (this.dir ??= agentReadableFolder('mcp'));
    this.access.set(runId, { access: mcpAccessFor(adapter, { ...endpoint, token: bearer }, dir, askerId.run(runId), timeoutMs, servers), bearer });
  }

  revoke(runId: string): void {
    const held = this.access.get(runId);
    if (!held) return;
    this.access.delete(runId);
    if (held.access.configFile) rmSync(held.access.configFile, { force: true });
    this.secrets.remove(held.bearer);
  }

  /** At the worker's close: the folder of config files goes. */
  close(): void {
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}
