import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLines, type CliLine } from '../../src/engine/process/lines.ts';

// The line reader every CLI's output goes through, fed chunk by chunk as a pipe would.
async function linesOf(chunks: (string | Buffer)[], maxBytes?: number): Promise<CliLine[]> {
  const stream = new PassThrough();
  const lines: CliLine[] = [];
  const done = readLines(stream, (line) => lines.push(line), maxBytes);
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  await done;
  return lines;
}

describe('reading a CLI’s lines', () => {
  it('joins lines split across chunks, a character split across chunks too, and keeps a last line without a newline', async () => {
    const euro = Buffer.from('€');
    const lines = await linesOf(['{"a":', '1}\n{"b":"', euro.subarray(0, 1), euro.subarray(1), '"}\r\n', 'banner without newline']);
    expect(lines).toEqual([{ raw: '{"a":1}', json: { a: 1 } }, { raw: '{"b":"€"}', json: { b: '€' } }, { raw: 'banner without newline' }]);
  });

  it('reads ASCII chunks as they are and the others as UTF-8, a character split between them too', async () => {
    const euro = Buffer.from('€');
    const chunks = [
      '{"a":"',
      euro.subarray(0, 2),
      Buffer.concat([euro.subarray(2), Buffer.from('"}\n')]),
      '{"b":"plain"}\n',
      euro.subarray(0, 1),
      '\n{"c":1}\n',
    ];
    expect((await linesOf(chunks)).map((line) => line.raw)).toEqual(['{"a":"€"}', '{"b":"plain"}', '\uFFFD', '{"c":1}']);
  });

  it('skips blank lines and keeps what is not JSON as raw text', async () => {
    expect(await linesOf(['\n   \n{not json}\n[1,2]\n'])).toEqual([{ raw: '{not json}' }, { raw: '[1,2]', json: [1, 2] }]);
  });

  it('drops a line over the limit whole, and reads on', async () => {
    const lines = await linesOf(['{"first":1}\n', 'x'.repeat(30), 'y'.repeat(30), '\n{"after":2}\n'], 40);
    expect(lines.map((line) => line.json)).toEqual([{ first: 1 }, { after: 2 }]);
  });

  it('rejects when the stream fails', async () => {
    const stream = new PassThrough();
    const done = readLines(stream, () => {});
    stream.destroy(new Error('EIO'));
    await expect(done).rejects.toThrow('EIO');
  });
});
