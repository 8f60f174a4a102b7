/** A turn asks its CLI for something its adapter cannot do: the message names what and where. */
export class UnsupportedOptionError extends Error {
  override name = 'UnsupportedOptionError';
}
