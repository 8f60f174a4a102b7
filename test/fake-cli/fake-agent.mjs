#!/usr/bin/env node
// A stand-in coding-agent CLI speaking Claude's stream-json, driven by directives in its
// prompt so a test (or a chat message in a test) can make it misbehave on purpose:
//
//   sleep:S        wait S seconds (fractions allowed) before answering
//   sleep-once:S   the same, but only the first time this exact prompt runs (a retry is quick)
//   tools:N        make N tool calls before answering (chatty progress)
//   bash:CMD       after those, one Bash call running CMD (`+` for a space: bash:git+push+origin+main);
//                  the answer says `ran: CMD` or the denial
//   pace:MS        wait MS milliseconds between tool calls
//   until-heard    with stream-json input, go on making tool calls (at the pace, 100 ms at least)
//                  after the N until a message has joined the turn: a steering test's window that
//                  no loaded machine closes before its message comes
//   huge:MB        one tool result of MB megabytes on a single line
//   garbage        interleave non-JSON lines and unknown events
//   crash:CODE     print to stderr and exit CODE without a result
//   crash-in-colour:CODE  the same, its words in a terminal's colours (as OpenCode prints them)
//   signal:NAME    kill itself with signal NAME
//   silent         exit 0 without a result
//   hang           print nothing more and never exit
//   reconnecting   print only retry lines ("Reconnecting… waiting for network"), every 100 ms, and never answer
//   slow-tool:S    one Bash call (`make build`) whose result comes after S seconds, then the answer
//   hang-in-tool   start a Bash call (`make build`) and hang before its result
//   ignore-term    ignore SIGTERM (so only SIGKILL stops it)
//   ignore-interrupt  leave the bridge's interrupt control requests unanswered, working on
//   grandchild     start a `sleep 600` child in the same process group; its pid goes to stderr
//   fail           answer with an error result
//   say:WORD       answer WORD instead of the echo
//   print-env:NAME answer NAME=<its value in the environment> (an agent echoing a key it holds)
//   long:CHARS     answer with about CHARS characters of Markdown paragraphs
//   write:NAME     write a file NAME in the working directory
//   commit         commit everything in the working directory's git repository
//   dirty:NAME     after that, write a file NAME that stays uncommitted
//   wait-for:NAME  wait until a file NAME exists in the working directory (a test's go-ahead)
//   answer-twice:S (with stream-json input) S seconds after its result, a second result for the same
//                  message, as a CLI may write one after the bridge sent the next message
//   end-at-message (with stream-json input) wait until the next message comes, then answer
//                  before reading it: that message reaches it after its result, as when a
//                  turn ends just as the bridge sends one into it, and so is a turn of its own
//   whoami         answer who it runs as and what of the bridge it can read: its uid, its
//                  HOME, `cat /proc/<its parent, the bridge>/environ`, `ls $JSONL_BRIDGE_DATA_DIR`
//                  and `git status` in its directory, each "ok" or its error
//   escape         try, as a prompt-injected agent would, to get out of its sandbox, and answer
//                  what came of each attempt as JSON: the model API keys in its environment,
//                  reading each path (a folder's names, a file's text) of $FAKE_ESCAPE_READ and $JSONL_BRIDGE_DATA_DIR, and each file
//                  named in $FAKE_ESCAPE_MCP_SIBLINGS beside its --mcp-config, writing each of $FAKE_ESCAPE_WRITE,
//                  the pids it sees, /proc/$FAKE_ESCAPE_PID/environ, and a GET of each URL of
//                  $FAKE_ESCAPE_URLS, directly and through $HTTPS_PROXY/$HTTP_PROXY, and of
//                  $ANTHROPIC_BASE_URL/v1/models
//   fetch:URL      GET an http:// URL through a CONNECT tunnel of $HTTPS_PROXY (as HTTPS clients
//                  go), waiting as long as the proxy holds it; answer "fetch: status N" or
//                  "fetch: refused (…)"
//   msg-tokens:N   each model call's message reports N output tokens (5 otherwise; 10 input each)
//   question       ask the user (AskUserQuestion: "Which color?", Red or Blue) and answer what they chose
//   (with $FAKE_CLI_LOGGED_OUT set, every turn answers as claude does without credentials)
//   (with $FAKE_CLI_UNNAMED set, it is a claude older than 2.1.330 with stream-json input: it never
//   names the messages it is sent back, no `command_lifecycle` and no `user_message_uuids`, and each
//   result's duration_ms is the turn's own; `=separate` answers each waiting message with a result of its own)
//   (with $FAKE_CLI_STATE/quota-claude.json written, every turn prints claude's recorded quota error: quota.mjs)
//   (run as `exec --json …`, it is codex's one-shot runs instead: fake-codex.mjs; as
//   `exec --output-format stream-json …`, droid: fake-droid.mjs)
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
// With `--permission-prompt-tool stdio`, like Claude Code, it asks before each Bash call with a
// `can_use_tool` control request and waits for the answer (a denied call's result is the
// denial); it takes `interrupt` (the turn ends as an error_during_execution result, the
// process stays, messages not yet started are reported `still_queued` and stay) and
// `set_permission_mode` (in `plan` mode a turn proposes "PLAN: <prompt>" through ExitPlanMode
// and goes on only when it is allowed).
// Every run appends {argv, cwd, prompt, resume, pid, envNames, startedAt, launchedAt (when its process began, before Node
// loaded this script), agents (what --agents held), mcpServers} to $FAKE_CLI_LOG when set; sessions
// persist under $FAKE_CLI_STATE (default: $TMPDIR), or as Claude Code's do under $CLAUDE_CONFIG_DIR, so a resumed turn knows its history.
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import { quotaOut, recordedQuotaLines } from './quota.mjs';

