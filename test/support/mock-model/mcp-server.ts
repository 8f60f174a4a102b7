// An in-process MCP server over Streamable HTTP, so tests can hand a CLI an MCP
// tool without spawning anything and can see each call it makes.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface MockMcpTool {
  name: string;
  description?: string;
  /** The tool's text result; defaults to echoing the `text` argument. */
  reply?: (args: { text?: string }) => string;
}

export interface MockMcpCall {
  tool: string;
  args: { text?: string };
}

export interface MockMcpServer {
  /** Streamable HTTP endpoint, e.g. `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  readonly calls: MockMcpCall[];
  close(): Promise<void>;
}

function buildServer(name: string, tools: MockMcpTool[], calls: MockMcpCall[]): McpServer {
  const server = new McpServer({ name, version: '1.0.0' });
  for (const tool of tools) {
    server.registerTool(tool.name, { description: tool.description ?? `Mock tool ${tool.name}`, inputSchema: { text: z.string().optional() } }, (args) => {
      calls.push({ tool: tool.name, args });
      const text = tool.reply ? tool.reply(args) : `echo: ${args.text ?? ''}`;
      return { content: [{ type: 'text', text }] };
    });
  }
  return server;
}

export async function startMockMcpServer(options: { name?: string; tools: MockMcpTool[] }): Promise<MockMcpServer> {
  const calls: MockMcpCall[] = [];
  const name = options.name ?? 'mock-mcp';

  // Stateless mode: the SDK wants a fresh server and transport per HTTP request.
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const server = buildServer(name, options.tools, calls);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    close: () =>
      new Promise<void>((resolve, reject) => {
        http.close((error) => (error ? reject(error) : resolve()));
        http.closeAllConnections();
      }),
  };
}
