// The bridge's MCP server over stdio, for an agent that takes no MCP server over http (ACP
// promises stdio only): `node dist/server/mcp-stdio-relay.js <url>`, with the session's secret
// in JSONL_BRIDGE_MCP_TOKEN (never in argv, which `ps` shows). Each message on stdin goes to the
// bridge's Streamable HTTP endpoint as the http path's would, each answer back to stdout; the
// SDK's two transports do the speaking, this file only joins them. The build makes it one file
// with the SDK inside, so an agent's walls need show nothing else of the bridge.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { Agent, fetch as undiciFetch } from 'undici';
import { MCP_TOKEN_VARIABLE } from './engine/adapters/turn-options.ts';

const NAME = 'jsonl-bridge mcp relay';

/**
 * The bridge answers a tool's call when the tool ends, and one may wait many minutes for a
 * person's approval (approvalTimeoutSeconds in manifest.json); Node's own fetch gives up after 300 s
 * with no headers. How long to wait is the agent's MCP client's to decide, not the relay's.
 */
const patient = new Agent({ headersTimeout: 0, bodyTimeout: 0 });
const patientFetch = ((input, init) => undiciFetch(input, { ...init, dispatcher: patient })) as FetchLike;

/** The usage error's exit code (sysexits' EX_USAGE); the bridge unreachable is 1. */
const EX_USAGE = 64;

function main(): void {
  const token = process.env[MCP_TOKEN_VARIABLE];
  const url = parsedUrl(process.argv[2]);
  if (!url || !token) {
    const missing = !url
      ? `the bridge's MCP endpoint as its argument (got ${JSON.stringify(process.argv[2] ?? '')})`
      : `the session's secret in ${MCP_TOKEN_VARIABLE}`;
    process.stderr.write(`${NAME}: needs ${missing}; the bridge starts it so for an agent without MCP over http\n`);
    process.exit(EX_USAGE);
  }
  const endpoint = url.href;
  const agent = new StdioServerTransport();
  const bridge = new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } }, fetch: patientFetch });
  /** The id of the agent's `initialize`: its answer names the protocol version the later requests carry. */
  let initializeId: string | number | undefined;

  agent.onmessage = (message) => {
    if ('method' in message && message.method === 'initialize' && 'id' in message) initializeId = message.id;
    bridge.send(message).catch((error: unknown) => unreachable(message, error));
  };
  bridge.onmessage = (message) => {
    if ('id' in message && message.id === initializeId && 'result' in message && typeof message.result.protocolVersion === 'string') {
      bridge.setProtocolVersion(message.result.protocolVersion);
    }
    void agent.send(message);
  };
  // A failed send is told by its rejection (above); a stream of its own the bridge (stateless) declines loses nothing.
  bridge.onerror = () => {};
  agent.onerror = (error) => process.stderr.write(`${NAME}: ${error.message}\n`);
  // The agent closed its end (the SDK's stdio transport does not watch for that): done.
  process.stdin.once('end', () => void agent.close());
  agent.onclose = () => void bridge.close().finally(() => process.exit(0));

  /** The bridge cannot be reached, or refused the secret: the request is answered so, and the relay ends, saying why on stderr. */
  function unreachable(message: JSONRPCMessage, error: unknown): void {
    const refused = error instanceof StreamableHTTPError && error.code === 401;
    const why = refused
      ? `the bridge's MCP endpoint at ${endpoint} refused the session's secret (it has ended, or ${MCP_TOKEN_VARIABLE} is not its own)`
      : `cannot reach the bridge's MCP endpoint at ${endpoint}: ${said(error)}`;
    process.stderr.write(`${NAME}: ${why}\n`);
    const answer =
      'method' in message && 'id' in message ? agent.send({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: why } }) : Promise.resolve();
    void answer.finally(() => process.exit(1));
  }

  void bridge.start().then(() => agent.start());
}

function parsedUrl(text = ''): URL | undefined {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  return url && /^https?:$/.test(url.protocol) ? url : undefined;
}

/** An error's words, with its cause's (fetch's "fetch failed" says nothing of why). */
function said(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause && !error.message.includes(cause) ? `${error.message} (${cause})` : error.message;
}

main();