const args = process.argv.slice(2);
if (args[0] === 'exec') {
  if (args.includes('--json')) (await import('./fake-codex.mjs')).runAsCodex(args);
  else (await import('./fake-droid.mjs')).runAsDroid(args);
  await new Promise(() => {}); // it exits once its output is out
}
// What `npm run doctor` (and the start's and a first turn's credential check) asks claude: its
// version, and `auth status` (codex's `login status`, droid's `doctor --auth --json`), logged out
// (as each says it, exit 1) when $FAKE_CLI_LOGGED_OUT is set.
if (args[0] === '--version') {
  process.stdout.write('2.1.330 (Fake Code)\n');
  process.exit(0);
}
if (args[0] === 'login' && args[1] === 'status') {
  process.stdout.write(process.env.FAKE_CLI_LOGGED_OUT ? 'Not logged in\n' : 'Logged in using an API key\n');
  process.exit(process.env.FAKE_CLI_LOGGED_OUT ? 1 : 0);
}
if (args[0] === 'doctor' && args[1] === '--auth') {
  const detail = process.env.FAKE_CLI_LOGGED_OUT ? 'no stored login found' : 'logged in';
  process.stdout.write(JSON.stringify({ ok: !process.env.FAKE_CLI_LOGGED_OUT, results: [{ id: 'auth.credentials', detail }] }, null, 2) + '\n');
  process.exit(process.env.FAKE_CLI_LOGGED_OUT ? 1 : 0);
}
if (args[0] === 'auth' && args[1] === 'status') {
  const loggedIn = !process.env.FAKE_CLI_LOGGED_OUT;
  process.stdout.write(JSON.stringify({ loggedIn, authMethod: loggedIn ? 'api_key' : 'none' }, null, 2) + '\n');
  process.exit(loggedIn ? 0 : 1);
}
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
  '--settings',
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
  // In a sandbox the test's folder is not there: the fake CLI logs outside any wall only.
  if (!process.env.FAKE_CLI_LOG || !existsSync(dirname(process.env.FAKE_CLI_LOG))) return;
  appendFileSync(
    process.env.FAKE_CLI_LOG,
    JSON.stringify({
      argv: args,
      cwd: process.cwd(),
      prompt,
      resume,
      session: sessionId,
      pid: process.pid,
      ppid: process.ppid,
      envNames: Object.keys(process.env).sort(),
      startedAt: Date.now(),
      launchedAt: Math.round(performance.timeOrigin),
      // What --agents held: the file is the turn's own and gone once it ends.
      ...(flag('--agents') ? { agents: JSON.parse(readFileSync(flag('--agents'), 'utf8')) } : {}),
      ...(flag('--mcp-config') && existsSync(flag('--mcp-config'))
        ? { mcpServers: Object.keys(JSON.parse(readFileSync(flag('--mcp-config'), 'utf8')).mcpServers) }
        : {}),
    }) + '\n',
  );
}

