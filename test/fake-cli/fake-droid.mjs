// The fake CLI as droid (`droid exec --output-format stream-json …`): it answers the prompt's
// echo as droid's events, resumes the sessions it made (-s), and prints droid's recorded
// quota errors when a test has run its quota out (quota.mjs). Its runs join $FAKE_CLI_LOG.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { continueSession, logRun } from './fake-session.mjs';
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
  const { id: sessionId, history } = continueSession(resume, prompt, (id) => `Session not found: ${id}`);
  logRun({ argv: args, prompt, resume, session: sessionId, as: 'droid' });
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
