/** Keeps the last `limit` characters written to it: a CLI's stderr, for error messages, in bounded memory. */
export class TailBuffer {
  private chunks: string[] = [];
  private length = 0;

  constructor(private readonly limit = 8192) {}

  push(chunk: string): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
    while (this.length - (this.chunks[0]?.length ?? 0) >= this.limit && this.chunks.length > 1) {
      this.length -= this.chunks.shift()!.length;
    }
  }

  toString(): string {
    const text = this.chunks.join('');
    return text.length > this.limit ? text.slice(text.length - this.limit) : text;
  }
}