// With $CLAUDE_CONFIG_DIR, sessions are where Claude Code keeps them: <it>/projects/<cwd as a key>/<id>.jsonl.
const stateDir = process.env.CLAUDE_CONFIG_DIR
  ? join(process.env.CLAUDE_CONFIG_DIR, 'projects', process.cwd().replace(/[^A-Za-z0-9]/g, '-'))
  : join(process.env.FAKE_CLI_STATE ?? tmpdir(), 'fake-agent-sessions');
mkdirSync(stateDir, { recursive: true });
const markerDir = join(process.env.FAKE_CLI_STATE ?? tmpdir(), 'fake-agent-sessions');
mkdirSync(markerDir, { recursive: true });
const sessionId = resume ?? randomUUID();
const sessionFile = join(stateDir, process.env.CLAUDE_CONFIG_DIR ? `${sessionId}.jsonl` : `${sessionId}.json`);
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
/** The running turn's interrupt: sleeps and waits end early, and the turn ends as interrupted. */
let interrupt = new globalThis.AbortController();
const sleep = (s) =>
  new Promise((r) => {
    const timer = setTimeout(r, s * 1000);
    interrupt.signal.addEventListener('abort', () => (clearTimeout(timer), r()), { once: true });
  });
const controlled = flag('--permission-prompt-tool') === 'stdio';
let permissionMode = flag('--permission-mode') ?? 'default';
/** Our can_use_tool requests waiting for the bridge's answer, by request id. */
const decisions = new Map();
/** Asks the bridge whether a tool may run (the stdio control channel); resolves with its decision. */
function canUseTool(tool, input, toolUseId) {
  const requestId = randomUUID();
  out({ type: 'control_request', request_id: requestId, request: { subtype: 'can_use_tool', tool_name: tool, input, tool_use_id: toolUseId } });
  return new Promise((resolve) => {
    decisions.set(requestId, resolve);
    interrupt.signal.addEventListener('abort', () => resolve({ behavior: 'deny', message: 'interrupted' }), { once: true });
  });
}
/** A tool's result, as claude sends it back to the model (and prints it). */
const toolResult = (id, content, isError) =>
  out({
    type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }] },
    parent_tool_use_id: null,
    session_id: sessionId,
  });
