import { describe, expect, it } from 'vitest';
import type { Log } from '../../src/kernel/log/logger.ts';
import type { OrchestrationRecord } from '../../src/work/orchestration/orchestration-record.ts';
import { ProgressPictures, type ProgressDrawing } from '../../src/work/orchestration/progress-picture.ts';
import { NO_CHAT, type MessageRef, type Outbound, type Picture } from '../../src/kernel/ports/chat.ts';
import { plainText, plain } from '../../src/kernel/rich/index.ts';
import { fanOutFanIn } from './support/plans.ts';

// The picture beside an orchestration's progress: sent once, replaced only when the graph
// changed, one call at a time with the newest state last, and never a failure of the plan.

function orchestration(extra: Partial<OrchestrationRecord> = {}): OrchestrationRecord {
  return {
    id: 'o1',
    number: 1,
    chatKey: 'telegram:5',
    chat: { transport: 'telegram', chat: '5' },
    requester: { kind: 'user', userId: '5' },
    origin: { cwd: '/tmp', cli: 'claude', depth: 0 },
    plan: fanOutFanIn,
    steps: Object.fromEntries(fanOutFanIn.steps.map((s) => [s.id, { status: 'pending' as const, attempts: 0 }])),
    status: 'running',
    createdAt: 0,
    progressMessageId: '10',
    ...extra,
  };
}

/** A chat that shows pictures: each call recorded, and held until released when `hold` is on. */
class PictureChat {
  readonly calls: { kind: 'send' | 'edit'; shows: string; caption: string; messageId: string }[] = [];
  hold = false;
  failNext: Error | undefined;
  private waiting: (() => void)[] = [];

  readonly out = {
    sendPicture: (to: unknown, picture: Picture) => this.call('send', picture, '11'),
    editPicture: (ref: MessageRef, picture: Picture) => this.call('edit', picture, ref.messageId).then(() => true),
  } as unknown as Outbound;

  release(): void {
    this.hold = false;
    for (const go of this.waiting.splice(0)) go();
  }

  private async call(kind: 'send' | 'edit', picture: Picture, messageId: string): Promise<MessageRef> {
    if (this.hold) await new Promise<void>((resolve) => this.waiting.push(resolve));
    const error = this.failNext;
    this.failNext = undefined;
    if (error) throw error;
    this.calls.push({ kind, shows: Buffer.from(picture.png).toString(), caption: plainText(picture.caption!), messageId });
    return { transport: 'telegram', chat: '5', messageId };
  }
}

function setUp(record: OrchestrationRecord, drawing: Partial<ProgressDrawing> = {}) {
  const chat = new PictureChat();
  const records = new Map([[record.id, record]]);
  const warnings: string[] = [];
  const pictures = new ProgressPictures({
    out: chat.out,
    drawing: {
      // What the picture shows: each step's state, in plan order.
      svg: (o) => o.plan.steps.map((s) => `${s.id}=${o.steps[s.id]!.status}`).join(' '),
      caption: (o) => plain(`#${o.number} ${o.status}`),
      png: async (svg) => Buffer.from(svg),
      ...drawing,
    },
    get: (id) => records.get(id),
    runOf: () => undefined,
    remember: async (id, picture) => void records.set(id, { ...records.get(id)!, picture }),
    log: { warn: (_fields: unknown, message: string) => void warnings.push(message) } as unknown as Log,
  });
  const settled = () => expect.poll(() => pictures.isIdle(), { timeout: 10_000, interval: 5 }).toBe(true);
  const change = (step: string, status: OrchestrationRecord['steps'][string]['status'], extra: Partial<OrchestrationRecord> = {}) => {
    const now = records.get(record.id)!;
    records.set(record.id, { ...now, ...extra, steps: { ...now.steps, [step]: { status, attempts: 1 } } });
  };
  return { chat, records, warnings, pictures, settled, change };
}

