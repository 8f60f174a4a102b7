#!/usr/bin/env node
// A stand-in ACP agent (the Agent Client Protocol on stdio), built on the SDK's agent side and
// driven by directives in its prompt, as test/fake-cli/fake-agent.mjs is, so a test can make it
// misbehave on purpose:
//
//   (none)            answer "acp echo: <prompt> (turn N)" in two chunks, with a usage_update costing $0.01 a turn
//                     (`$FAKE_ACP_NAME echo: …` where that is set: which agent of several answered)
//   bash:CMD          one `execute` tool call of CMD (`+` for a space), asked about with
//                     session/request_permission first; answer "ran: CMD" or "denied: CMD"
//   ask-first         with bash: the permission request comes with no tool_call before it (as Gemini's)
//   plan              a plan of two entries before the answer
//   sleep:S           work S seconds before answering; a session/cancel ends it at once (stopReason cancelled)
//   ask-after-cancel  wait for session/cancel, then ask permission for `rm -rf /` all the same, and log the answer
//   crash             one chunk, then exit 3 with a line on stderr, mid-turn
//   garbage           non-JSON lines and a stray JSON line on stdout, then the answer
//   unknown-request   send the client a request it does not know (`x/unknown`) and answer what came back
//   prompt-count      answer how many session/prompt requests this process has had at once, at most
//   stream:N          answer N paragraphs, one chunk every 400 ms (each paragraph in two chunks)
//   /memory, /compress  its own commands (listed in available_commands_update once a session opens): "ran its own /NAME"
//   mcp-spawn:TASK    start the stdio MCP server its session was given (with the MCP SDK's stdio client, as agents do),
//                     list its tools and call spawn_subagent with TASK (`+` for a space); answer "mcp over stdio:
//                     <tools>; <the call's answer>", or "mcp over stdio failed: …" with the server's stderr; the
//                     server's argv (from /proc) is logged as {event: 'mcp-stdio', argv}
//
// A session opens in its `default` mode (FAKE_ACP_MODE: another); `plan` and `auto` are offered
// beside it (session/set_mode, logged).
// A session/load replays the session's past (each prompt as a user_message_chunk, an answer to it as an
// agent_message_chunk) before it answers, and one more chunk of it after, as agents do.
//
// Environment: FAKE_ACP_LOG (a JSONL file each request and outcome is appended to),
// FAKE_ACP_STATE (a folder where sessions are kept, so session/load works across processes),
// FAKE_ACP_NO_INIT (never answer initialize), FAKE_ACP_REFUSE_LOAD (refuse session/load), FAKE_ACP_NAME (the name its echo answers in),
// FAKE_ACP_MODE (the mode its sessions open in), FAKE_ACP_NO_HTTP_MCP (it declares no MCP over http: only stdio).
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import * as acp from '@agentclientprotocol/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const log = (entry) => process.env.FAKE_ACP_LOG && appendFileSync(process.env.FAKE_ACP_LOG, JSON.stringify({ pid: process.pid, ...entry }) + '\n');
const state = process.env.FAKE_ACP_STATE;
if (state) mkdirSync(state, { recursive: true });
const sessionFile = (id) => join(state ?? '/nonexistent', `${id}.json`);
const sessions = new Map();
/** The MCP servers each session was given, by its id. */
const mcpServersOf = new Map();
const cancels = new Map();
let atOnce = 0;
let most = 0;

function saveSession(id, turns) {
  sessions.set(id, turns);
  if (state) writeFileSync(sessionFile(id), JSON.stringify(turns));
}

const directive = (prompt, name) => {
  const match = new RegExp(`(?:^|\\s)${name}(?::(\\S+))?(?=\\s|$)`).exec(prompt);
  return match ? (match[1] ?? true) : undefined;
};

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve(true)), { once: true });
  });

/** Its modes, as Gemini CLI, Qwen Code and Claude's adapter offer theirs: `plan` reads and changes nothing, `auto` allows what it deems safe. */
const MODES = {
  currentModeId: process.env.FAKE_ACP_MODE ?? 'default',
  availableModes: [
    { id: 'default', name: 'Default', description: 'Asks before it changes anything' },
    { id: 'plan', name: 'Plan', description: 'Reads and plans; changes nothing' },
    { id: 'auto', name: 'Auto', description: 'Allows what it deems safe' },
  ]
    .filter((mode) => !(process.env.FAKE_ACP_NO_DEFAULT && mode.id === 'default'))
    // Named by URL, as Copilot names its own (`…#agent` is its `default`): FAKE_ACP_URL_MODES.
    .map((mode) => (process.env.FAKE_ACP_URL_MODES ? { ...mode, id: urlMode(mode.id) } : mode)),
};
function urlMode(id) {
  return `https://agentclientprotocol.com/protocol/session-modes#${id === 'default' ? 'agent' : id}`;
}

