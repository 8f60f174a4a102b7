// `npm run doctor`: checks the setup a line at a time (✓, or ✗ and what to do) and exits
// non-zero if anything is wrong. It changes nothing. `npm run doctor -- --console` checks
// what the console needs (`npm start -- --console`): no chat app's settings.
import { ConfigError } from './kernel/errors/config-error.ts';
import { configSecrets, loadConfig } from './app/config.ts';
import { entry } from './app/entry.ts';
import { formatCheck, type CheckResult } from './kernel/ports/check-result.ts';
import { runChecks } from './app/checks/run-checks.ts';
import { checkNode } from './app/checks/system-checks.ts';
import { chooseTransports, TRANSPORTS } from './kernel/known-transports.ts';
import { loadTransport } from './transports/serving/load.ts';

// An error may quote a URL with the bot's token in it: what the doctor prints is redacted like the log, a crash included.
const { secrets, run } = entry('jsonl-bridge doctor');

async function main(argv: string[]): Promise<number> {
  let config;
  try {
    config = await loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.log(formatCheck(checkNode()));
    console.log(secrets.redact(`✗ configuration: ${error.message}. Fix it: nothing else can be checked until the bridge can read its configuration.`));
    return 1;
  }
  for (const secret of configSecrets(config)) secrets.add(secret);
  const report = (result: CheckResult) => console.log(secrets.redact(formatCheck(result)));
  // The transports `npm start` would serve; none set is a problem of its own, and the rest is checked still.
  let chosen;
  let chosenOk = true;
  try {
    chosen = chooseTransports(argv, process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    report({
      ok: false,
      subject: 'chat apps',
      found: error.message,
      fix: 'set one (each chat app has a page in docs/), or check the console alone with npm run doctor -- --console',
    });
    chosenOk = false;
    chosen = TRANSPORTS.filter((t) => t.configured(process.env));
  }
  const transports = await Promise.all(chosen.map(loadTransport));
  const ok = (await runChecks(config, transports, { env: process.env, dataDir: config.dataDir }, report)) && chosenOk;
  console.log(ok ? 'All good: npm start.' : 'Fix what is marked ✗, then run npm run doctor again.');
  return ok ? 0 : 1;
}

run(
  () => main(process.argv.slice(2)),
  (code) => (process.exitCode = code),
);
