// The fake CLI as codex (`codex exec --json …`): it answers the prompt's echo as codex's
// events, resumes the sessions it made, and prints codex's recorded quota errors when a test
// has run its quota out (quota.mjs). Its runs join $FAKE_CLI_LOG like the claude fake's.
import { readFileSync } from 'node:fs';
import { continueSession, logRun } from './fake-session.mjs';
import { quotaOut, recordedQuotaLines } from './quota.mjs';

export function runAsCodex(args) {
  const out = (line) => process.stdout.write(JSON.stringify(line) + '\n');
  const end = args.indexOf('--');
  const prompt = end >= 0 ? (args[end + 1] ?? '') : args.at(-1) === '-' ? readFileSync(0, 'utf8') : '';
  const at = args.indexOf('resume');
  const resume = at >= 0 && (end < 0 || at < end) ? args[at + 1] : undefined;
  const { id: threadId, history } = continueSession(resume, prompt, (id) => `Error: thread/resume failed: no rollout found for thread id ${id}`);
  logRun({ argv: args, prompt, resume, session: threadId, as: 'codex' });
  const quota = quotaOut('codex');
  if (quota) {
    out({ type: 'thread.started', thread_id: threadId });
    for (const line of recordedQuotaLines('codex', quota, threadId)) out(line);
    process.stdout.write('', () => process.exit(1));
    return;
  }
  out({ type: 'thread.started', thread_id: threadId });
  out({ type: 'turn.started' });
  const text = `codex echo: ${prompt} (turn ${history.length})`;
  out({ type: 'item.completed', item: { id: 'item_0', type: 'agent_message', text } });
  out({ type: 'turn.completed', usage: { input_tokens: 10, cached_input_tokens: 0, output_tokens: 5 } });
  process.stdout.write('', () => process.exit(0));
}
