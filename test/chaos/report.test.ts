import { describe, expect, it } from 'vitest';
import { promptWithFiles } from '../../src/engine/files/prompt.ts';
import { formatReport, turnStarts, type ChaosReport, type Sent } from './report.ts';

// The chaos run judges order by when each message's turn started in the CLI: a start given to
// the wrong message makes every message between seem out of order (seed 5606: twenty in one chat).
describe('when each message of a chaos run started its turn', () => {
  const at = 1_000;
  const turn = (chatId: number, text: string): Sent => ({ chatId, messageId: 0, text, kind: 'turn', at });

  it('is its own turn, never a later message whose text it begins', () => {
    // "question c4" answered an earlier question (no turn of its own); "question c46" came much later.
    const sent = [turn(-7003, 'question c4'), turn(-7003, 'tools:1 pace:300 c5'), turn(-7003, 'question c46')];
    const starts = turnStarts(
      [
        { prompt: 'tools:1 pace:300 c5', startedAt: 2_000 },
        { prompt: 'question c46', startedAt: 9_000 },
      ],
      sent,
    );
    expect(starts.has('question c4')).toBe(false);
    expect(starts.get('question c46')).toBe(9_000);
    expect(starts.get('tools:1 pace:300 c5')).toBe(2_000);
  });

  it('is found with the files its prompt lists, and the first start counts (a resume comes later)', () => {
    const text = 'c10 a file';
    const prompt = promptWithFiles(text, [{ path: '/work/inbox/c10.log', kind: 'document', bytes: 65_536 }], '/work');
    const starts = turnStarts(
      [
        { prompt, startedAt: 3_000 },
        { prompt: 'c100 a file', startedAt: 5_000 },
        { prompt, startedAt: 7_000 },
      ],
      [turn(-7001, text), turn(-7001, 'c100 a file')],
    );
    expect(starts.get(text)).toBe(3_000);
    expect(starts.get('c100 a file')).toBe(5_000);
  });
});

describe('the chaos report', () => {
  it('gives the gap of a duplicate the kill window explains even when the kill came at once (0 ms)', () => {
    const report: ChaosReport = {
      seed: 6010,
      cycles: 1,
      kills: { sigkill: 1, drained: 0, killedDuringDrain: 0 },
      turns: { sent: 1, answered: 1, resumed: 1, told: 0, refused: 0, lost: 0, duplicated: 0, windowDuplicated: 1, outOfOrder: 0 },
      runs: { spawned: 0, announced: 0, interrupted: 0, cut: 0, lost: 0, duplicated: 0, windowDuplicated: 0, unknownOutcome: 0, moved: 0 },
      resumeMs: [],
      windowMs: 0,
      problems: [],
      logs: [],
    };
    expect(formatReport(report)).toMatch(/the kill that made it go twice\s+0 ms$/m);
    expect(formatReport({ ...report, turns: { ...report.turns, windowDuplicated: 0 } })).toMatch(/the kill that made it go twice\s+-$/m);
  });
});
