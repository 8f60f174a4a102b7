// What the fake CLI prints when a test has run its quota out: the real CLI's recorded output
// (test/fixtures/transcripts/<cli>-*-<kind>.raw.ndjson) for the kind the test wrote into
// $FAKE_CLI_STATE/quota-<cli>.json ({"kind": "usage-limit" | "rate-limit" | "no-credit",
// "resetsAt": epoch ms}), in this run's session and with the test's reset time.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const RECORDED = { claude: 'claude-2.1.330', codex: 'codex-0.169.0', droid: 'droid-0.225.2-byok' };

/** The test's quota for `cli`, if it has run out. */
export function quotaOut(cli) {
  const file = join(process.env.FAKE_CLI_STATE ?? '/nonexistent', `quota-${cli}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}

/** The recorded lines, but the first (the CLI's start, which the fake says itself), for this session and reset. */
export function recordedQuotaLines(cli, quota, sessionId, extra = {}) {
  const url = new URL(`../fixtures/transcripts/${RECORDED[cli]}-${quota.kind}.raw.ndjson`, import.meta.url);
  const resetsAt = new Date(quota.resetsAt ?? Date.now() + 3600_000);
  const lines = readFileSync(url, 'utf8').split('\n').filter(Boolean).slice(1);
  return lines.map((raw) => {
    const said = raw
      .replace(/"(session_id|thread_id|sessionId)":"[^"]+"/g, (_, key) => `"${key}":"${sessionId}"`)
      .replace(/"resetsAt":\d+/g, `"resetsAt":${Math.round(resetsAt.getTime() / 1000)}`)
      .replace(/resets \d{1,2}(:\d\d)?[ap]m \(UTC\)/g, `resets ${clock(resetsAt.getUTCHours(), resetsAt.getUTCMinutes(), '')} (UTC)`)
      .replace(/try again at \d{1,2}:\d\d [AP]M/g, `try again at ${clock(resetsAt.getHours(), resetsAt.getMinutes(), ' ').toUpperCase()}`);
    const line = JSON.parse(said);
    return line.type === 'result' ? { ...line, ...extra } : line;
  });
}

function clock(hours, minutes, space) {
  return `${hours % 12 || 12}:${String(minutes).padStart(2, '0')}${space}${hours < 12 ? 'am' : 'pm'}`;
}
