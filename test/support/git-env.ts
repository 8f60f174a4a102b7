/**
 * The environment of a bridge process (and its git) in tests that merge: the machine's git
 * configuration must not count, and the bridge commits a merge as itself when the checkout
 * names nobody, so the test's own commits name a person.
 */
export const GIT_ENV = {
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'T',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 'T',
  GIT_COMMITTER_EMAIL: 't@example.com',
};
