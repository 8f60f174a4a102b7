#!/usr/bin/env node
// Stands between the bridge and a CLI: passes the CLI's standard input and output through as
// they come, and notes in a log when each line crossed, with its first bytes. It is the ACP
// bench's clock on when the bridge wrote a prompt to a CLI and when the CLI ended its turn, the
// same for every CLI, whatever it is. Usage: stdio-tap.mjs LOG COMMAND [ARGUMENT…]
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';

const [logFile, command, ...args] = process.argv.slice(2);
if (!logFile || !command) {
  console.error('usage: stdio-tap.mjs LOG COMMAND [ARGUMENT…]');
  process.exit(64);
}
const log = createWriteStream(logFile, { flags: 'a' });
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });

/** Notes each whole line of a stream at the time its last chunk came, after it was passed on. */
function noting(dir) {
  let partial = '';
  return (chunk, at) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line) log.write(`${JSON.stringify({ at, dir, head: line.slice(0, 400) })}\n`);
  };
}

const noteIn = noting('in');
process.stdin.on('data', (chunk) => {
  const at = Date.now();
  child.stdin.write(chunk);
  noteIn(chunk, at);
});
process.stdin.on('end', () => child.stdin.end());
child.stdin.on('error', () => {}); // the CLI left: what comes after goes nowhere

const noteOut = noting('out');
child.stdout.on('data', (chunk) => {
  const at = Date.now();
  process.stdout.write(chunk);
  noteOut(chunk, at);
});

for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  log.end(() => {
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
});
