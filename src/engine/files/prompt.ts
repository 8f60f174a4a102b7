import { relative } from 'node:path';
import type { SavedFile } from './inbox.ts';
import { megabytes } from './sizes.ts';
import { isInside } from '../projects/directories.ts';

const KIND_WORDS: Record<SavedFile['kind'], string> = {
  document: 'document',
  photo: 'photo',
  voice: 'voice note',
  audio: 'audio',
  video: 'video',
};

/**
 * A prompt with the files that came with it: the words first, then where each file is (from
 * the working directory when it is inside it; absolute without one), so the agent can open
 * them with its own tools.
 */
export function promptWithFiles(text: string, files: readonly SavedFile[], cwd: string | undefined): string {
  if (!files.length) return text;
  const lines = files.map((file) => `- ${filePath(file.path, cwd)} (${describe(file)})`);
  const head = files.length === 1 ? 'The user sent this file with the message' : `The user sent these ${files.length} files with the message`;
  return `${text ? `${text}\n\n` : ''}[${head}; open ${files.length === 1 ? 'it' : 'them'} to see what ${files.length === 1 ? 'it holds' : 'they hold'}:]\n${lines.join('\n')}`;
}

/** A path as the agent in `cwd` should use it. */
export function filePath(path: string, cwd: string | undefined): string {
  return cwd !== undefined && isInside(path, cwd) ? relative(cwd, path) : path;
}

function describe(file: SavedFile): string {
  // A kind an older bridge kept (a round video as 'video_note') is still worded.
  const parts = [file.recorded || (file.kind as string) === 'video_note' ? 'video note' : (KIND_WORDS[file.kind] ?? 'file')];
  if (file.mimeType && file.kind === 'document') parts.push(file.mimeType);
  if (file.durationSeconds !== undefined) parts.push(`${Math.floor(file.durationSeconds / 60)}:${String(file.durationSeconds % 60).padStart(2, '0')}`);
  parts.push(megabytes(file.bytes));
  return parts.join(', ');
}
