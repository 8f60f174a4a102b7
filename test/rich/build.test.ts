import { describe, expect, it } from 'vitest';
import { bold, code, concat, framed, italic, lines, link, plain, plainText, pre, rich, slice, titled } from '../../src/kernel/rich/index.ts';
import { parseMarkdown } from '../../src/work/presentation/format/index.ts';

/** Each run's text and the styles it has. */
const styles = (text: ReturnType<typeof plain>) =>
  text.runs.map((run) => [
    run.text,
    Object.entries(run.style)
      .filter(([, on]) => on !== false && on !== null)
      .map(([name]) => name)
      .join('+'),
  ]);

describe('rich text built in the core', () => {
  it('shows strings as typed, never as markup, however they look', () => {
    const name = '<b>**x**</b> & `y`';
    const text = rich`⚠️ ${name} in ${code(name)}`;
    expect(plainText(text)).toBe(`⚠️ ${name} in ${name}`);
    expect(styles(text)).toEqual([
      [`⚠️ ${name} in `, ''],
      [name, 'code'],
    ]);
  });

  it('styles whole parts, and puts parts on lines of their own', () => {
    const text = lines([bold('Head'), pre('{"a": 1}', 'json'), rich`${'id'} ${code('42')}`, italic('note')]);
    expect(plainText(text)).toBe('Head\n{"a": 1}\nid 42\nnote');
    expect(styles(text)).toEqual([
      ['Head', 'bold'],
      ['\n', ''],
      ['{"a": 1}', 'pre'],
      ['\nid ', ''],
      ['42', 'code'],
      ['\n', ''],
      ['note', 'italic'],
    ]);
    expect(plainText(titled('Title', 'body'))).toBe('Title\nbody');
  });

  it('shows a link target in plain text unless the label shows it', () => {
    expect(plainText(link('the docs', 'https://example.com/docs'))).toBe('the docs (https://example.com/docs)');
    expect(plainText(link('example.com', 'https://example.com'))).toBe('example.com');
  });

  it('cuts and joins without losing a link target, and frames messages with a header and footer', () => {
    const answer = parseMarkdown('See [the docs](https://example.com/docs) now.');
    const at = answer.text.indexOf('docs') + 2;
    expect(plainText(slice(answer, 0, at)) + plainText(slice(answer, at, answer.text.length))).toBe(plainText(answer));
    expect(plainText(concat([slice(answer, 0, at), slice(answer, at, answer.text.length)]))).toBe(plainText(answer));
    const [first, last] = framed([plain('one'), plain('two')], { header: bold('H'), footer: italic('F') });
    expect([plainText(first!), plainText(last!)]).toEqual(['H\n\none', 'two\n\nF']);
  });
});
