import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATA_FORMAT } from '../../src/kernel/store/data-format.ts';
import { UsageLedger, utcDay } from '../../src/engine/usage/usage-ledger.ts';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'bridge-ledger-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const tally = (costUsd: number) => ({ turns: 1, runs: 0, inputTokens: 10, outputTokens: 5, costUsd });

describe('the usage ledger by person', () => {
  it('opens a file written before people had budgets, keeps its chats, and adds people from then on', async () => {
    const day = utcDay();
    const before = {
      version: DATA_FORMAT,
      chats: { 'telegram:-1': { days: { [day]: { claude: tally(0.5) } }, total: { claude: tally(0.5) }, costliest: [] } },
    };
    await writeFile(join(dataDir, 'usage.json'), JSON.stringify(before));
    const ledger = await UsageLedger.open(dataDir);
    expect(ledger.personCostOn('telegram:1')).toBe(0);
    expect(ledger.people()).toEqual([]);
    await ledger.record('telegram:-1', { cli: 'claude', costUsd: 0.25, person: { key: 'telegram:1', name: 'Ada' } });
    await ledger.record('telegram:-2', { cli: 'claude', costUsd: 0.5, person: { key: 'telegram:1' } });
    await ledger.record('telegram:-2', { cli: 'claude', costUsd: 1 }); // nobody typed it: the chat's alone
    expect(ledger.costOn('telegram:-1')).toBe(0.75);
    expect(ledger.personCostOn('telegram:1')).toBe(0.75);
    expect(ledger.people({ chatKeys: ['telegram:-2'] })).toEqual([
      {
        key: 'telegram:1',
        name: 'Ada',
        tally: { ...tally(0.5), inputTokens: 0, outputTokens: 0 },
        chats: { 'telegram:-2': { ...tally(0.5), inputTokens: 0, outputTokens: 0 } },
      },
    ]);
    const written = JSON.parse(await readFile(join(dataDir, 'usage.json'), 'utf8')) as { version: number; people: Record<string, unknown> };
    expect(written.version).toBe(DATA_FORMAT);
    expect(Object.keys(written.people)).toEqual(['telegram:1']);
  });
});
