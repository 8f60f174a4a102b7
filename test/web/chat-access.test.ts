import { describe, expect, it } from 'vitest';
import { mayActOnChat } from '../../src/web/auth/chat-access.ts';

// Who may stop a chat's runs from the dashboard: the one rule every action route asks.
const access = { isOwner: (who: string) => who === 'telegram:1', allowed: (who: string) => who === 'telegram:1' || who === 'telegram:2' };

describe('acting on a chat from the dashboard', () => {
  it('is for the owner always, and for any allowed person in a chat, as /subagents stop is', () => {
    expect(mayActOnChat(access, 'telegram:1', 'telegram:-100')).toBe(true);
    expect(mayActOnChat(access, 'telegram:2', 'telegram:-100')).toBe(true);
    expect(mayActOnChat(access, 'telegram:3', 'telegram:-100')).toBe(false);
  });

  it('leaves runs started through the API for no chat to the owner', () => {
    expect(mayActOnChat(access, 'telegram:1', 'none:none')).toBe(true);
    expect(mayActOnChat(access, 'telegram:2', 'none:none')).toBe(false);
  });
});
