import type { Decoder } from './decoder.ts';
import type { AgentEvent } from './events.ts';

/**
 * Runs a decoder over one CLI's lines, holding its state. Anything the decoder does not
 * understand (not JSON, an unknown event, a decoder bug) becomes a `log` event: a CLI
 * release that changes its output degrades the progress view, never the turn.
 */
export class LineDecoder {
  private state: unknown;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any decoder, whatever its state's type
  constructor(private readonly decoder: Decoder<any>) {
    this.state = decoder.initial();
  }

  decode(raw: string, json: unknown): AgentEvent[] {
    if (json === undefined) return [{ type: 'log', line: raw }];
    let step;
    try {
      step = this.decoder.step(this.state, json);
    } catch {
      step = null;
    }
    if (!step) return [{ type: 'log', line: raw }];
    this.state = step.state;
    return step.events;
  }
}
