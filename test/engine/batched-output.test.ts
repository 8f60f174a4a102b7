import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BatchedOutput } from '../../src/engine/process/batched-output.ts';
import { CliProcess } from '../../src/engine/process/cli-process.ts';
import { FifoPool } from '../../src/engine/process/fifo-pool.ts';
import type { CliLine } from '../../src/engine/process/lines.ts';

// Background runs' output through named pipes read on one clock, with real processes.
const outputs: BatchedOutput[] = [];
afterEach(() => outputs.splice(0).forEach((output) => output.close()));

async function batched(pool?: FifoPool): Promise<BatchedOutput> {
  const output = new BatchedOutput(20, pool);
  outputs.push(output);
  await output.ready();
  return output;
}

/** Runs `script` with node, its stdout through `output`; its lines and exit. */
async function run(output: BatchedOutput, script: string): Promise<{ lines: CliLine[]; code: number | null }> {
  const cli = new CliProcess({ command: process.execPath, args: ['-e', script], cwd: tmpdir(), env: { PATH: process.env.PATH }, output });
  const lines: CliLine[] = [];
  await cli.readLines((line) => lines.push(line));
  return { lines, code: (await cli.exited).code };
}

describe('output read in batches', () => {
  it('gives every line in order, across writes and the pipe filling up, and the last line without a newline', async () => {
    const output = await batched();
    // 20,000 lines (about 1.3 MB) in small writes: far more than a pipe holds, so the writer waits for the reader.
    const { lines, code } = await run(
      output,
      `let i = 0; const next = () => { while (i < 20000) { if (!process.stdout.write(JSON.stringify({ n: i++, pad: 'x'.repeat(40) }) + '\\n')) return process.stdout.once('drain', next); } process.stdout.write('tail without newline'); }; next();`,
    );
    expect(code).toBe(0);
    expect(lines).toHaveLength(20001);
    expect(lines.slice(0, 20000).every((line, i) => (line.json as { n: number }).n === i)).toBe(true);
    expect(lines.at(-1)).toEqual({ raw: 'tail without newline' });
  });

  it('reads many processes at once, each its own lines', async () => {
    const output = await batched();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, k) => run(output, `for (let i = 0; i < 50; i++) console.log(JSON.stringify({ k: ${k}, i }));`)),
    );
    results.forEach(({ lines }, k) => expect(lines.map((line) => line.json)).toEqual(Array.from({ length: 50 }, (_, i) => ({ k, i }))));
  });

  it('ends when the process and everything it started have closed it, and a quiet process is still heard', async () => {
    const output = await batched();
    // Quiet long enough for its pipe to be looked at less often; then a line, and a child that writes to the same pipe later.
    const { lines, code } = await run(
      output,
      `setTimeout(() => { console.log('{"late":true}'); require('child_process').spawn(process.execPath, ['-e', 'setTimeout(() => console.log("child"), 300)'], { stdio: ['ignore', 'inherit', 'ignore'] }); }, 400);`,
    );
    expect(code).toBe(0);
    expect(lines.map((line) => line.raw)).toEqual(['{"late":true}', 'child']);
  });

  it('removes each pipe’s name once it is open, and the spare ones on close', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'pool-'));
    try {
      const output = await batched(new FifoPool(4, parent));
      const [folder] = readdirSync(parent);
      const names = () => readdirSync(join(parent, folder!));
      expect(names()).toHaveLength(4);
      await run(output, `console.log('{}')`);
      expect(names()).toHaveLength(3);
      output.close();
      expect(readdirSync(parent)).toEqual([]);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('falls back to an ordinary pipe when no named pipe can be made', async () => {
    const pool = new FifoPool();
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent'; // no mkfifo to run
    try {
      await pool.ready();
    } finally {
      process.env.PATH = path;
    }
    expect(pool.unavailable).toMatch(/mkfifo failed/);
    const output = await batched(pool);
    expect(output.take()).toBeUndefined();
    const { lines } = await run(output, `console.log('{"ordinary":true}')`);
    expect(lines.map((line) => line.json)).toEqual([{ ordinary: true }]);
  });
});
