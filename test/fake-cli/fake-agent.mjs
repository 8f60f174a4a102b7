#!/usr/bin/env node
// A stand-in coding-agent CLI speaking Claude's stream-json, driven by directives in its
// prompt so a test (or a chat message in a test) can make it misbehave on purpose:
//
//   sleep:S        wait S seconds (fractions allowed) before answering
//   sleep-once:S   the same, but only the first time this exact prompt runs (a retry is quick)
//   tools:N        make N tool calls before answering (chatty progress)
//   pace:MS        wait MS milliseconds between tool calls
//   huge:MB        one tool result of MB megabytes on a single line
//   garbage        interleave non-JSON lines and unknown events
//   crash:CODE     print to stderr and exit CODE without a result
//   signal:NAME    kill itself with signal NAME
//   silent         exit 0 without a result
//   hang           print nothing more and never exit
//   ignore-term    ignore SIGTERM (so only SIGKILL stops it)
//   grandchild     start a `sleep 600` child in the same process group; its pid goes to stderr
//   fail           answer with an error result
//   say:WORD       answer WORD instead of the echo
//   long:CHARS     answer with about CHARS characters of Markdown paragraphs
//   write:NAME     write a file NAME in the working directory
//   commit         commit everything in the working directory's git repository
//   dirty:NAME     after that, write a file NAME that stays uncommitted
//   wait-for:NAME  wait until a file NAME exists in the working directory (a test's go-ahead)
//   whoami         answer who it runs as and what of the bridge it can read: its uid, its
//                  HOME, `cat /proc/<its parent, the bridge>/environ`, `ls $JSONL_BRIDGE_DATA_DIR`
//                  and `git status` in its directory, each "ok" or its error
//   mcp-check      ask the bridge's MCP server (from --mcp-config) for its tools, again for up
//                  to 20 s while it refuses (a bridge may be starting); answer "mcp: accepted"
//                  or "mcp: refused (STATUS)"
//
// Argv is Claude's: -p PROMPT [--resume ID] [--model M] [--append-system-prompt S] ...
// With `--input-format stream-json`, like Claude Code, it takes messages on standard input
// instead, one turn each, and exits when its input ends: messages that come while a turn
// makes tool calls join that turn (its answer ends with "heard: TEXT"); those that come
// otherwise wait, and those waiting together make one turn. It names each message back
// (`command_lifecycle` queued, started, completed) and lists those a result answered.
// Every run appends {argv, cwd, prompt, resume, pid, envNames, startedAt, agents (what --agents held), mcpServers} to $FAKE_CLI_LOG when set; sessions
// persist under $FAKE_CLI_STATE (default: $TMPDIR) so a resumed turn knows its history.
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
// Like claude (commander): an argument that looks like an option and is not one is an error,
// until `--`, after which everything is text.
const TAKES_VALUE = new Set([
  '--output-format',
  '--resume',
  '--model',
  '--append-system-prompt',
  '--mcp-config',
  '--allowedTools',
  '--disallowedTools',
  '--max-turns',
  '--permission-prompt-tool',
  '--tools',
  '--permission-mode',
  '--agents',
  '--input-format',
  '--setting-sources',
]);
const SWITCHES = new Set(['--verbose', '-p', '--dangerously-skip-permissions', '--strict-mcp-config']);
for (let i = 0; i < args.length && args[i] !== '--'; i++) {
  if (TAKES_VALUE.has(args[i])) i++;
  else if (args[i].startsWith('-') && !SWITCHES.has(args[i])) {
    process.stderr.write(`error: unknown option '${args[i]}'\n`);
    process.exit(1);
  }
}
// Like claude: `-p -- PROMPT`, `-p` alone with a large prompt on standard input, or messages there.
const streamInput = flag('--input-format') === 'stream-json';
const endOfOptions = args.indexOf('--');
const argPrompt = endOfOptions >= 0 ? (args[endOfOptions + 1] ?? '') : args.at(-1) === '-p' && !streamInput ? readFileSync(0, 'utf8') : '';
const resume = flag('--resume');
const directiveIn = (text) => (name) => {
  const match = text.match(new RegExp(`(?:^|\\s)${name}(?::(\\S+))?(?=\\s|$)`));
  return match ? (match[1] ?? true) : undefined;
};

/** Each turn's entry in $FAKE_CLI_LOG: one per invocation, or per message turn with stream-json input (same pid). */
function logTurn(prompt) {
  if (!process.env.FAKE_CLI_LOG) return;
  appendFileSync(
    process.env.FAKE_CLI_LOG,
    JSON.stringify({
      argv: args,
      cwd: process.cwd(),
      prompt,
      resume,
      pid: process.pid,
      envNames: Object.keys(process.env).sort(),
      startedAt: Date.now(),
      // What --agents held: the file is the turn's own and gone once it ends.
      ...(flag('--agents') ? { agents: JSON.parse(readFileSync(flag('--agents'), 'utf8')) } : {}),
      ...(flag('--mcp-config') && existsSync(flag('--mcp-config'))
        ? { mcpServers: Object.keys(JSON.parse(readFileSync(flag('--mcp-config'), 'utf8')).mcpServers) }
        : {}),
    }) + '\n',
  );
}