const app = acp
  .agent({ name: 'fake-acp' })
  .onRequest('initialize', async ({ params }) => {
    log({ method: 'initialize', clientCapabilities: params.clientCapabilities });
    if (process.env.FAKE_ACP_NO_INIT) return new Promise(() => {});
    return {
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: { loadSession: true, mcpCapabilities: { http: !process.env.FAKE_ACP_NO_HTTP_MCP } },
      authMethods: [{ id: 'fake-key', name: 'a fake key' }],
    };
  })
  .onRequest('authenticate', ({ params }) => {
    log({ method: 'authenticate', methodId: params.methodId });
    return {};
  })
  .onRequest('session/new', ({ params, client }) => {
    const sessionId = randomUUID();
    log({ method: 'session/new', sessionId, cwd: params.cwd, mcpServers: params.mcpServers });
    mcpServersOf.set(sessionId, params.mcpServers);
    saveSession(sessionId, []);
    setTimeout(() => void listCommands(sessionId, client));
    return { sessionId, modes: MODES };
  })
  .onRequest('session/load', async ({ params, client }) => {
    const { sessionId } = params;
    log({ method: 'session/load', sessionId, mcpServers: params.mcpServers });
    mcpServersOf.set(sessionId, params.mcpServers);
    if (process.env.FAKE_ACP_REFUSE_LOAD || !state || !existsSync(sessionFile(sessionId))) {
      throw acp.RequestError.invalidParams({}, `No previous sessions found for ${sessionId}`);
    }
    const turns = JSON.parse(readFileSync(sessionFile(sessionId), 'utf8'));
    sessions.set(sessionId, turns);
    const replay = (sessionUpdate, text) => client.notify('session/update', { sessionId, update: { sessionUpdate, content: { type: 'text', text } } });
    for (const turn of turns) {
      await replay('user_message_chunk', turn);
      await replay('agent_message_chunk', `replayed answer to ${turn}. `);
    }
    setTimeout(() => void replay('agent_message_chunk', 'a late replayed chunk. ').then(() => listCommands(sessionId, client)));
    return { modes: MODES };
  })
  .onRequest('session/set_mode', ({ params }) => {
    log({ method: 'session/set_mode', sessionId: params.sessionId, modeId: params.modeId });
    return {};
  })
  .onNotification('session/cancel', ({ params }) => {
    log({ method: 'session/cancel', sessionId: params.sessionId });
    cancels.get(params.sessionId)?.abort();
  })
  .onRequest('session/prompt', async ({ params, client }) => {
    atOnce++;
    most = Math.max(most, atOnce);
    try {
      return await prompt(params, client);
    } finally {
      atOnce--;
    }
  });

