// What the fake CLI's other faces (codex, droid) share: a session kept in $FAKE_CLI_STATE that
// a resume continues (a session it never made is the CLI's own error), and a line in
// $FAKE_CLI_LOG for each run, as the claude fake writes them.
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The session `resume` names (or a new one) with `prompt` added: its id and every prompt it has had. */
export function continueSession(resume, prompt, unknownSession) {
  const stateDir = join(process.env.FAKE_CLI_STATE ?? tmpdir(), 'fake-agent-sessions');
  mkdirSync(stateDir, { recursive: true });
  const id = resume ?? randomUUID();
  const file = join(stateDir, `${id}.json`);
  let history = [];
  if (resume) {
    try {
      history = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      process.stderr.write(`${unknownSession(resume)}\n`);
      process.exit(1);
    }
  }
  history.push(prompt);
  writeFileSync(file, JSON.stringify(history));
  return { id, history };
}

/** Notes this run in $FAKE_CLI_LOG, where the tests read the CLIs' invocations. */
export function logRun(run) {
  if (!process.env.FAKE_CLI_LOG) return;
  const entry = { ...run, cwd: process.cwd(), pid: process.pid, ppid: process.ppid, envNames: [], startedAt: Date.now(), launchedAt: Date.now() };
  appendFileSync(process.env.FAKE_CLI_LOG, JSON.stringify(entry) + '\n');
}
