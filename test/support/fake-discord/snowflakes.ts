/** Discord's epoch: the first second of 2015, what a snowflake's timestamp counts from. */
const DISCORD_EPOCH = 1_420_070_400_000n;

/**
 * Snowflakes as Discord makes them: the milliseconds since its epoch in the high bits, a
 * counter in the low 12, so ids sort by creation and none repeats within one fake.
 */
export class Snowflakes {
  private counter = 0n;

  next(now = Date.now()): string {
    this.counter = (this.counter + 1n) & 0xfffn;
    return String(((BigInt(now) - DISCORD_EPOCH) << 22n) | (1n << 17n) | this.counter);
  }
}
