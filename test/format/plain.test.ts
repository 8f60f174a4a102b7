import { describe, expect, it } from 'vitest';
import { markdownToPlainText } from './support/telegram.ts';

const plain = markdownToPlainText;

describe('markdownToPlainText', () => {
  it('drops markup but keeps the words', () => {
    expect(plain('# Title\n\n**bold** _it_ ~~s~~ `a < b`')).toBe('Title\n\nbold it s a < b');
  });

  it('keeps code block content verbatim', () => {
    expect(plain('```ts\nif (a < b && c) {\n  go();\n}\n```')).toBe('if (a < b && c) {\n  go();\n}');
  });

  it('keeps link targets after their labels, unless the label is the target', () => {
    expect(plain('[docs](https://x.y/d?a=1&b=2) and <https://a.b> and www.x.com and me@x.com')).toBe(
      'docs (https://x.y/d?a=1&b=2) and https://a.b and www.x.com and me@x.com',
    );
    expect(plain('![chart](https://x.y/c.png)')).toBe('chart (https://x.y/c.png)');
    expect(plain('[js](javascript:alert(1))')).toBe('js');
  });

  it('keeps list bullets, table layout and raw HTML as text', () => {
    expect(plain('- a\n  1. b')).toBe('• a\n  1. b');
    expect(plain('| a | b |\n|---|---|\n| 1 | 2 |')).toBe('a │ b\n──┼──\n1 │ 2');
    expect(plain('<b>&amp;</b> & &amp;')).toBe('<b>&</b> & &');
  });

  it('shows quotes as their text', () => {
    expect(plain('> quoted\n\nafter')).toBe('quoted\n\nafter');
  });
});