const stateDir = join(process.env.FAKE_CLI_STATE ?? tmpdir(), 'fake-agent-sessions');
mkdirSync(stateDir, { recursive: true });
const sessionId = resume ?? randomUUID();
const sessionFile = join(stateDir, `${sessionId}.json`);
let history = [];
if (resume) {
  try {
    history = JSON.parse(readFileSync(sessionFile, 'utf8'));
  } catch {
    process.stderr.write(`No conversation found with session ID: ${resume}\n`);
    process.exit(1);
  }
}

const out = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
const sleep = (s) => new Promise((r) => setTimeout(r, s * 1000));
const assistant = (content) => out({ type: 'assistant', message: { role: 'assistant', content }, parent_tool_use_id: null, session_id: sessionId });

/** Messages that came with stream-json input while a turn worked: a turn making tool calls takes them in. */
const arrived = [];
/** Turns this process has run (a cost, like claude's, is the whole process's). */
let turnsHere = 0;
if (streamInput) await serveMessages();
else {
  await turn(argPrompt);
  // Exit once stdout is flushed (a 5 MB line takes a while), even if a grandchild is still running.
  process.stdout.write('', () => process.exit(0));
}

/** One turn of `prompt`; `ids`: the stream-json messages it answers. */
async function turn(prompt, ids = []) {
  const directive = directiveIn(prompt);
  logTurn(prompt);
  turnsHere++;
  if (directive('ignore-term')) process.on('SIGTERM', () => {});
  // Like Claude Code, the session is on disk (with this prompt) before any work starts.
  history.push(prompt);
  writeFileSync(sessionFile, JSON.stringify(history));
  out({ type: 'system', subtype: 'init', session_id: sessionId, model: flag('--model') ?? 'fake-model', cwd: process.cwd(), tools: ['Bash'] });

  if (directive('grandchild')) {
    const child = spawn('sleep', ['600'], { stdio: 'ignore' });
    process.stderr.write(`grandchild ${child.pid}\n`);
    out({ type: 'fake_grandchild', pid: child.pid }); // unknown to the decoder: arrives as a log line
  }
  if (directive('garbage')) {
    process.stdout.write('this is not json\n{"half": \n\u0000\u0001 binary junk\n');
    out({ type: 'totally_new_event', data: { x: 1 } });
  }
  const sleepFor = directive('sleep');
  if (sleepFor) await sleep(Number(sleepFor));
  const sleepOnce = directive('sleep-once');
  if (sleepOnce) {
    const marker = join(stateDir, `slept-${createHash('sha256').update(prompt).digest('hex').slice(0, 16)}`);
    if (!existsSync(marker)) {
      writeFileSync(marker, '');
      await sleep(Number(sleepOnce));
    }
  }
  const tools = Number(directive('tools') ?? 0);
  const pace = Number(directive('pace') ?? 0);
  const heard = [];
  for (let i = 1; i <= tools; i++) {
    if (pace) await sleep(pace / 1000);
    for (const message of arrived.splice(0)) {
      lifecycle(message.id, 'started');
      heard.push(message.text);
      lifecycle(message.id, 'completed');
    }
    const id = `toolu_fake_${i}`;
    assistant([{ type: 'tool_use', id, name: 'Bash', input: { command: `echo step ${i}` } }]);
    out({
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `step ${i}`, is_error: false }] },
      parent_tool_use_id: null,
      session_id: sessionId,
    });
  }
  const huge = directive('huge');
  if (huge) {
    const id = 'toolu_fake_huge';
    assistant([{ type: 'tool_use', id, name: 'Read', input: { file_path: 'big.txt' } }]);
    const content = 'x'.repeat(Math.round(Number(huge) * 1024 * 1024));
    out({
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] },
      parent_tool_use_id: null,
      session_id: sessionId,
    });
  }

  const write = directive('write');
  if (typeof write === 'string') writeFileSync(join(process.cwd(), write), `written by the fake agent\n`);
  if (directive('commit')) {
    const git = (...args) =>
      execFileSync('git', args, {
        cwd: process.cwd(),
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 'Fake',
          GIT_AUTHOR_EMAIL: 'fake@example.com',
          GIT_COMMITTER_NAME: 'Fake',
          GIT_COMMITTER_EMAIL: 'fake@example.com',
        },
      });
    git('add', '-A');
    git('commit', '-q', '-m', 'work of the fake agent');
  }
  const dirty = directive('dirty');
  if (typeof dirty === 'string') writeFileSync(join(process.cwd(), dirty), 'not committed\n');

  // Misbehaviour comes after the work: `tools:3 hang` makes three calls, then hangs.
  if (directive('hang')) {
    // Noted once every line is out: from here on it writes nothing (a reader gone cannot kill it).
    if (process.env.FAKE_CLI_LOG) appendFileSync(`${process.env.FAKE_CLI_LOG}.hanging`, `${process.pid}\n`);
    setInterval(() => {}, 1 << 30);
    await new Promise(() => {});
  }
  const crash = directive('crash');
  if (crash) {
    process.stderr.write('fatal: the fake agent crashed on purpose\n');
    process.exit(Number(crash) || 1);
  }
  const signal = directive('signal');
  if (signal) process.kill(process.pid, signal);
  if (directive('silent')) process.exit(0);

  const waitFor = directive('wait-for');
  if (typeof waitFor === 'string') while (!existsSync(join(process.cwd(), waitFor))) await sleep(0.05);
  let mcpCheck;
  if (directive('mcp-check')) {
    const config = JSON.parse(readFileSync(flag('--mcp-config'), 'utf8'));
    // The bridge's own server, beside the operator's others.
    const server = config.mcpServers.bridge ?? Object.values(config.mcpServers).find((s) => s.url);
    const ask = () =>
      globalThis
        .fetch(server.url, {
          method: 'POST',
          headers: { ...server.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        })
        .then((response) => response.status)
        .catch((error) => error.message);
    const deadline = Date.now() + 20_000;
    let status = await ask();
    while ((status === 401 || typeof status !== 'number') && Date.now() < deadline) {
      await sleep(0.1);
      status = await ask();
    }
    mcpCheck = typeof status === 'number' && status !== 401 ? 'mcp: accepted' : `mcp: refused (${status})`;
  }

  const whoami = directive('whoami') ? whoAmI() : undefined;
  const said = directive('say');
  const long = Number(directive('long') ?? 0);
  const answered = whoami ?? mcpCheck ?? (long ? longMarkdown(long) : typeof said === 'string' ? said : `echo: ${prompt} (turn ${history.length})`);
  const answer = heard.length ? `${answered}\nheard: ${heard.join(' / ')}` : answered;
  const failed = !!directive('fail');
  if (!failed) assistant([{ type: 'text', text: answer }]);
  const emittedAt = Date.now();
  out({
    type: 'result',
    subtype: 'success',
    is_error: failed,
    result: failed ? 'the fake agent failed on purpose' : answer,
    session_id: sessionId,
    num_turns: 1 + tools,
    duration_ms: 5,
    total_cost_usd: 0.001 * turnsHere, // like claude's: the whole process's so far
    usage: { input_tokens: 10, output_tokens: 5 },
    ...(streamInput ? { user_message_uuids: ids } : {}),
  });
  // When the result line went out, for the benchmark that times its way to Telegram.
  if (process.env.FAKE_CLI_LOG) appendFileSync(`${process.env.FAKE_CLI_LOG}.results`, JSON.stringify({ prompt, emittedAt }) + '\n');
}

