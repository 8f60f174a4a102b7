import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/kernel/audit/audit-log.ts';
import { tempDir } from '../support/bridge-process.ts';

let dir: { path: string; remove(): Promise<void> };
beforeEach(async () => (dir = await tempDir('audit-')));
afterEach(() => dir.remove());

describe('the audit log', () => {
  it('rotates by size and keeps a bounded number of files, losing no line on the way', async () => {
    const audit = new AuditLog(dir.path, { maxBytes: 4096, keep: 3 });
    for (let i = 0; i < 400; i++) void audit.record({ event: 'tool_call', runId: `run-${i % 4}`, chat: '-1', tool: 'Bash', input: { command: `echo ${i}` } });
    await audit.flush();
    const files = (await readdir(dir.path)).sort();
    expect(files).toEqual(['audit.jsonl', 'audit.jsonl.1', 'audit.jsonl.2', 'audit.jsonl.3']);
    let lines: string[] = [];
    for (const file of files) {
      const text = await readFile(join(dir.path, file), 'utf8');
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
      lines = lines.concat(text.trim().split('\n'));
    }
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow(); // none torn by a rotation
    const newest = lines.map((line) => JSON.parse(line).inputPreview as string).filter((p) => p.includes('"echo 399"'));
    expect(newest).toHaveLength(1);
  });

  it("counts each run's entries as they are written, without reading the file back", async () => {
    const audit = new AuditLog(dir.path, { maxBytes: 1024, keep: 1 });
    for (let i = 0; i < 50; i++) void audit.record({ event: i % 2 ? 'tool_call' : 'tool_auto_approved', runId: 'r1', chat: '-1' });
    void audit.record({ event: 'spawn', runId: 'r2', chat: '-1' });
    await audit.flush();
    expect(audit.countsFor('r1')).toEqual({ tool_auto_approved: 25, tool_call: 25 }); // most of them rotated away long ago
    audit.forget('r1');
    expect(audit.countsFor('r1')).toEqual({});
    expect(audit.countsFor('r2')).toEqual({ spawn: 1 });
  });
});
