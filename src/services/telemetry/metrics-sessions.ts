import { instruments } from './metrics-instruments.ts';

/** What cut a running turn short: a person's Stop (the button, /stop), a message in a chat that interrupts, its budget, or a restart. */
export const INTERRUPTS = ['stop', 'message', 'budget', 'restart'] as const;
export type Interrupt = (typeof INTERRUPTS)[number];

const sessions = instruments((meter) => ({
  steers: meter.createCounter('jsonl_bridge.steers', { unit: '{message}', description: 'Messages steered into a running turn, by CLI' }),
  interrupts: meter.createCounter('jsonl_bridge.interrupts', { unit: '{turn}', description: 'Running turns interrupted, by CLI and why' }),
  resumes: meter.createCounter('jsonl_bridge.resumes', { unit: '{turn}', description: 'Turns a restart cut short, resumed in their CLI session, by CLI' }),
  processes: meter.createObservableGauge('jsonl_bridge.cli.processes', {
    unit: '{process}',
    description: "CLI processes kept alive for chats' sessions, busy with a turn or idle",
  }),
}));

/** Each CLI's counters at 0 from the start, so the first steer, interrupt or resume is counted by rate(). */
export function startSessionCounters(clis: Iterable<string>): void {
  const made = sessions();
  for (const cli of clis) {
    made.steers.add(0, { cli });
    made.resumes.add(0, { cli });
    for (const reason of INTERRUPTS) made.interrupts.add(0, { cli, reason });
  }
}

export function steered(cli: string): void {
  sessions().steers.add(1, { cli });
}

export function interrupted(cli: string, why: Interrupt): void {
  sessions().interrupts.add(1, { cli, reason: why });
}

export function resumed(cli: string): void {
  sessions().resumes.add(1, { cli });
}

/** Reports the live processes at each collection, from where they are counted; returns how to stop. */
export function observeProcesses(count: () => { busy: number; idle: number }): () => void {
  const gauge = sessions().processes;
  const callback = (result: { observe(value: number, attributes: { state: string }): void }) => {
    const { busy, idle } = count();
    result.observe(busy, { state: 'busy' });
    result.observe(idle, { state: 'idle' });
  };
  gauge.addCallback(callback);
  return () => gauge.removeCallback(callback);
}
