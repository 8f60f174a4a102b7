import { BUTTON_PAYLOAD_BYTES } from './capabilities.ts';
import type { Button, ButtonAnswer, ButtonPress } from './chat.ts';

/** What a press carries after its kind: written by `encode`, read back by `decode` (undefined: not one of ours). */
export interface ButtonCodec<P> {
  encode(payload: P): string;
  decode(raw: string): P | undefined;
}

/**
 * One kind of button: its prefix in callback data (`<kind>:<payload>`) and how its payload is
 * written and read back, declared once by the module that owns the button, so what a press
 * carries is built and parsed in one place. Callback data comes back from the client as it
 * likes: a payload that does not decode is answered, never handed on.
 */
export class ButtonKind<P> {
  constructor(
    readonly kind: string,
    private readonly codec: ButtonCodec<P>,
  ) {}

  /** A button carrying `payload`; one past what every transport's button carries back is a bug in its kind, refused here. */
  button(text: string, payload: P): Button {
    const data = `${this.kind}:${this.codec.encode(payload)}`;
    if (Buffer.byteLength(data) > BUTTON_PAYLOAD_BYTES)
      throw new Error(`a ${this.kind} button's data is ${Buffer.byteLength(data)} bytes, past ${BUTTON_PAYLOAD_BYTES}`);
    return { text, data };
  }

  decode(raw: string): P | undefined {
    return this.codec.decode(raw);
  }
}

/** Ids the bridge makes (nanoid, UUIDs): nothing else is taken for one. */
const ID = /^[\w-]{1,60}$/;

/** A button whose payload is one id: a turn, a run, a session. */
export function idButton(kind: string): ButtonKind<string> {
  return new ButtonKind(kind, { encode: (id) => id, decode: (raw) => (ID.test(raw) ? raw : undefined) });
}

/** Callback data split into its kind and the rest. */
export function buttonKindOf(data: string): { kind: string; raw: string } {
  const split = data.indexOf(':');
  return split < 0 ? { kind: data, raw: '' } : { kind: data.slice(0, split), raw: data.slice(split + 1) };
}

/** What a press of one kind of button does, given its decoded payload. */
export type ButtonHandler<P> = (press: ButtonPress, payload: P) => Promise<ButtonAnswer>;

/** Routes the presses of one kind of button to its handler (the bot's `button`), for a part that owns buttons to wire its own. */
export type WireButton = <P>(kind: ButtonKind<P>, handler: ButtonHandler<P>) => void;
