// The fake CLI as droid (`droid exec --output-format stream-json …`): it answers the prompt's
// echo as droid's events, resumes the sessions it made (-s), and prints droid's recorded
// quota errors when a test has run its quota out (quota.mjs). Its runs join $FAKE_CLI_LOG.
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quotaOut, recordedQuotaLines } from './quota.mjs';

export function runAsDroid(args) {
  const out = (line) => process.stdout.write(JSON.stringify(line) + '\n');
  const option = (name) => {
    const at = args.indexOf(name);
    const end = args.indexOf('--');
    return at >= 0 && (end < 0 || at < end) ? args[at + 1] : undefined;
  };
  const end = args.indexOf('--');
  const prompt = end >= 0 ? (args[end + 1] ?? '') : option('-f') ? readFileSync(option('-f'), 'utf8') : '';
  const resume = option('-s');
  const stateDir = join(process.env.FAKE_CLI_STATE ?? tmpdir(), 'fake-agent-sessions');
  mkdirSync(stateDir, { recursive: true });
  const sessionId = resume ?? randomUUID();
  const sessionFile = join(stateDir, `${sessionId}.json`);
  let history = [];
  if (resume) {
    try {
      history = JSON.parse(readFileSync(sessionFile, 'utf8'));
    } catch {
      process.stderr.write(`Session not found: ${resume}\n`);
      process.exit(1);
    }
  }
  history.push(prompt);
  writeFileSync(sessionFile, JSON.stringify(history));
  if (process.env.FAKE_CLI_LOG) {
    const entry = {
      argv: args,
      cwd: process.cwd(),
      prompt,
      resume,
      session: sessionId,
      pid: process.pid,
      envNames: [],
      startedAt: Date.now(),
      launchedAt: Date.now(),
      as: 'droid',
    };
    appendFileSync(process.env.FAKE_CLI_LOG, JSON.stringify(entry) + '\n');
  }
  const model = option('-m') ?? 'custom:Mock-0';
  out({ type: 'system', subtype: 'init', cwd: process.cwd(), session_id: sessionId, tools: ['Read', 'Execute', 'Edit'], model });
  out({ type: 'message', role: 'user', id: randomUUID(), text: prompt, timestamp: Date.now(), session_id: sessionId });
  const quota = quotaOut('droid');
  if (quota) {
    for (const line of recordedQuotaLines('droid', quota, sessionId)) if (line.type !== 'message') out(line);
    process.stdout.write('', () => process.exit(1));
    return;
  }
  const text = `droid echo: ${prompt} (turn ${history.length})`;
  out({ type: 'message', role: 'assistant', id: randomUUID(), text, timestamp: Date.now(), session_id: sessionId });
  out({
    type: 'completion',
    finalText: text,
    numTurns: 1,
    durationMs: 5,
    session_id: sessionId,
    timestamp: Date.now(),
    usage: { input_tokens: 10, output_tokens: 5 },
  });
  process.stdout.write('', () => process.exit(0));
}