/** Like Claude Code's: each model call's message carries its id, model and usage (`msg-tokens:N` output tokens each; 5 otherwise). */
let messages = 0;
const assistant = (content) =>
  out({
    type: 'assistant',
    message: {
      id: `msg_fake_${process.pid}_${++messages}`,
      role: 'assistant',
      model: flag('--model') ?? 'fake-model',
      content,
      usage: { input_tokens: 10, output_tokens: messageTokens, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    },
    parent_tool_use_id: null,
    session_id: sessionId,
  });
/** Output tokens each model call reports (`msg-tokens:N`), set per turn. */
let messageTokens = 5;

/** Messages that came with stream-json input while a turn worked: a turn making tool calls takes them in. */
const arrived = [];
/** Set while a turn waits for the next message to end (`end-at-message`): called as that message comes, before it is read. */
let endAtMessage;
/** Input lines that came as such a turn ended: read once its result is out. */
const heldUntilResult = [];
/** The running turn asked for `ignore-interrupt`. */
let ignoringInterrupts = false;
/** Turns this process has run (a cost, like claude's, is the whole process's). */
let turnsHere = 0;
/** A claude that does not name messages back ($FAKE_CLI_UNNAMED), and when its turn began (its results' duration). */
const unnamed = process.env.FAKE_CLI_UNNAMED;
let turnStartedAt = Date.now();
/** What a result says of the messages it answered, and how long its turn took. */
function namesOf(ids) {
  if (unnamed) return { duration_ms: Date.now() - turnStartedAt };
  return streamInput ? { user_message_uuids: ids } : {};
}
if (streamInput) await serveMessages();
else {
  await turn(argPrompt);
  // Exit once stdout is flushed (a 5 MB line takes a while), even if a grandchild is still running.
  process.stdout.write('', () => process.exit(0));
}

/** One turn of `prompt`; `ids`: the stream-json messages it answers. */
async function turn(prompt, ids = []) {
  turnStartedAt = Date.now();
  const directive = directiveIn(prompt);
  logTurn(prompt);
  turnsHere++;
  if (directive('ignore-term')) process.on('SIGTERM', () => {});
  ignoringInterrupts = !!directive('ignore-interrupt');
  messageTokens = Number(directive('msg-tokens') ?? 5);
  // Like Claude Code, the session is on disk (with this prompt) before any work starts.
  history.push(prompt);
  writeFileSync(sessionFile, JSON.stringify(history));
  out({ type: 'system', subtype: 'init', session_id: sessionId, model: flag('--model') ?? 'fake-model', cwd: process.cwd(), tools: ['Bash'] });
  const quota = quotaOut('claude');
  if (quota) {
    for (const line of recordedQuotaLines('claude', quota, sessionId, namesOf(ids))) out(line);
    if (!streamInput) process.stdout.write('', () => process.exit(1));
    return;
  }

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
    // The test's bookkeeping, not the session's: kept in $FAKE_CLI_STATE whichever machine's home the session is in.
    const marker = join(markerDir, `slept-${createHash('sha256').update(prompt).digest('hex').slice(0, 16)}`);
    if (!existsSync(marker)) {
      writeFileSync(marker, '');
      await sleep(Number(sleepOnce));
    }
  }
  if (interrupt.signal.aborted) return interrupted(ids, 0);
  const tools = Number(directive('tools') ?? 0);
  const pace = Number(directive('pace') ?? 0);
  const heard = [];
  const denials = [];
  const untilHeard = streamInput && directive('until-heard');
  for (let i = 1; i <= tools || (untilHeard && !heard.length); i++) {
    // Past the N, waiting for a message: paced at 100 ms at least, never a busy loop.
    const gap = i > tools ? Math.max(pace, 100) : pace;
    if (gap) await sleep(gap / 1000);
    for (const message of unnamed === 'separate' ? [] : arrived.splice(0)) {
      lifecycle(message.id, 'started');
      heard.push(message.text);
      lifecycle(message.id, 'completed');
    }
    if (interrupt.signal.aborted) break;
    const id = `toolu_fake_${i}`;
    const input = { command: `echo step ${i}` };
    assistant([{ type: 'tool_use', id, name: 'Bash', input }]);
    const decision = controlled ? await canUseTool('Bash', input, id) : { behavior: 'allow' };
    if (interrupt.signal.aborted) break;
    if (decision.behavior !== 'allow') denials.push(decision.message);
    toolResult(id, decision.behavior === 'allow' ? `step ${i}` : decision.message, decision.behavior !== 'allow');
  }
  const bash = directive('bash');
  let ran;
  if (typeof bash === 'string' && !interrupt.signal.aborted) {
    const input = { command: bash.replaceAll('+', ' ') };
    assistant([{ type: 'tool_use', id: 'toolu_fake_bash', name: 'Bash', input }]);
    const decision = controlled ? await canUseTool('Bash', input, 'toolu_fake_bash') : { behavior: 'allow' };
    ran = decision.behavior === 'allow' ? `ran: ${input.command}` : `not run: ${decision.message}`;
    toolResult('toolu_fake_bash', ran, decision.behavior !== 'allow');
  }
  let asked;
  if (directive('question') && !interrupt.signal.aborted) {
    const input = {
      questions: [
        {
          question: 'Which color?',
          header: 'Color',
          options: [
            { label: 'Red', description: 'warm' },
            { label: 'Blue', description: 'cool' },
          ],
          multiSelect: false,
        },
      ],
    };
    assistant([{ type: 'tool_use', id: 'toolu_fake_question', name: 'AskUserQuestion', input }]);
    const decision = controlled
      ? await canUseTool('AskUserQuestion', input, 'toolu_fake_question')
      : { behavior: 'deny', message: 'No such tool available: AskUserQuestion' };
    asked = decision.behavior === 'allow' ? `answered: ${Object.values(decision.updatedInput.answers ?? {}).join(' / ')}` : `not answered: ${decision.message}`;
    toolResult('toolu_fake_question', asked, decision.behavior !== 'allow');
  }
  let planned;
  if (permissionMode === 'plan' && !interrupt.signal.aborted) {
    const input = { plan: `PLAN: ${prompt}` };
    assistant([{ type: 'tool_use', id: 'toolu_fake_plan', name: 'ExitPlanMode', input }]);
    const decision = await canUseTool('ExitPlanMode', {}, 'toolu_fake_plan');
    if (decision.behavior === 'allow') permissionMode = 'default';
    planned = decision.behavior === 'allow' ? 'plan approved' : `kept planning: ${decision.message}`;
    toolResult('toolu_fake_plan', planned, decision.behavior !== 'allow');
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

  const slowTool = directive('slow-tool');
  if (slowTool) {
    assistant([{ type: 'tool_use', id: 'toolu_fake_slow', name: 'Bash', input: { command: 'make build' } }]);
    await sleep(Number(slowTool));
    toolResult('toolu_fake_slow', 'built', false);
  }
  if (directive('reconnecting')) {
    for (let attempt = 1; !interrupt.signal.aborted; attempt++) {
      out({ type: 'error', message: `Reconnecting… ${attempt}/5 waiting for network` });
      await sleep(0.1);
    }
  }
  if (directive('hang-in-tool')) assistant([{ type: 'tool_use', id: 'toolu_fake_build', name: 'Bash', input: { command: 'make build' } }]);
  // Misbehaviour comes after the work: `tools:3 hang` makes three calls, then hangs.
  if (directive('hang') || directive('hang-in-tool')) {
    // Noted once every line is out: from here on it writes nothing (a reader gone cannot kill it).
    if (process.env.FAKE_CLI_LOG) appendFileSync(`${process.env.FAKE_CLI_LOG}.hanging`, `${process.pid}\n`);
    const keepAlive = setInterval(() => {}, 1 << 30);
    await new Promise((resolve) => interrupt.signal.addEventListener('abort', resolve, { once: true }));
    clearInterval(keepAlive);
  }
  if (interrupt.signal.aborted) return interrupted(ids, tools);
  const inColour = directive('crash-in-colour');
  if (inColour) {
    process.stderr.write('\x1b[91m\x1b[1mError: \x1b[0mthe fake agent crashed in colour\n');
    process.exit(Number(inColour) || 1);
  }
  const crash = directive('crash');
  if (crash) {
    process.stderr.write('fatal: the fake agent crashed on purpose\n');
    process.exit(Number(crash) || 1);
  }
  const signal = directive('signal');
  if (signal) process.kill(process.pid, signal);
  if (directive('silent')) process.exit(0);

  if (directive('end-at-message') && streamInput) {
    await new Promise((resolve) => {
      endAtMessage = resolve;
      interrupt.signal.addEventListener('abort', resolve, { once: true });
    });
    endAtMessage = undefined;
  }
  const waitFor = directive('wait-for');
  if (typeof waitFor === 'string') while (!existsSync(join(process.cwd(), waitFor)) && !interrupt.signal.aborted) await sleep(0.05);
  if (interrupt.signal.aborted) return interrupted(ids, tools);
  if (process.env.FAKE_CLI_LOGGED_OUT) return notLoggedIn(ids);
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
  const escaped = directive('escape') ? JSON.stringify(await tryToEscape()) : undefined;
  const fetched = typeof directive('fetch') === 'string' ? await fetchThroughTunnel(directive('fetch')) : undefined;
  const said = directive('print-env') ? `${directive('print-env')}=${process.env[directive('print-env')] ?? ''}` : directive('say');
  const long = Number(directive('long') ?? 0);
  const answered =
    whoami ?? escaped ?? fetched ?? mcpCheck ?? (long ? longMarkdown(long) : typeof said === 'string' ? said : `echo: ${prompt} (turn ${history.length})`);
  const notes = [
    ...(heard.length ? [`heard: ${heard.join(' / ')}`] : []),
    ...(denials.length ? [`denied: ${denials.join(' / ')}`] : []),
    ...(ran ? [ran] : []),
    ...(asked ? [asked] : []),
    ...(planned ? [planned] : []),
  ];
  const answer = [answered, ...notes].join('\n');
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
    ...namesOf(ids),
  });
  // When the result line went out, for the benchmark that times its way to Telegram.
  if (process.env.FAKE_CLI_LOG) appendFileSync(`${process.env.FAKE_CLI_LOG}.results`, JSON.stringify({ prompt, emittedAt }) + '\n');
  const again = directive('answer-twice');
  if (again && streamInput) {
    // A second result for the same message, once the bridge may have sent the next: never that one's answer.
    await sleep(Number(again));
    out({ type: 'result', subtype: 'success', is_error: false, result: 'late answer', session_id: sessionId, num_turns: 1, ...namesOf(ids) });
  }
}

