// Records what a real CLI prints when the model API answers with a quota, credit or rate-limit
// error, into test/fixtures/transcripts (the decoders' tests read them):
//   node --import tsx test/support/record-quota.ts claude usage-limit
// claude's usage limit is a Claude subscription's: it runs with an OAuth token, as a subscriber's would.
import { writeFileSync } from 'node:fs';
import { execa } from 'execa';
import { CLI_BINARIES, DROID_MODEL, prepareCliEnv, runCli, type CliName } from './cli-env.ts';
import {
  anthropicNoCredit,
  anthropicRateLimit,
  claudeUsageLimit,
  codexUsageLimit,
  openAiInsufficientQuota,
  openAiRateLimit,
  startMockModel,
  type ReplyError,
} from './mock-model/index.ts';

const [cli, kind] = process.argv.slice(2) as [Exclude<CliName, 'gemini' | 'qwen' | 'claude-acp' | 'copilot'>, string];
const resetAt = new Date(Date.now() + 3 * 3600_000);
const answers: Record<string, ReplyError> = {
  'rate-limit': cli === 'codex' ? openAiRateLimit(resetAt) : anthropicRateLimit(resetAt),
  'usage-limit': cli === 'codex' ? codexUsageLimit(resetAt) : claudeUsageLimit(resetAt),
  'no-credit': cli === 'codex' ? openAiInsufficientQuota : anthropicNoCredit,
};
const error = answers[kind];
if (!error) throw new Error(`usage: record-quota.ts claude|codex|droid ${Object.keys(answers).join('|')}`);

const mock = await startMockModel({ script: () => ({ error }) });
const sandbox = await prepareCliEnv(cli, mock.url);
if (cli === 'claude' && kind === 'usage-limit') {
  delete sandbox.env.ANTHROPIC_API_KEY;
  sandbox.env.CLAUDE_CODE_OAUTH_TOKEN = 'sk-ant-oat01-mock';
}
const args = {
  claude: ['-p', 'hello', '--output-format', 'stream-json', '--verbose'],
  codex: ['exec', '--json', '--skip-git-repo-check', 'hello'],
  droid: ['exec', '-m', DROID_MODEL, '--output-format', 'stream-json', 'hello'],
}[cli];
const run = await runCli(sandbox, args, { timeoutMs: 180_000 });
const version = (await execa(CLI_BINARIES[cli], ['--version'])).stdout.match(/\d+\.\d+\.\d+/)?.[0] ?? 'unknown';
const file = new URL(`../fixtures/transcripts/${cli}-${version}${cli === 'droid' ? '-byok' : ''}-${kind}.raw.ndjson`, import.meta.url);
writeFileSync(file, run.stdout.endsWith('\n') ? run.stdout : `${run.stdout}\n`);
console.log(`${file.pathname}: exit ${run.exitCode}, ${run.durationMs} ms, ${mock.modelRequests.length} model requests, reset ${resetAt.toISOString()}`);
await mock.close();
await sandbox.cleanup();
