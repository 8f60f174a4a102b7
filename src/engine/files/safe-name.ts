import { extname } from 'node:path';

/** Longest name kept, before the extension: file systems take 255 bytes, and paths must stay readable. */
const STEM_CHARS = 80;

/**
 * A file name that is safe to create anywhere and to show an agent: no directories, no dots
 * in front, no control or shell-special characters, never empty. Letters of any script stay.
 */
export function safeFileName(raw: string | undefined, fallback: string): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .replace(/[^\p{L}\p{N}._ -]+/gu, '_')
    .replace(/\s+/g, '-')
    .replace(/^[.\-_]+/, '')
    .replace(/[.]+$/, '');
  const extension = extname(clean).slice(0, 12);
  const stem = clean.slice(0, clean.length - extname(clean).length).slice(0, STEM_CHARS);
  return stem ? `${stem}${extension}` : `${fallback}${extension}`;
}
