import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrchestrationRecord } from '../../src/work/orchestration/orchestration-record.ts';
import { OrchestrationStore } from '../../src/work/orchestration/orchestration-store.ts';
import { tempDir } from '../support/bridge-process.ts';
import { chat } from '../support/chats.ts';

let dir: { path: string; remove(): Promise<void> };
beforeEach(async () => (dir = await tempDir('orchestrations-')));
afterEach(() => dir.remove());

const record = (id: string, chatKey: string, overrides: Partial<OrchestrationRecord> = {}): OrchestrationRecord => ({
  id,
  number: 1,
  chatKey,
  chat: chat(Number(chatKey.replace(/^telegram:/, ''))),
  requester: { kind: 'user', userId: '1' },
  origin: { cwd: '/', cli: 'fake', depth: 0 },
  plan: { strategy: 'parallel', steps: [] },
  steps: {},
  status: 'completed',
  createdAt: 0,
  endedAt: 1000,
  delivery: { chat: 'sent', sentParts: 1, attempts: 0 },
  ...overrides,
});

describe('the orchestration store', () => {
  it('sweeps ended, announced orchestrations to an archive kept per chat, like runs', async () => {
    const store = await OrchestrationStore.open(dir.path, { cwd: '/work', cli: 'fake' });
    for (let i = 1; i <= 4; i++) await store.save(record(`done${i}`, 'telegram:-1', { endedAt: i }));
    await store.save(record('running', 'telegram:-1', { status: 'running', endedAt: undefined, delivery: undefined }));
    await store.save(record('unannounced', 'telegram:-1', { delivery: { chat: 'pending', sentParts: 0, attempts: 0 } }));
    await store.save(record('recent', 'telegram:-2', { endedAt: 10_000 }));
    expect(await store.sweep(5000, 1000, 2)).toBe(4);
    expect(
      store
        .all()
        .map((o) => o.id)
        .sort(),
    ).toEqual(['recent', 'running', 'unannounced']);
    expect((await store.archived()).map((o) => o.id)).toEqual(['done3', 'done4']);
    const live = JSON.parse(await readFile(join(dir.path, 'orchestrations.json'), 'utf8'));
    expect(Object.keys(live.orchestrations).sort()).toEqual(['recent', 'running', 'unannounced']);
  });

  it('reads what the first release saved: announced becomes a delivery, and a plan gets the chat defaults as its origin', async () => {
    const legacy = { ...record('old', 'telegram:-1'), announced: false } as Partial<OrchestrationRecord> & { announced: boolean };
    delete legacy.delivery;
    delete legacy.origin;
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(dir.path, 'orchestrations.json'), JSON.stringify({ version: 1, numbers: { '-1': 1 }, orchestrations: { old: legacy } }));
    const store = await OrchestrationStore.open(dir.path, { cwd: '/work', cli: 'fake' });
    expect(store.get('old')!.delivery).toEqual({ chat: 'pending', sentParts: 0, attempts: 0 });
    expect(store.get('old')).not.toHaveProperty('announced');
    expect(store.get('old')!.origin).toEqual({ cwd: '/work', cli: 'fake', depth: 0 });
  });
});
