import { chatRef, userKey, type Button } from '../../kernel/ports/chat.ts';
import { lines, plain } from '../../kernel/rich/index.ts';
import type { Command } from '../dispatch/command.ts';

/**
 * /dashboard: the web dashboard, as the chat app's Mini App (a button, in a private chat, where the
 * bridge is served over HTTPS) and as a one-time login link for a browser. The link is a
 * secret: asked for in a group, it goes to the person privately.
 */
export const dashboard: Command = {
  name: 'dashboard',
  description: 'Open the dashboard: runs, orchestrations, costs, the audit log, approvals and a chat page, in the Mini App or a browser',
  usage: '/dashboard',
  async run({ bot, services, chat, message, reply }) {
    const web = services.web;
    if (!web) return plain('The dashboard is off: the operator sets BRIDGE_WEB_ADDR (and BRIDGE_WEB_URL, the address people reach it at) to serve it.');
    const { user } = message;
    const who = { identity: userKey(chat.address.transport, user), ...(user.name ? { name: user.name } : {}) };
    const url = web.loginLink(who);
    const buttons: Button[][] = web.miniAppUrl ? [[{ text: '📊 Open the dashboard', data: 'open', opens: { url: web.miniAppUrl, inApp: true } }]] : [];
    // The address once, shown whole: where links show their targets (the console) a labelled link would print it twice.
    const note = lines([
      '📊 Log in to the dashboard in a browser. The link works once, within 10 minutes:',
      url,
      ...(web.miniAppUrl ? ['Or open it here, with the button.'] : []),
    ]);
    // In a private chat the link is shown where it was asked for.
    if (message.private) {
      await reply(note, { buttons });
      return;
    }
    const privately = chatRef(chat.address.transport, user.id);
    try {
      await bot.out.send(privately, note, { buttons });
    } catch {
      return plain("I can't write to you privately yet: open a private chat with me, press Start, then send /dashboard again.");
    }
    return plain('🔐 I sent you the login link privately.');
  },
};
