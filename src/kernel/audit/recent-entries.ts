import { open } from 'node:fs/promises';
import { jsonLines } from '../store/jsonl-archive.ts';
import type { AuditEntry } from './audit-log.ts';

/** How much of the trail's end is read for its newest entries. */
const TAIL_BYTES = 512 * 1024;

/** The newest `limit` entries of the audit trail (newest first), read from the end of its file. */
export async function recentAuditEntries(file: string, limit: number): Promise<AuditEntry[]> {
  const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!handle) return [];
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    const text = buffer.toString('utf8');
    // A read from the middle of the file begins inside a line: that line is dropped.
    const whole = start > 0 ? text.slice(text.indexOf('\n') + 1) : text;
    return jsonLines<AuditEntry>(whole).reverse().slice(0, limit);
  } finally {
    await handle.close();
  }
}
