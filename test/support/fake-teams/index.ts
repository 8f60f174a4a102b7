export * from './fake-teams.ts';