/** What Claude Code 2.1 prints for a turn without credentials: the error as an answer, then as the result. */
function notLoggedIn(ids) {
  const said = 'Not logged in · Please run /login';
  out({
    type: 'assistant',
    message: { role: 'assistant', model: '<synthetic>', content: [{ type: 'text', text: said }] },
    parent_tool_use_id: null,
    session_id: sessionId,
    error: 'authentication_failed',
    is_api_error_message: true,
  });
  out({
    type: 'result',
    subtype: 'success',
    is_error: true,
    result: said,
    session_id: sessionId,
    num_turns: 1,
    duration_ms: 5,
    total_cost_usd: 0,
    ...namesOf(ids),
  });
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
      if (endAtMessage && JSON.parse(line).type === 'user') {
        heldUntilResult.push(line);
        endAtMessage();
        endAtMessage = undefined;
      } else if (heldUntilResult.length) heldUntilResult.push(line);
      else read(line);
    }
  });
  /** One line of input: a control message, or a message for a turn. */
  function read(line) {
    const message = JSON.parse(line);
    if (message.type === 'control_response') {
      const decide = decisions.get(message.response?.request_id);
      decisions.delete(message.response?.request_id);
      decide?.(message.response.response);
      return;
    }
    if (message.type === 'control_request') {
      control(message);
      return;
    }
    if (message.type !== 'user' || message.message?.role !== 'user') {
      process.stderr.write(`Error: Expected message role 'user'\n`);
      process.exit(1);
    }
    const text = message.message.content.map((part) => part.text).join('');
    const id = message.uuid ?? randomUUID();
    // When each message reached it, for the benchmark that times messages to the CLI's input.
    if (process.env.FAKE_CLI_LOG) appendFileSync(`${process.env.FAKE_CLI_LOG}.inputs`, JSON.stringify({ text, receivedAt: Date.now() }) + '\n');
    lifecycle(id, 'queued');
    arrived.push({ id, text });
    wake();
  }
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
    const messages = unnamed === 'separate' ? arrived.splice(0, 1) : arrived.splice(0);
    for (const { id } of messages) lifecycle(id, 'started');
    interrupt = new globalThis.AbortController();
    await turn(
      messages.map((m) => m.text).join('\n\n'),
      messages.map((m) => m.id),
    );
    for (const { id } of messages) lifecycle(id, 'completed');
    for (const line of heldUntilResult.splice(0)) read(line);
  }
  process.stdout.write('', () => process.exit(0));
}

