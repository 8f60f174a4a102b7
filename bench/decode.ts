import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Adapter } from '../src/engine/adapters/load.ts';
import { decoders } from '../src/kernel/protocols/index.ts';
import { LineDecoder } from '../src/kernel/protocols/line-decoder.ts';
import { CliProcess } from '../src/engine/process/cli-process.ts';
import { parseLine } from '../src/engine/process/lines.ts';
import { Turn } from '../src/engine/session/turn.ts';
import { PLAYED_SESSION, playedAcpWire } from '../test/support/played-acp-agent.ts';
import type { BenchResult } from './report.ts';

const TRANSCRIPT = fileURLToPath(new URL('../test/fixtures/transcripts/claude-2.1.330-tool-bash.raw.ndjson', import.meta.url));

/** A long recorded-style stream: the tool turn's middle (text, tool call, tool result) repeated. */
function buildStream(dir: string, repeats: number): { file: string; lines: string[] } {
  const recorded = readFileSync(TRANSCRIPT, 'utf8').trim().split('\n');
  const [init, ...rest] = recorded;
  const result = rest.pop()!;
  const body = rest.map((line) => line.replaceAll('toolu_mock_1', 'toolu_ID'));
  const lines = [init!];
  for (let i = 0; i < repeats; i++) lines.push(...body.map((line) => line.replaceAll('toolu_ID', `toolu_${i}`)));
  lines.push(result);
  const file = join(dir, 'stream.ndjson');
  writeFileSync(file, lines.join('\n') + '\n');
  return { file, lines };
}

/** Replays the file through the real engine: a process, its stdout split, decoded, turned into an outcome. */
const replayAdapter = (): Adapter => ({
  name: 'replay',
  description: '',
  command: 'cat',
  resolvedCommand: 'cat',
  protocol: 'claude-stream-json',
  args: [],
  untrusted: [],
  untrustedFiles: [],
  prompt: ['{prompt}'],
  resume: ['{sessionId}'],
  options: {},
  permissions: { bypass: [], unattended: 'everything' },
  toolSeparator: ',',
  env: {},
  walls: { args: [], permissions: {}, unset: [], config: [], operatorFields: {}, login: [], givenOnce: [], hosts: [] },
  doctor: { version: ['--version'] },
  file: 'bench',
});

/** One turn of an ACP agent at work: `calls` times a paragraph of its message, then a shell call announced and completed. */
function acpTurn(calls: number): string[] {
  const lines: string[] = [];
  const update = (update: object) => lines.push(JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: PLAYED_SESSION, update } }));
  for (let i = 0; i < calls; i++) {
    update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Checking the build before the change.\n\n' } });
    update({ sessionUpdate: 'tool_call', toolCallId: `call_${i}`, title: 'npm test', kind: 'execute', status: 'pending', rawInput: { command: 'npm test' } });
    update({
      sessionUpdate: 'tool_call_update',
      toolCallId: `call_${i}`,
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: 'ok' } }],
    });
  }
  return lines;
}

/**
 * ACP's way from a line to events, as a live agent's turns take it: each line parsed, then the
 * SDK's connection and the updates' reducer; `turns` prompts of `turn`'s lines, each answered.
 */
async function acpWireRun(dir: string, turns: number, turn: readonly string[]): Promise<{ ms: number; events: number }> {
  let events = 0;
  let wake = () => {};
  const next = () => new Promise<void>((resolve) => (wake = resolve));
  let promptId: unknown;
  const opened = next();
  const wire = playedAcpWire(
    {
      emit: (event) => {
        if (event.type === 'started' || event.type === 'result') wake();
        else events++;
      },
      written: (request) => {
        if (request.method !== 'session/prompt') return;
        promptId = request.id;
        wake();
      },
    },
    { cwd: dir, mode: 'bypass' },
  );
  await opened;
  const start = performance.now();
  for (let i = 0; i < turns; i++) {
    const prompted = next();
    wire.send('go on', String(i));
    await prompted;
    const ended = next();
    for (const raw of turn) wire.take(parseLine(raw)!.json);
    wire.take({ jsonrpc: '2.0', id: promptId, result: { stopReason: 'end_turn' } });
    await ended;
  }
  return { ms: performance.now() - start, events };
}

/** A measure's best time, and what it counted then (lines, events). */
interface Best {
  ms: number;
  count: number;
}

/**
 * The best time of each of `fns`, taking turns `rounds` times: on a noisy machine a burst of
 * load then falls on each alike, rather than on whichever ran during it.
 */
async function bestTakingTurns(rounds: number, fns: (() => number | Promise<number>)[]): Promise<Best[]> {
  const best = fns.map(() => ({ ms: Infinity, count: 0 }));
  for (let i = 0; i < rounds; i++) {
    for (const [at, fn] of fns.entries()) {
      const start = performance.now();
      const count = await fn();
      const ms = performance.now() - start;
      if (ms < best[at]!.ms) best[at] = { ms, count };
    }
  }
  return best;
}

