import type { MatrixClient, Room } from 'matrix-js-sdk';
import type { Log } from '../../kernel/log/logger.ts';
import type { TransportHost } from '../../kernel/ports/transport.ts';
import { call, roomPath } from './client.ts';
import { matrixChat } from './id.ts';
import type { KeptSync } from './kept-sync.ts';

/** What the bot says where it cannot serve: the room is end-to-end encrypted. */
export const ENCRYPTED_REFUSAL =
  'This room is end-to-end encrypted, and this bridge cannot read encrypted messages (it keeps no encryption keys), so I am leaving it. ' +
  'Invite me to a room without encryption, or start a direct chat with encryption turned off.';

/**
 * The rooms the bot is invited to: joined when the person who invited it is allowed there (a
 * direct invite, `is_direct`, is a private chat), declined with the reason otherwise. An
 * encrypted room is joined only to say, unencrypted, why the bot leaves it: never silence.
 */
export class Invites {
  private readonly handled = new Set<string>();

  constructor(
    private readonly client: MatrixClient,
    private readonly me: string,
    private readonly kept: KeptSync,
    private readonly host: TransportHost,
    private readonly log: Log,
  ) {}

  invited(room: Room): void {
    if (this.handled.has(room.roomId)) return;
    this.handled.add(room.roomId);
    void this.answer(room)
      .catch((error: unknown) => this.log.warn({ err: error }, `Matrix: answering the invite to ${room.roomId} failed`))
      .finally(() => this.handled.delete(room.roomId));
  }

  private async answer(room: Room): Promise<void> {
    const invite = room.currentState.getStateEvents('m.room.member', this.me);
    const inviter = invite?.getSender() ?? '';
    const direct = invite?.getContent().is_direct === true;
    if (!this.host.isAllowed(matrixChat(room.roomId), { id: inviter })) {
      this.log.warn(`Matrix: declined the invite of ${inviter} to ${room.roomId}: they are not allowed to use the bridge there`);
      await call(this.client, 'POST', roomPath(room.roomId, 'leave'), {
        reason: `${inviter} is not allowed to use this bridge: its owner adds them to BRIDGE_ALLOWED_USERS.`,
      });
      return;
    }
    await call(this.client, 'POST', `/join/${encodeURIComponent(room.roomId)}`, {});
    if (room.hasEncryptionStateEvent()) return this.refuseEncrypted(room.roomId);
    await this.kept.keepRoom(room.roomId, { direct });
    this.log.info(`Matrix: joined ${room.roomId}, invited by ${inviter}${direct ? ' (a direct chat)' : ''}`);
  }

  /** An encrypted room: said, unencrypted, then left with the same reason. */
  async refuseEncrypted(roomId: string): Promise<void> {
    this.log.warn(`Matrix: leaving ${roomId}: it is end-to-end encrypted, which the bridge does not serve`);
    await call(this.client, 'PUT', roomPath(roomId, 'send', 'm.room.message', this.client.makeTxnId()), {
      msgtype: 'm.notice',
      body: `⛔ ${ENCRYPTED_REFUSAL}`,
    }).catch((error: unknown) => this.log.warn({ err: error }, 'Matrix: saying why the bot leaves an encrypted room failed'));
    await call(this.client, 'POST', roomPath(roomId, 'leave'), { reason: ENCRYPTED_REFUSAL });
    await this.kept.forgetRoom(roomId);
  }
}
