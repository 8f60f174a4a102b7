// `npm test`'s first step: the system packages the suite runs for real. A missing one stops the
// run at once with one line naming it and its install command, rather than deep in a failing
// test. Only `.ci/run` installs them.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const NEEDED = [
  { command: 'redis-server', package: 'redis-server', why: "the queue's tests start their own" },
  { command: 'openssl', package: 'openssl', why: "a certificate for the API's TLS test" },
  { command: 'chromium', package: 'chromium', why: "the web pages' tests run in a real browser" },
  { command: 'promtool', package: 'prometheus', why: 'the metrics tests check /metrics with it' },
];

function onPath(command) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

const missing = NEEDED.filter((need) => !onPath(need.command));
if (missing.length) {
  const names = missing.map((need) => `${need.command} (${need.why})`).join(', ');
  const install = `apt-get install -y ${missing.map((need) => need.package).join(' ')}`;
  console.error(`npm test needs ${names}: run \`${install}\` (as root, after apt-get update), or \`bash .ci/run\`, which installs them.`);
  process.exit(1);
}