/** Claude Code's `--input-format stream-json`: a turn per message (those waiting together make one) until input ends. */
async function serveMessages() {
  let ended = false;
  let wake = () => {};
  let carry = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    const lines = (carry + chunk).split('\n');
    carry = lines.pop();
    for (const line of lines.filter(Boolean)) {
      const message = JSON.parse(line);
      if (message.type !== 'user' || message.message?.role !== 'user') {
        process.stderr.write(`Error: Expected message role 'user'\n`);
        process.exit(1);
      }
      const text = message.message.content.map((part) => part.text).join('');
      const id = message.uuid ?? randomUUID();
      lifecycle(id, 'queued');
      arrived.push({ id, text });
      wake();
    }
  });
  process.stdin.on('end', () => {
    ended = true;
    wake();
  });
  for (;;) {
    if (!arrived.length) {
      if (ended) break;
      await new Promise((resolve) => (wake = resolve));
      continue;
    }
    const messages = arrived.splice(0);
    for (const { id } of messages) lifecycle(id, 'started');
    await turn(
      messages.map((m) => m.text).join('\n\n'),
      messages.map((m) => m.id),
    );
    for (const { id } of messages) lifecycle(id, 'completed');
  }
  process.stdout.write('', () => process.exit(0));
}

/** What `whoami` answers: one line per question, each command's "ok" or the first line of its complaint. */
function whoAmI() {
  const attempt = (command, ...args) => {
    try {
      execFileSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      return 'ok';
    } catch (error) {
      return `refused: ${
        String(error.stderr ?? error.message)
          .trim()
          .split('\n')[0]
      }`;
    }
  };
  return [
    `uid: ${process.getuid()}`,
    `home: ${process.env.HOME}`,
    `environ: ${attempt('cat', `/proc/${process.ppid}/environ`)}`,
    `data: ${attempt('ls', process.env.JSONL_BRIDGE_DATA_DIR)}`,
    `git: ${attempt('git', 'status', '--short')}`,
  ].join('\n');
}

function lifecycle(id, state) {
  out({ type: 'command_lifecycle', command_uuid: id, state, uuid: randomUUID(), session_id: sessionId });
}

function longMarkdown(chars) {
  const paragraphs = [];
  for (let i = 1, total = 0; total < chars; i++) {
    const p = `**Paragraph ${i}.** ${'The quick brown fox jumps over the lazy dog. '.repeat(6).trim()} \`code_${i}\``;
    paragraphs.push(p);
    total += p.length + 2;
  }
  return paragraphs.join('\n\n');
}
