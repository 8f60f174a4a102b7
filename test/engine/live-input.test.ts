import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../src/kernel/protocols/events.ts';
import { LiveInput, SILENT_CLOSE_MS } from '../../src/engine/session/live-input.ts';
import { ProcessMessages } from '../../src/engine/session/process-messages.ts';

// When a CLI reading messages while it works has answered them all: only then is its input closed.
function live(options: { writable?: () => boolean } = {}) {
  const written: string[] = [];
  let ended = 0;
  const input = new LiveInput({
    send: (text, id) => {
      if (options.writable && !options.writable()) return false;
      written.push(`${id}:${text}`);
      return true;
    },
    end: () => ended++,
  });
  return { input, written, ended: () => ended };
}
const stage = (id: string, state: 'queued' | 'started' | 'completed'): AgentEvent => ({ type: 'input', id, state });
const result = (answered?: string[]): AgentEvent => ({ type: 'result', text: 'done', isError: false, ...(answered ? { answered } : {}) });

afterEach(() => vi.useRealTimers());

describe('messages to a CLI while it works', () => {
  it('closes the input once the only message is answered', () => {
    const { input, written, ended } = live();
    expect(input.send('the task', 'a')).toBe(true);
    expect(written).toEqual(['a:the task']);
    for (const event of [stage('a', 'queued'), stage('a', 'started'), { type: 'text', text: 'working' } as AgentEvent]) input.observe(event);
    expect(ended()).toBe(0);
    input.observe(result(['a']));
    expect(ended()).toBe(1);
    expect(input.send('too late', 'b')).toBe(false);
    expect(written).toEqual(['a:the task']);
  });

  it('keeps it open past a result while a message waits for the next turn, and closes it after that one', () => {
    const { input, ended } = live();
    input.send('the task', 'a');
    input.observe(stage('a', 'started'));
    input.send('and the docs', 'b');
    input.observe(stage('b', 'queued'));
    input.observe(result(['a']));
    input.observe(stage('a', 'completed'));
    expect(ended()).toBe(0);
    input.observe(stage('b', 'started'));
    input.observe(stage('b', 'completed')); // a turn is running: its result comes first
    expect(ended()).toBe(0);
    input.observe(result(['b']));
    expect(ended()).toBe(1);
  });

  it('closes after the result of a turn that took a message in while it worked', () => {
    const { input, ended } = live();
    input.send('the task', 'a');
    input.observe(stage('a', 'started'));
    input.send('mid-turn', 'b');
    input.observe(stage('b', 'queued'));
    input.observe(stage('b', 'started'));
    input.observe(stage('b', 'completed'));
    expect(ended()).toBe(0);
    input.observe(result(['a']));
    expect(ended()).toBe(1);
  });

  it('takes a result as answering everything from a CLI that never names messages back', () => {
    const { input, ended } = live();
    input.send('the task', 'a');
    input.observe(result());
    expect(ended()).toBe(1);
  });

  it('writes a message past the prompt only into a CLI that has named one back: one that has not is refused, and goes as a turn', () => {
    const { input, written } = live();
    input.send('the task', 'a');
    expect(input.namesMessages).toBeUndefined();
    expect(input.send('too early to know', 'b')).toBe(false);
    input.observe({ type: 'text', text: 'working' });
    expect(input.namesMessages).toBe(false);
    expect(input.send('never into this one', 'c')).toBe(false);
    expect(written).toEqual(['a:the task']);

    const naming = live();
    naming.input.send('the task', 'a');
    naming.input.observe(stage('a', 'queued'));
    expect(naming.input.namesMessages).toBe(true);
    expect(naming.input.send('steered', 'b')).toBe(true);
  });

  it('tells a result for an earlier message from the turn’s own: by the ids it names, or else by how long its turn took', () => {
    const process = new ProcessMessages();
    const earlier = new LiveInput({ send: () => true, end: () => {} }, { process });
    earlier.send('first', 'a');
    earlier.observe(stage('a', 'queued'));
    const next = new LiveInput({ send: () => true, end: () => {} }, { process });
    next.send('second', 'b');
    expect(next.answersEarlier({ type: 'result', text: 'first’s', isError: false, answered: ['a'] })).toBe(true);
    expect(next.answersEarlier({ type: 'result', text: 'second’s', isError: false, answered: ['b'] })).toBe(false);
    expect(next.answersEarlier({ type: 'result', text: 'a notification’s', isError: false, answered: ['n'] })).toBe(false);

    const silent = new ProcessMessages();
    const one = new LiveInput({ send: () => true, end: () => {} }, { process: silent });
    one.send('first', 'a');
    one.observe({ type: 'text', text: 'working' });
    const two = new LiveInput({ send: () => true, end: () => {} }, { process: silent });
    two.send('second', 'b');
    expect(two.answersEarlier({ type: 'result', text: 'first’s', isError: false, durationMs: 4000 })).toBe(true);
    expect(two.answersEarlier({ type: 'result', text: 'second’s', isError: false, durationMs: 3 })).toBe(false);
    expect(two.answersEarlier({ type: 'result', text: 'no clock', isError: false })).toBe(false);
  });

  it('closes a CLI gone silent after a result with a message unanswered', () => {
    vi.useFakeTimers();
    const { input, ended } = live();
    input.send('the task', 'a');
    input.observe(stage('a', 'started'));
    input.send('lost', 'b');
    input.observe(result(['a']));
    vi.advanceTimersByTime(SILENT_CLOSE_MS - 1);
    expect(ended()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(ended()).toBe(1);
  });

  it('names the messages a result leaves to a turn of their own once it answers the prompt, and hands them on', () => {
    const { input, ended } = live();
    input.send('the task', 'a');
    input.observe(stage('a', 'started'));
    input.send('mid-turn', 'b');
    input.observe(stage('b', 'started'));
    input.send('after the result', 'c');
    expect(input.leftBy({ type: 'result', text: 'done', isError: false, answered: ['b'] })).toEqual([]); // not the prompt's
    const answer = { type: 'result' as const, text: 'done', isError: false, answered: ['a', 'b'] };
    expect(input.leftBy(answer)).toEqual(['c']);
    expect(input.hand(['c'])).toEqual({ ids: ['c'], taken: [] });
    input.observe(answer);
    expect(ended()).toBe(1);
    // A CLI that names no message leaves none: its result answers them all.
    const silent = live();
    silent.input.send('the task', 'a');
    silent.input.send('more', 'b');
    expect(silent.input.leftBy({ type: 'result', text: 'done', isError: false })).toEqual([]);
  });

  it('as the input of the turn that answers messages handed to it, ends with their answer', () => {
    const ended: number[] = [];
    const input = new LiveInput({ send: () => true, end: () => ended.push(1) }, { handed: { ids: ['c', 'd'], taken: ['c'] } });
    expect(input.untaken).toBe(1); // 'd': its first, 'c', stands as its prompt
    input.observe(stage('d', 'started'));
    input.observe(result(['c']));
    expect(ended).toEqual([]);
    input.observe(result(['d']));
    expect(ended).toEqual([1]);
  });

  it('says so when the input cannot take a message (the CLI is gone), so it goes another way', () => {
    let writable = true;
    const { input } = live({ writable: () => writable });
    expect(input.send('the task', 'a')).toBe(true);
    writable = false;
    expect(input.send('more', 'b')).toBe(false);
  });
});
