import { execa } from 'execa';
import { silentLog } from '../test/support/silent-log.ts';
import { startTracing } from '../src/services/telemetry/tracing.ts';
import { startBenchBot, type BenchBot } from './bot.ts';
import type { BenchResult } from './report.ts';

const OWNER = 7;
/** Turns in each block; each makes this many tool calls (a span each). */
const TURNS = Number(process.env.BENCH_TRACES_TURNS ?? 40);
const TOOLS = 10;

/**
 * What tracing costs a turn: the same turns (10 tool calls each) with OTEL_SDK_DISABLED, then
 * exported over OTLP/HTTP (protobuf, then JSON) to a collector's stand-in on this machine,
 * then disabled again, in one run of the whole bot in this process. The stand-in is a process
 * of its own (it only reads and counts), so this process's CPU is the bridge's.
 */
export async function benchTraces(dir: string): Promise<BenchResult[]> {
  const bot = await startBenchBot(dir, { env: { BRIDGE_ALLOWED_USERS: String(OWNER) } });
  const sink = await startSink();
  const saved = { ...process.env };
  let chat = -1;
  const block = async (turns: number) => {
    const latencies: number[] = [];
    const cpuBefore = process.cpuUsage();
    for (let i = 0; i < turns; i++) latencies.push(await turn(bot, chat--));
    const cpu = process.cpuUsage(cpuBefore);
    latencies.sort((a, b) => a - b);
    const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((latencies.length * p) / 100) - 1)]!;
    return { p50: at(50), p99: at(99), cpuMs: (cpu.user + cpu.system) / 1000 / turns };
  };
  const traced = async (env: Record<string, string>) => {
    process.env = { ...saved, OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint, OTEL_BSP_SCHEDULE_DELAY: '200', ...env };
    const tracing = await startTracing('jsonl-bridge', silentLog());
    const bytesBefore = sink.bytes();
    const measured = await block(TURNS);
    await tracing.shutdown();
    await sink.settled();
    return { ...measured, exporting: tracing.exporting !== undefined, bytesPerTurn: (sink.bytes() - bytesBefore) / TURNS };
  };
  try {
    await block(5); // warm-up: the first turns pay for loading code
    const off1 = await traced({ OTEL_SDK_DISABLED: 'true' });
    const protobuf = await traced({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' });
    const json = await traced({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    const off2 = await traced({ OTEL_SDK_DISABLED: 'true' });
    if (
      off1.exporting ||
      off2.exporting ||
      off1.bytesPerTurn ||
      off2.bytesPerTurn ||
      !protobuf.exporting ||
      !json.exporting ||
      !protobuf.bytesPerTurn ||
      !json.bytesPerTurn
    )
      throw new Error('tracing was not on and off as the blocks need');
    const off = { p50: (off1.p50 + off2.p50) / 2, p99: Math.max(off1.p99, off2.p99), cpuMs: (off1.cpuMs + off2.cpuMs) / 2 };
    const note = `${TURNS} turns of ${TOOLS} tool calls each`;
    const round = (n: number) => Math.round(n * 100) / 100;
    return [
      {
        suite: 'traces',
        name: 'message → answer, OTEL_SDK_DISABLED, p50',
        value: round(off.p50),
        unit: 'ms',
        note: `${note}; mean of a block before and one after`,
      },
      { suite: 'traces', name: 'message → answer, OTEL_SDK_DISABLED, p99', value: round(off.p99), unit: 'ms' },
      { suite: 'traces', name: 'message → answer, exporting http/protobuf, p50', value: round(protobuf.p50), unit: 'ms', note },
      { suite: 'traces', name: 'message → answer, exporting http/protobuf, p99', value: round(protobuf.p99), unit: 'ms' },
      { suite: 'traces', name: 'message → answer, exporting http/json, p50', value: round(json.p50), unit: 'ms', note },
      { suite: 'traces', name: 'message → answer, exporting http/json, p99', value: round(json.p99), unit: 'ms' },
      { suite: 'traces', name: "bridge's CPU per turn, OTEL_SDK_DISABLED", value: round(off.cpuMs), unit: 'ms' },
      {
        suite: 'traces',
        name: "bridge's CPU per turn, exporting http/protobuf",
        value: round(protobuf.cpuMs),
        unit: 'ms',
        note: `+${round(protobuf.cpuMs - off.cpuMs)} ms; ${Math.round(protobuf.bytesPerTurn)} bytes sent a turn`,
      },
      {
        suite: 'traces',
        name: "bridge's CPU per turn, exporting http/json",
        value: round(json.cpuMs),
        unit: 'ms',
        note: `+${round(json.cpuMs - off.cpuMs)} ms; ${Math.round(json.bytesPerTurn)} bytes sent a turn`,
      },
    ];
  } finally {
    process.env = saved;
    sink.stop();
    await bot.stop();
  }
}

/** One turn in a chat of its own: from the message sent to its answer at the Bot API. */
async function turn(bot: BenchBot, chatId: number): Promise<number> {
  const { telegram } = bot;
  const sent = Date.now();
  telegram.sendText({ chatId, userId: OWNER, text: `tools:${TOOLS} turn ${chatId}`, chatType: 'group' });
  const answer = await telegram.waitForCall('editMessageText', (c) => c.params.chat_id === chatId && String(c.params.text).startsWith('echo:'), 30_000);
  await bot.app.bot.idle();
  return answer.time - sent;
}

/** A collector's stand-in in a process of its own: it reads each export, counts its bytes, and answers OTLP's empty success. */
async function startSink(): Promise<{ endpoint: string; bytes(): number; settled(): Promise<void>; stop(): void }> {
  const script = `
    let bytes = 0;
    const server = require('node:http').createServer((req, res) => {
      req.on('data', (chunk) => (bytes += chunk.length));
      req.on('end', () => { res.writeHead(200, { 'content-type': req.headers['content-type'] || 'application/json' }); res.end(req.headers['content-type'] === 'application/json' ? '{}' : ''); console.log(bytes); });
    });
    server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));`;
  const child = execa('node', ['-e', script], { buffer: false, reject: false });
  let bytes = 0;
  const port = await new Promise<number>((resolve) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      for (const line of chunk.split('\n').filter(Boolean)) {
        if (line.startsWith('port ')) resolve(Number(line.slice(5)));
        else bytes = Number(line);
      }
    });
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bytes: () => bytes,
    // Its count comes on its output, a moment after the export's answer: until it stops changing.
    async settled() {
      for (let last = -1; last !== bytes;) {
        last = bytes;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    stop: () => void child.kill(),
  };
}
