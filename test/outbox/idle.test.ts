import { describe, expect, it } from 'vitest';
import { Outbox, type Announcement, type AnnouncementSource } from '../../src/work/outbox/outbox.ts';
import { patchDelivery, pendingDelivery, type Delivery } from '../../src/work/subagents/delivery.ts';
import { plain } from '../../src/kernel/rich/index.ts';
import { TransportNotServedError } from '../../src/kernel/ports/transport.ts';
import { RecordingOutbound } from '../support/recording-outbound.ts';
import type { Log } from '../../src/kernel/log/logger.ts';

const quiet = { warn() {}, info() {}, error() {}, debug() {} } as unknown as Log;

/** One source of ended records kept in memory, as the run and orchestration stores keep theirs. */
function source(deliveries: Map<string, Delivery>): AnnouncementSource {
  const announcement = (id: string): Announcement => ({
    id,
    address: { transport: id === 'elsewhere' ? 'slack' : 'telegram', chat: '-1' },
    endedAt: 1,
    delivery: deliveries.get(id)!,
    parts: () => [{ kind: 'text', text: plain(`ended: ${id}`), options: {} }],
  });
  return {
    name: 'run',
    pending: () => [...deliveries.entries()].filter(([, d]) => d.chat === 'pending').map(([id]) => announcement(id)),
    async save(id, patch) {
      deliveries.set(id, patchDelivery(deliveries.get(id)!, patch));
    },
  };
}

describe('the outbox at rest', () => {
  // The console waits at the end of its input until every part is idle: a record whose end is
  // saved before its saver kicks the outbox must not be taken for nothing left to announce.
  it('is not idle while an ended record waits unkicked, and idle() delivers it', async () => {
    const deliveries = new Map([['r1', pendingDelivery(false)]]);
    const out = new RecordingOutbound();
    const outbox = new Outbox({ out, sources: [source(deliveries)], log: quiet });
    expect(outbox.isIdle()).toBe(false);
    await outbox.idle();
    expect(out.sent.map((s) => s.text)).toEqual(['ended: r1']);
    expect(deliveries.get('r1')!.chat).toBe('sent');
    expect(outbox.isIdle()).toBe(true);
  });

  it('does not wait for what it cannot send here, nor for a retry not yet due, nor once closed', async () => {
    const deliveries = new Map([['elsewhere', pendingDelivery(false)]]);
    const out = new RecordingOutbound();
    out.failNext(new TransportNotServedError('slack'));
    const outbox = new Outbox({ out, sources: [source(deliveries)], log: quiet });
    await outbox.idle();
    expect(deliveries.get('elsewhere')!.chat).toBe('pending');
    expect(outbox.isIdle()).toBe(true);

    deliveries.set('later', { ...pendingDelivery(false), retryAt: Date.now() + 60_000 });
    expect(outbox.isIdle()).toBe(true);

    deliveries.set('fresh', pendingDelivery(false));
    expect(outbox.isIdle()).toBe(false);
    outbox.close();
    expect(outbox.isIdle()).toBe(true);
  });
});
