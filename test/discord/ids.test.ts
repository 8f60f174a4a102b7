import { describe, expect, it } from 'vitest';
import { discordUserId, snowflakeOrder } from '../../src/transports/discord/id.ts';

describe('Discord ids', () => {
  it('orders snowflakes as numbers that stay exact, later ones higher', () => {
    const ids = ['175928847299117063', '1300000000000000111', '1575308717174423557', '1575308717178617861', '9223372036854775807'];
    const orders = ids.map(snowflakeOrder);
    for (const order of orders) expect(Number.isSafeInteger(order)).toBe(true);
    expect([...orders].sort((a, b) => a - b)).toEqual(orders);
    expect(new Set(orders).size).toBe(orders.length);
  });

  it('reads a person written as discord:<snowflake>, and nothing else', () => {
    expect(discordUserId('discord:81384788765712384')).toBe('81384788765712384');
    expect(discordUserId('telegram:111')).toBeUndefined();
    expect(discordUserId('discord:abc')).toBeUndefined();
  });
});
