import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolScope } from './scope.ts';
import { sameSecret } from '../../kernel/http/same-secret.ts';
import type { BridgeTool, ToolDeps } from './tool.ts';
import { spawnSubagent } from './definitions/spawn-subagent.ts';
import type { McpListen } from './mcp-listen.ts';
import type { Secrets } from '../../kernel/log/secrets.ts';

/** What the endpoint serves: the tools, and the parts of the bridge they work with. */
export interface ToolHandler {
  tools: readonly BridgeTool[];
  /** Asked at each call: the tools start runs, and runs are given the tools, so these are built after the endpoint. */
  deps: () => ToolDeps;
}

/** The server name agents see: tools arrive as `mcp__bridge__spawn_subagent` in Claude Code. */
export const MCP_SERVER_NAME = 'bridge';

export interface Grant {
  /** Sent as `Authorization: Bearer <token>`. */
  token: string;
  /** The endpoint; the same for every session. */
  url: string;
  revoke: () => void;
}

/**
 * The bridge's MCP endpoint (on 127.0.0.1 unless told otherwise): Streamable HTTP, stateless (a fresh MCP server
 * per request, as the SDK wants), one secret per session. A request without a known
 * secret is refused before any MCP is spoken.
 */
export class McpEndpoint {
  private readonly scopes = new Map<string, ToolScope>();
  /** The bearers granted for another secret's scope (a chat's placement on a worker): revoked with it. */
  private readonly delegates = new Map<string, Set<string>>();

  private constructor(
    private readonly http: HttpServer,
    private readonly calls: ToolHandler,
    private readonly base: string,
    private readonly secrets: Secrets | undefined,
  ) {}

  /** `secrets`: where the sessions' secrets are registered while they live, so no log line shows them. */
  static async listen(calls: ToolHandler, where: McpListen = { host: '127.0.0.1', port: 0 }, secrets?: Secrets): Promise<McpEndpoint> {
    let endpoint: McpEndpoint | undefined;
    const http = createServer((req, res) => {
      endpoint!.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(error) }));
      });
    });
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(where.port, where.host, () => resolve());
    });
    const host = where.host.includes(':') ? `[${where.host}]` : where.host;
    endpoint = new McpEndpoint(http, calls, where.publicUrl ?? `http://${host}:${(http.address() as AddressInfo).port}/mcp`, secrets);
    return endpoint;
  }

  /**
   * A secret for one session, until it is revoked. `reuse`: a secret this endpoint's
   * predecessor granted, still held by a CLI that outlived it (a run on a worker).
   */
  grant(scope: ToolScope, reuse?: string): Grant {
    const token = reuse ?? randomBytes(24).toString('base64url');
    this.scopes.set(token, scope);
    this.secrets?.add(token);
    return {
      token,
      url: this.base,
      revoke: () => {
        this.forget(token);
        for (const bearer of this.delegates.get(token) ?? []) this.forget(bearer);
        this.delegates.delete(token);
      },
    };
  }

  /**
   * `bearer` may do what the secret `token` may, until the returned function revokes it or
   * `token` is revoked: what a worker holding a chat's session is given, never the session's own
   * secret. Undefined when `token` is not granted here.
   */
  delegate(token: string, bearer: string): (() => void) | undefined {
    const scope = this.scopes.get(token);
    if (!scope) return undefined;
    this.scopes.set(bearer, scope);
    this.secrets?.add(bearer);
    const held = this.delegates.get(token) ?? new Set<string>();
    this.delegates.set(token, held.add(bearer));
    return () => {
      if (this.delegates.get(token)?.delete(bearer)) this.forget(bearer);
    };
  }

  private forget(token: string): void {
    this.scopes.delete(token);
    this.secrets?.remove(token);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const scope = this.authenticate(req);
    if (!scope) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unknown or missing session secret' }));
      return;
    }
    const server = await this.serverFor(scope);
    const { StreamableHTTPServerTransport } = await sdkTransport();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  }

  /** `/mcp` with `Authorization: Bearer <token>`: never in the URL, where logs and `ps` would show it. */
  private authenticate(req: IncomingMessage): ToolScope | undefined {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const token = path === '/mcp' ? /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] : undefined;
    if (!token) return undefined;
    for (const [known, scope] of this.scopes) if (sameSecret(known, token)) return scope;
    return undefined;
  }

  /**
   * An MCP server with the tools this scope may use, each checked against its zod schema by
   * the SDK before it runs (a bad call is an error result the agent reads; a tool outside the
   * scope does not exist for it).
   */
  private async serverFor(scope: ToolScope): Promise<McpServer> {
    const { McpServer } = await sdkServer();
    const server = new McpServer({ name: MCP_SERVER_NAME, version: '1.0.0' }, { capabilities: { tools: {} } });
    const note = scope.tools.has(SPAWN_TOOL) ? await scope.agentsNote?.().catch(() => undefined) : undefined;
    for (const tool of this.calls.tools) {
      if (!scope.tools.has(tool.name)) continue;
      const description = tool.name === SPAWN_TOOL && note ? `${tool.description}\n\n${note}` : tool.description;
      server.registerTool(tool.name, { description, inputSchema: tool.input }, async (args: unknown) => {
        const result = await tool.run(args as never, scope, this.calls.deps());
        return { content: [{ type: 'text' as const, text: result.text }], isError: result.isError };
      });
    }
    return server;
  }
}

/**
 * The MCP SDK (and the JSON Schema validator it brings), loaded when the first agent calls a
 * tool: a bridge whose agents never do, and every start, spends nothing on it.
 */
const sdkServer = () => import('@modelcontextprotocol/sdk/server/mcp.js');
const sdkTransport = () => import('@modelcontextprotocol/sdk/server/streamableHttp.js');

/** The tool whose `agent` argument names the agents of the scope's note. */
const SPAWN_TOOL = spawnSubagent.name;