export async function benchDecode(dir: string): Promise<BenchResult[]> {
  const { file, lines } = buildStream(dir, 20_000);
  const bytes = lines.reduce((sum, line) => sum + line.length + 1, 0);

  // Each measure once a round, ten rounds (with five, one run to the next moved the whole engine
  // by ±3%, with ten by ±1%): JSON.parse alone; the decoders over parsed lines; the whole
  // engine (a process, its lines split, parsed and decoded, a turn's outcome); and the engine's
  // floor, the same process and lines parsed but not decoded, with no turn.
  const [baseline, decodeOnly, engine, floor] = (await bestTakingTurns(10, [
    () => {
      let parsed = 0;
      for (const line of lines) if (JSON.parse(line)) parsed++;
      return parsed;
    },
    () => {
      const decoder = new LineDecoder(decoders['claude-stream-json']!);
      let events = 0;
      for (const raw of lines) {
        const line = parseLine(raw)!;
        events += decoder.decode(line.raw, line.json).length;
      }
      return events;
    },
    async () => {
      let events = 0;
      const turn = new Turn({ adapter: replayAdapter(), spec: { prompt: file }, cwd: dir, env: process.env }, { onEvent: () => events++ });
      const outcome = await turn.done;
      if (outcome.status !== 'completed') throw new Error(`replay failed: ${outcome.error}`);
      return events;
    },
    async () => {
      let read = 0;
      const cli = new CliProcess({ command: 'cat', args: [file], cwd: dir, env: process.env });
      await cli.readLines(() => read++);
      await cli.exited;
      if (read !== lines.length) throw new Error(`read ${read} lines of ${lines.length}`);
      return read;
    },
  ])) as [Best, Best, Best, Best];
  const [engineMs, engineEvents, linesMs] = [engine.ms, engine.count, floor.ms];

  // ACP's turns: as many lines as the recorded stream's, in turns of 100 tool calls.
  const turn = acpTurn(100);
  const acpTurns = Math.round(lines.length / turn.length);
  let acp = { ms: Infinity, events: 0 };
  for (let i = 0; i < 3; i++) {
    const run = await acpWireRun(dir, acpTurns, turn);
    if (run.ms < acp.ms) acp = run;
  }

  const perSecond = (count: number, ms: number) => Math.round((count / ms) * 1000);
  const microsPerEvent = (ms: number, events: number) => (ms * 1000) / events;
  const baselineLines = perSecond(lines.length, baseline.ms);
  return [
    { suite: 'decode', name: 'stream size', value: lines.length, unit: 'lines', note: `${(bytes / 1e6).toFixed(1)} MB` },
    { suite: 'decode', name: 'bare JSON.parse (baseline)', value: baselineLines, unit: 'lines/s' },
    {
      suite: 'decode',
      name: 'decoders only',
      value: perSecond(decodeOnly.count, decodeOnly.ms),
      unit: 'events/s',
      note: `${perSecond(lines.length, decodeOnly.ms)} lines/s`,
    },
    {
      suite: 'decode',
      name: 'whole engine (process → events)',
      value: perSecond(engineEvents, engineMs),
      unit: 'events/s',
      note: `${perSecond(lines.length, engineMs)} lines/s`,
    },
    {
      suite: 'decode',
      name: 'decoders only ÷ baseline',
      value: round(baseline.ms / decodeOnly.ms),
      unit: 'ratio',
      note: 'lines/s over lines/s; 1.0 = as fast as JSON.parse alone',
    },
    { suite: 'decode', name: 'whole engine ÷ baseline', value: round(baseline.ms / engineMs), unit: 'ratio', note: 'lines/s over lines/s, same run' },
    {
      suite: 'decode',
      name: 'ACP: line → events (the SDK’s connection and the updates)',
      value: perSecond(acp.events, acp.ms),
      unit: 'events/s',
      note: `${perSecond(acpTurns * turn.length, acp.ms)} lines/s, ${acpTurns} turns of ${turn.length} updates`,
    },
    {
      suite: 'decode',
      name: 'CPU per event, ACP ÷ claude’s decoder',
      value: round(microsPerEvent(acp.ms, acp.events) / microsPerEvent(decodeOnly.ms, decodeOnly.count)),
      unit: 'ratio',
      note: `${microsPerEvent(acp.ms, acp.events).toFixed(2)} µs against ${microsPerEvent(decodeOnly.ms, decodeOnly.count).toFixed(2)} µs, each from a parsed line`,
    },
    {
      suite: 'decode',
      name: 'process → parsed lines ÷ baseline',
      value: round(baseline.ms / linesMs),
      unit: 'ratio',
      note: 'no decoding, no turn: what the whole engine can reach',
    },
  ];
}

const round = (n: number) => Math.round(n * 1000) / 1000;
