export { FakeMatrix } from './fake-matrix.ts';
export { SERVER, type RoomEvent, type FakeRoom } from './model.ts';
