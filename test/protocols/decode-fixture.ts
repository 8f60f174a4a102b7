import { readFileSync } from 'node:fs';
import { decoders, liveDialects } from '../../src/kernel/protocols/index.ts';
import type { AgentEvent } from '../../src/kernel/protocols/events.ts';
import { LineDecoder } from '../../src/kernel/protocols/line-decoder.ts';
import { parseLine } from '../../src/engine/process/lines.ts';

const dir = new URL('../fixtures/transcripts/', import.meta.url);

/** Decodes a recorded transcript line by line, exactly as the engine does. */
export function decodeFixture(protocol: string, file: string): AgentEvent[] {
  const decoder = new LineDecoder(decoders[protocol] ?? liveDialects[protocol]!.decoder);
  return readFileSync(new URL(file, dir), 'utf8')
    .split('\n')
    .map(parseLine)
    .flatMap((line) => (line ? decoder.decode(line.raw, line.json) : []));
}