async function prompt(params, client) {
  const { sessionId } = params;
  const text = params.prompt.map((block) => (block.type === 'text' ? block.text : '')).join('');
  log({ method: 'session/prompt', sessionId, text });
  const cancel = new globalThis.AbortController();
  cancels.set(sessionId, cancel);
  const turns = sessions.get(sessionId) ?? [];
  saveSession(sessionId, [...turns, text]);
  const update = (u) => client.notify('session/update', { sessionId, update: u });
  const say = async (words) => {
    const half = Math.ceil(words.length / 2);
    await update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: words.slice(0, half) } });
    await update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: words.slice(half) } });
  };
  const cost = async () => update({ sessionUpdate: 'usage_update', used: 1000, size: 100000, cost: { amount: 0.01 * (turns.length + 1), currency: 'USD' } });

  if (directive(text, 'crash')) {
    await say('about to crash');
    process.stderr.write('fake-acp: crashed on purpose\n');
    process.exit(3);
  }
  if (directive(text, 'garbage')) {
    process.stdout.write('this is not json\n{"neither": "is this JSON-RPC"}\n');
  }
  if (directive(text, 'unknown-request')) {
    const came = await client.request('x/unknown', {}).then(
      () => 'answered',
      (error) => `refused (${error.code})`,
    );
    await say(`unknown request: ${came}`);
    await cost();
    return { stopReason: 'end_turn' };
  }
  if (directive(text, 'plan')) {
    await update({
      sessionUpdate: 'plan',
      entries: [
        { content: 'look around', priority: 'high', status: 'completed' },
        { content: 'answer', priority: 'medium', status: 'in_progress' },
      ],
    });
  }
  const sleepFor = directive(text, 'sleep');
  if (sleepFor && (await sleep(Number(sleepFor) * 1000, cancel.signal))) return { stopReason: 'cancelled' };
  if (directive(text, 'ask-after-cancel')) {
    await sleep(600_000, cancel.signal);
    const toolCall = { toolCallId: 'late-1', title: 'rm -rf /', kind: 'execute', status: 'pending', rawInput: { command: 'rm -rf /' } };
    const answer = await client.request('session/request_permission', { sessionId, toolCall, options: OPTIONS });
    log({ event: 'late-permission', outcome: answer.outcome });
    return { stopReason: 'cancelled' };
  }
  const bash = directive(text, 'bash');
  if (typeof bash === 'string') {
    const command = bash.replaceAll('+', ' ');
    const toolCallId = `call-${randomUUID().slice(0, 8)}`;
    const toolCall = { toolCallId, title: command, kind: 'execute', status: 'pending', rawInput: { command } };
    if (!directive(text, 'ask-first')) await update({ sessionUpdate: 'tool_call', ...toolCall });
    const answer = await client.request('session/request_permission', { sessionId, toolCall, options: OPTIONS });
    log({ event: 'permission', outcome: answer.outcome });
    if (answer.outcome.outcome === 'cancelled') return { stopReason: 'cancelled' };
    const allowed = OPTIONS.find((option) => option.optionId === answer.outcome.optionId)?.kind.startsWith('allow') === true;
    await update({
      sessionUpdate: 'tool_call_update',
      toolCallId,
      status: allowed ? 'completed' : 'failed',
      content: [{ type: 'content', content: { type: 'text', text: allowed ? `ran ${command}` : 'denied' } }],
    });
    await say(`${allowed ? 'ran' : 'denied'}: ${command}`);
    await cost();
    return { stopReason: 'end_turn' };
  }
  const task = directive(text, 'mcp-spawn');
  if (typeof task === 'string') {
    await say(await spawnOverStdio(sessionId, task.replaceAll('+', ' ')));
    return { stopReason: 'end_turn' };
  }
  const own = OWN_COMMANDS.find((command) => text.startsWith(`/${command.name}`));
  if (own) {
    await say(`ran its own /${own.name}`);
    return { stopReason: 'end_turn' };
  }
  const paragraphs = Number(directive(text, 'stream') ?? 0);
  for (let i = 1; i <= paragraphs; i++) {
    if (await sleep(400, cancel.signal)) return { stopReason: 'cancelled' };
    await say(`Paragraph ${i} of ${paragraphs}.\n\n`);
  }
  if (paragraphs) return { stopReason: 'end_turn' };
  if (directive(text, 'prompt-count')) {
    await say(`prompts at once: ${most}`);
    return { stopReason: 'end_turn' };
  }
  await say(`${process.env.FAKE_ACP_NAME ?? 'acp'} echo: ${text} (turn ${turns.length + 1})`);
  await cost();
  return { stopReason: 'end_turn' };
}

/** The session's stdio MCP server, started as agents start one: its tools, and a spawn_subagent of `task` through it. */
async function spawnOverStdio(sessionId, task) {
  const server = (mcpServersOf.get(sessionId) ?? []).find((given) => 'command' in given);
  if (!server) return `mcp over stdio: none offered (${JSON.stringify(mcpServersOf.get(sessionId) ?? [])})`;
  const env = Object.fromEntries(server.env.map(({ name, value }) => [name, value]));
  const transport = new StdioClientTransport({ command: server.command, args: server.args, env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => (stderr += chunk));
  const client = new Client({ name: 'fake-acp', version: '1' });
  try {
    await client.connect(transport);
    log({ event: 'mcp-stdio', argv: readFileSync(`/proc/${transport.pid}/cmdline`, 'utf8').split('\0').filter(Boolean) });
    const { tools } = await client.listTools();
    const called = await client.callTool({ name: 'spawn_subagent', arguments: { task, label: 'Relayed' } });
    const answer = called.content.map((part) => part.text ?? '').join('');
    return `mcp over stdio: ${tools.map((tool) => tool.name).join(',')}; ${called.isError ? 'error: ' : ''}${answer}`;
  } catch (error) {
    return `mcp over stdio failed: ${error.message}; its stderr: ${stderr.trim()}`;
  } finally {
    await client.close().catch(() => {});
  }
}

const OWN_COMMANDS = [
  { name: 'memory', description: 'Show what it remembers' },
  { name: 'compress', description: 'Compress the conversation', input: { hint: '[what to keep]' } },
];

const listCommands = (sessionId, client) =>
  client.notify('session/update', { sessionId, update: { sessionUpdate: 'available_commands_update', availableCommands: OWN_COMMANDS } });

const OPTIONS = [
  { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'proceed_always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
];

const connection = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
void connection.closed.then(() => process.exit(0));
