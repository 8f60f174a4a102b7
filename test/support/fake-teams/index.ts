export * from './fake-teams.ts';
export * from './reading.ts';
