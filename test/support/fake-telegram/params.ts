import { badRequest } from './api-error.ts';
import type { UploadedFile } from './request-body.ts';

/**
 * Typed access to a method's parameters. Telegram is lenient about representation (numbers as
 * strings, objects as JSON strings) and strict about meaning; so is this.
 */
export class Params {
  constructor(
    readonly values: Readonly<Record<string, unknown>>,
    private readonly files: ReadonlyMap<string, UploadedFile>,
  ) {}

  has(name: string): boolean {
    const value = this.values[name];
    return value !== undefined && value !== null;
  }

  string(name: string): string | undefined {
    const value = this.values[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw badRequest(`field "${name}" must be of type String`);
  }

  integer(name: string): number | undefined {
    const value = this.values[name];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value === 'number' && Number.isInteger(value)) return value;
    if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value);
    throw badRequest(`field "${name}" must be of type Integer`);
  }

  boolean(name: string): boolean | undefined {
    const value = this.values[name];
    if (value === undefined || value === null) return undefined;
    if (value === true || value === 'true' || value === 1 || value === '1') return true;
    if (value === false || value === 'false' || value === 0 || value === '0') return false;
    throw badRequest(`field "${name}" must be of type Boolean`);
  }

  /** An object-valued parameter, given either as JSON or as a JSON-encoded string. */
  json(name: string, parseError: string): unknown {
    const value = this.values[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      throw badRequest(parseError);
    }
  }

  /** An InputFile parameter: an uploaded part (via attach:// or under its own name) or a string. */
  file(name: string): UploadedFile | string | undefined {
    const direct = this.files.get(name);
    if (direct) return direct;
    return this.attached(this.string(name));
  }

  /**
   * A file named inside another parameter (an InputMedia's `media`): `attach://<part>` is that
   * uploaded part, anything else a file_id or URL.
   */
  attached(value: string | undefined): UploadedFile | string | undefined {
    if (value?.startsWith('attach://')) {
      const attached = this.files.get(value.slice('attach://'.length));
      if (!attached) throw badRequest('wrong file identifier/HTTP URL specified');
      return attached;
    }
    return value === '' ? undefined : value;
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
