const SLUG = /^[a-z0-9][a-z0-9-_]{0,63}$/;

export const SLUG_RULE = '1-64 lower-case letters, digits, "-" or "_", starting with a letter or digit';

export function isValidSlug(slug: string): boolean {
  return SLUG.test(slug);
}