describe('the progress picture', () => {
  it('is sent once, then edited only when the graph changed', async () => {
    const { chat, records, pictures, settled, change } = setUp(orchestration());
    pictures.update('o1');
    await settled();
    expect(chat.calls).toEqual([{ kind: 'send', shows: expect.stringContaining('analyze=pending'), caption: '#1 running', messageId: '11' }]);
    expect(records.get('o1')!.picture).toEqual({ messageId: '11', drawn: expect.any(String) });

    pictures.update('o1'); // nothing changed: nothing sent
    await settled();
    expect(chat.calls).toHaveLength(1);

    change('analyze', 'running');
    pictures.update('o1');
    await settled();
    expect(chat.calls.map((c) => [c.kind, c.messageId])).toEqual([
      ['send', '11'],
      ['edit', '11'],
    ]);
    expect(chat.calls[1]!.shows).toContain('analyze=running');
  });

  it('keeps one call in flight, and draws the newest state when it is done: the end always lands', async () => {
    const { chat, records, pictures, settled, change } = setUp(orchestration());
    pictures.update('o1');
    await settled();
    chat.hold = true;
    change('analyze', 'running');
    pictures.update('o1');
    await expect.poll(() => pictures.isIdle()).toBe(false);
    for (const step of ['analyze', 'backend', 'frontend', 'docs']) {
      change(step, 'completed');
      pictures.update('o1');
    }
    change('integration', 'completed', { status: 'completed' });
    pictures.update('o1');
    chat.release();
    await settled();
    expect(chat.calls.map((c) => c.kind)).toEqual(['send', 'edit', 'edit']);
    expect(chat.calls[1]!.shows).toContain('analyze=running');
    expect(chat.calls[2]!.shows).toBe('analyze=completed backend=completed frontend=completed docs=completed integration=completed');
    expect(chat.calls[2]!.caption).toBe('#1 completed');
    const drawn = records.get('o1')!.picture!.drawn;
    pictures.update('o1'); // after the end, the same again: nothing
    await settled();
    expect(chat.calls).toHaveLength(3);
    expect(records.get('o1')!.picture!.drawn).toBe(drawn);
  });

  it('leaves the orchestration in text when its first picture cannot be drawn, without failing anything', async () => {
    const { chat, warnings, pictures, settled, change } = setUp(orchestration(), {
      png: () => Promise.reject(new Error('resvg: the font would not load')),
    });
    pictures.update('o1');
    await settled();
    change('analyze', 'running');
    pictures.update('o1'); // not sent later, out of its place
    await settled();
    expect(chat.calls).toEqual([]);
    expect(warnings).toEqual(["the orchestration's picture failed: resvg: the font would not load"]);
  });

  it('tries again at the next update when a later picture fails', async () => {
    const { chat, warnings, pictures, settled, change } = setUp(orchestration());
    pictures.update('o1');
    await settled();
    change('analyze', 'running');
    chat.failNext = new Error('Bad Gateway');
    pictures.update('o1');
    await settled();
    expect(warnings).toEqual(["the orchestration's picture failed: Bad Gateway"]);
    change('analyze', 'completed');
    pictures.update('o1');
    await settled();
    expect(chat.calls.map((c) => c.kind)).toEqual(['send', 'edit']);
    expect(chat.calls[1]!.shows).toContain('analyze=completed');
  });

  it('is left out without a progress message, in no chat, and where the transport shows no pictures', async () => {
    for (const record of [orchestration({ progressMessageId: undefined }), orchestration({ chat: NO_CHAT })]) {
      const { chat, pictures, settled } = setUp(record);
      pictures.update('o1');
      await settled();
      expect(chat.calls).toEqual([]);
    }
    const records = new Map([['o1', orchestration()]]);
    let drawn = 0;
    const textOnly = new ProgressPictures({
      out: {} as Outbound,
      drawing: { svg: () => String(++drawn), caption: () => plain(''), png: async () => Buffer.from('') },
      get: (id) => records.get(id),
      runOf: () => undefined,
      remember: async () => {},
      log: {} as Log,
    });
    textOnly.update('o1');
    await expect.poll(() => textOnly.isIdle()).toBe(true);
    expect(drawn).toBe(0);
  });
});
