import { describe, expect, it } from 'vitest';
import { keysIn } from '../../src/app/checks/config-keys.ts';

// What the doctor takes for a key written into a CLI's configuration, which its agent would read
// in the walls: a literal in a field named for a secret, or the value of a key the bridge holds;
// never a reference to where the key is.
describe('keys in a configuration file', () => {
  const env = { OPENAI_API_KEY: 'sk-proj-the-operators-own-key' };
  const variables = ['OPENAI_API_KEY'];

  it.each([
    ['OpenCode JSON', '{"provider":{"openai":{"options":{"apiKey":"sk-proj-0123456789abcdef"}}}}', ['"apiKey"']],
    ['TOML', 'model = "o4"\napi_key = "0123456789abcdef0123"\n', ['"api_key"']],
    ['YAML', 'auth:\n  access-token: ghp_0123456789abcdefghij\n', ['"access-token"']],
    ['a held key under any name', `{"headers": {"Authorization": "Bearer ${env.OPENAI_API_KEY}"}}`, ["OPENAI_API_KEY's value"]],
  ])('finds %s', (_what, text, found) => {
    expect(keysIn(text, env, variables)).toEqual(found);
  });

  it.each([
    ['OpenCode’s reference', '{"options":{"apiKey":"{env:OPENAI_API_KEY}"}}'],
    ['a shell reference', 'api_key = "${OPENAI_API_KEY}"'],
    ['a short value', '{"token": "abc"}'],
    ['a key’s name alone', '{"envKey": "OPENAI_API_KEY"}'],
    ['a file reference', '{"apiKey": "{file:~/.secrets/openai}"}'],
  ])('passes %s', (_what, text) => {
    expect(keysIn(text, env, variables)).toEqual([]);
  });
});