/** A control request of the bridge: an interrupt ends the running turn; a mode change applies from the next tool call. */
function control(message) {
  const request = message.request ?? {};
  if (request.subtype === 'interrupt' && ignoringInterrupts) return;
  if (request.subtype === 'interrupt') {
    out({ type: 'control_response', response: { subtype: 'success', request_id: message.request_id, response: { still_queued: arrived.map((m) => m.id) } } });
    interrupt.abort();
  } else if (request.subtype === 'set_permission_mode') {
    permissionMode = request.mode;
    out({ type: 'control_response', response: { subtype: 'success', request_id: message.request_id, response: { mode: request.mode } } });
  } else {
    out({ type: 'control_response', response: { subtype: 'error', request_id: message.request_id, error: `unsupported control request ${request.subtype}` } });
  }
}

/** Like Claude Code's after an interrupt: the tool call stopped, then an error_during_execution result. */
function interrupted(ids, tools) {
  out({
    type: 'user',
    message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user for tool use]' }] },
    parent_tool_use_id: null,
    session_id: sessionId,
  });
  history.push('[interrupted]');
  writeFileSync(sessionFile, JSON.stringify(history));
  out({
    type: 'result',
    subtype: 'error_during_execution',
    is_error: true,
    session_id: sessionId,
    num_turns: 1 + tools,
    duration_ms: 5,
    total_cost_usd: 0.001 * turnsHere,
    usage: { input_tokens: 10, output_tokens: 1 },
    errors: ['interrupted'],
    ...namesOf(ids),
  });
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

