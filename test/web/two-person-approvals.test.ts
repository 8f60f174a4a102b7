import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebWorld, type WebWorld } from '../support/web-world.ts';
import { OWNER, shownText } from '../support/telegram-world.ts';

// A question the tool policy needs two people for, on the dashboard's Approvals page in the
// real browser, against the bridge as a real process with the fake Bot API and the fake CLI:
// the card shows how many have approved and who, and an answer there counts as a press in the chat.
const BOB = 222;
const MIA = 333;
const GROUP = -4800;
let web: WebWorld;

beforeAll(async () => {
  web = await startWebWorld(
    { BRIDGE_ALLOWED_USERS: `${OWNER},${BOB},${MIA}`, BRIDGE_PERMISSION_MODE: 'bypass' },
    { dataFiles: { 'tool-policy.json': JSON.stringify({ rules: [{ tool: 'Bash(git push*)', approvals: 2 }] }) } },
  );
  for (const person of [OWNER, BOB, MIA]) web.world.telegram.setStanding(GROUP, person, { status: 'member' });
}, 60_000);
afterAll(() => web?.stop());

describe('the Approvals page', () => {
  it('shows the count and who approved; an Allow there counts, and the second person’s runs the call', async () => {
    const { telegram } = web.world;
    telegram.sendText({ chatId: GROUP, userId: MIA, text: 'bash:git+push+origin+main say:pushed', firstName: 'Mia', chatType: 'group' });
    const question = () => telegram.botMessages(GROUP).find((m) => /^(🔐 claude asks to use Bash|claude: Bash)\n/.test(shownText(m)));
    await telegram.waitFor(() => question(), 30_000);

    const ada = await web.loggedIn('desk');
    await ada.goto(`${web.base}/#approvals`);
    const card = ada.locator('[data-question]');
    await card.getByTestId('approvals-count').waitFor({ timeout: 20_000 });
    expect(await card.getByTestId('approvals-count').textContent()).toBe(
      "Needs 2 people's Allow (Bash(git push*)): none of 2 approved yet. Whoever started this work cannot be the last of them.",
    );
    expect(await card.locator('button').allTextContents()).toEqual(['✅ Allow', '⛔ Deny']);
    await card.getByRole('button', { name: '✅ Allow' }).click();
    await ada.getByText('✅ 1 of 2 approved: Ada: another person must approve it too').waitFor({ timeout: 20_000 });
    await expect.poll(() => card.getByTestId('approvals-count').textContent(), { timeout: 20_000 }).toContain('1 of 2 approved: Ada.');
    await telegram.waitFor(() => /1 of 2 approved: Ada/.test(shownText(question()!)), 30_000);

    const bob = await web.loggedIn('phone', { user: BOB });
    await bob.goto(`${web.base}/#approvals`);
    const bobsCard = bob.locator('[data-question]');
    await expect.poll(() => bobsCard.getByTestId('approvals-count').textContent(), { timeout: 20_000 }).toContain('1 of 2 approved: Ada.');
    await bobsCard.getByRole('button', { name: '✅ Allow' }).click();
    await bob.getByTestId('no-approvals').waitFor({ timeout: 20_000 });
    const answered = await telegram.waitFor(() => telegram.botMessages(GROUP).find((m) => /^pushed/.test(shownText(m))), 30_000);
    expect(shownText(answered)).toContain('ran: git push origin main');
    expect(shownText(question()!)).toContain('✅ Allowed by Ada, User222 (2 of 2, rule Bash(git push*))'); // Bob's login never told his name;
    await ada.context().close();
    await bob.context().close();
  });
});