/** What `escape` answers: for each attempt, what it got ("ok: …") or why not ("refused: …"). */
async function tryToEscape() {
  const list = (name) => (process.env[name] ?? '').split(',').filter(Boolean);
  const attempt = async (action) => {
    try {
      return `ok: ${String((await action()) ?? '').slice(0, 200)}`;
    } catch (error) {
      return `refused: ${String(error.code ?? error.message).split('\n')[0]}`;
    }
  };
  const get = (url, viaProxy) =>
    new Promise((resolve, reject) => {
      const target = new URL(url);
      const proxy = viaProxy ? process.env.HTTP_PROXY : undefined;
      if (viaProxy && !proxy) return reject(new Error('no proxy'));
      const through = proxy ? new URL(proxy) : target;
      const request = httpRequest(
        { host: through.hostname, port: through.port, path: proxy ? url : target.pathname, headers: { host: target.host }, timeout: 3000 },
        (response) => {
          response.resume();
          response.on('end', () =>
            response.statusCode === 200 ? resolve(`status ${response.statusCode}`) : reject(new Error(`status ${response.statusCode}`)),
          );
        },
      );
      request
        .on('timeout', () => request.destroy(new Error('timeout')))
        .on('error', reject)
        .end();
    });
  const result = {
    keys: Object.keys(process.env)
      .filter((name) => /API_KEY|AUTH_TOKEN/.test(name))
      .map((name) => `${name}=${process.env[name]}`),
    pids: readdirSync('/proc').filter((name) => /^\d+$/.test(name)).length,
    environ: await attempt(() => readFileSync(`/proc/${process.env.FAKE_ESCAPE_PID}/environ`, 'utf8')),
    read: {},
    write: {},
    direct: {},
    proxied: {},
  };
  for (const path of [...list('FAKE_ESCAPE_READ'), process.env.JSONL_BRIDGE_DATA_DIR].filter(Boolean))
    result.read[path] = await attempt(() => (statSync(path).isDirectory() ? readdirSync(path).join(' ') || 'empty' : readFileSync(path, 'utf8') || 'empty'));
  // Files beside its own MCP config, by name (another chat's, under the same agent user).
  const config = flag('--mcp-config');
  if (config)
    for (const name of list('FAKE_ESCAPE_MCP_SIBLINGS'))
      result.read[`mcp:${name}`] = await attempt(() =>
        readFileSync(join(dirname(config), name), 'utf8')
          .replace(/\W+/g, ' ')
          .slice(0, 16),
      );
  for (const path of list('FAKE_ESCAPE_WRITE')) result.write[path] = await attempt(() => writeFileSync(path, 'escaped\n'));
  // Its model API, where the environment says it is (the bridge's credential proxy, in walls).
  if (process.env.ANTHROPIC_BASE_URL) result.model = await attempt(() => get(`${process.env.ANTHROPIC_BASE_URL}/v1/models`, false));
  for (const url of list('FAKE_ESCAPE_URLS')) {
    result.direct[url] = await attempt(() => get(url, false));
    result.proxied[url] = await attempt(() => get(url, true));
  }
  return result;
}

/** What `fetch:URL` answers: the URL through a CONNECT tunnel of $HTTPS_PROXY, however long the proxy holds it. */
function fetchThroughTunnel(url) {
  const target = new URL(url);
  const proxy = process.env.HTTPS_PROXY ? new URL(process.env.HTTPS_PROXY) : undefined;
  if (!proxy) return Promise.resolve('fetch: refused (no proxy)');
  return new Promise((resolve) => {
    const authority = `${target.hostname}:${target.port || 80}`;
    const tunnel = httpRequest({ host: proxy.hostname, port: proxy.port, method: 'CONNECT', path: authority, headers: { host: authority } });
    tunnel.on('connect', (response, socket) => {
      if (response.statusCode !== 200) {
        socket.destroy();
        return resolve(`fetch: refused (status ${response.statusCode})`);
      }
      let reply = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => (reply += chunk));
      socket.on('end', () => resolve(`fetch: status ${/^HTTP\/1\.[01] (\d+)/.exec(reply)?.[1] ?? 'none'}`));
      socket.on('error', (error) => resolve(`fetch: refused (${error.code ?? error.message})`));
      socket.write(`GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: close\r\n\r\n`);
    });
    tunnel.on('error', (error) => resolve(`fetch: refused (${error.code ?? error.message})`));
    tunnel.end();
  });
}

function lifecycle(id, state) {
  if (unnamed) return;
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
