import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Identification, ServerCashState, ServerMessage } from '@venue/domain';
import { TerminalClient, type PresentResult } from './client.js';
import { exitGate } from './gate.js';
import { INTERACTIVE_KIOSK_HELP, interactiveBuy } from './kiosk-cli.js';

/**
 * Interactive mode of the simulator (issue 3 item 9): one terminal driven
 * from the keyboard. It keeps the link (reconnecting, deciding offline from
 * the valid list meanwhile), carries out the console's actions (open gate,
 * set door state, ...) and shows the terminal's display after every event.
 */

export const INTERACTIVE_HELP = `Commands (one per line):
  card <serial>          present a card
  finger <template>      present a fingerprint (template or match id)
  face <template>        present a face
  code <number>          type a client code
  exit <kind> <value>    leave through the quick exit (e.g. exit card 100001)
  pay <kind> <value> [₪] start a cash session for a client (amount due in shekels; none = load what is inserted)
  coin <₪>               insert a coin: 0.1 0.5 1 2 5 10
  bill <₪>               insert a bill: 20 50 100 200
  done                   finish paying (the server approves and plans the change)
  cancel                 cancel the cash session (what was inserted is paid back)
${INTERACTIVE_KIOSK_HELP}
  door <1-7>             report the door state (1 closed, 2 opened, 3 free open, 4 money only, 6 with pay, 7 restricted)
  show                   show the display
  help                   this text
  quit                   disconnect and leave`;

const DOOR: Record<number, string> = {
  1: 'Closed',
  2: 'Opened',
  3: 'FreeOpen',
  4: 'OpenWithMoneyValueOnly',
  6: 'OpenWithPay',
  7: 'RestrictAccessOnly',
};

/** Shekels as typed (e.g. "0.5", "20") to agorot; null when not a number. */
export function shekelsToAgorot(text: string): number | null {
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return null;
  return Math.round(Number(text) * 100);
}

export async function runInteractive(opts: {
  url: string;
  serial: string;
  secret: string;
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
}): Promise<number> {
  const out = opts.output ?? process.stdout;
  const print = (s: string) => out.write(`${s}\n`);
  const client = new TerminalClient({
    url: opts.url,
    serial: opts.serial,
    secret: opts.secret,
    devices: ['card', 'fingerprint', 'face', 'coins', 'bills'],
    reconnect: true,
  });
  let lastLine = '';
  let messages: string[] = [];
  let session: { id: string; state?: ServerCashState } | null = null;

  const display = () => {
    const now = Date.now();
    const gate = client.gateOpenUntil > now ? `OPEN ${Math.ceil((client.gateOpenUntil - now) / 1000)} s` : 'closed';
    const link = client.connected ? 'online' : `OFFLINE (${client.offlineQueue.length} queued)`;
    print('┌──────────────────────────────────────────────');
    print(`│ ${client.welcome?.name ?? opts.serial}  [${link}]  gate ${gate}  door ${DOOR[client.doorState]}`);
    if (lastLine) print(`│ ${lastLine}`);
    if (session?.state) {
      const s = session.state;
      print(
        `│ cash ${s.state}: inserted ${(s.inserted / 100).toFixed(2)} ₪` +
          (s.due != null ? `, due ${(s.due / 100).toFixed(2)} ₪` : '') +
          (s.change ? `, change ${(s.change.amount / 100).toFixed(2)} ₪` : '') +
          (s.unpaid ? `, unpaid ${(s.unpaid / 100).toFixed(2)} ₪` : '') +
          (s.error ? `  ${s.error}` : ''),
      );
    }
    for (const m of messages) print(`│ ✉ ${m}`);
    print('└──────────────────────────────────────────────');
  };
  const showDecision = (d: PresentResult) => {
    lastLine =
      `${d.status === 1 ? 'WELCOME' : 'REFUSED'} ${d.clientName ?? ''} — ${d.message}` +
      ` (status ${d.status}, reason ${d.reason})${d.offline ? ' [decided offline]' : ''}` +
      (d.paymentRequired ? ` — pay ${(d.paymentRequired.amount / 100).toFixed(2)} ₪: buy <kind> <value> entrance` : '');
  };

  client.on('message', (m: ServerMessage) => {
    if (m.type === 'messages') {
      messages = m.items.map((i) => i.content);
      display();
    }
  });
  client.on('action', (a: { actionName: string }, reply: { ok: boolean }) => {
    lastLine = `console action: ${a.actionName} → ${reply.ok ? 'done' : 'failed'}`;
    display();
  });
  client.on('offline', () => {
    lastLine = 'link to the server lost: admitting from the cached list';
    display();
  });
  client.on('uploaded', (ack: { recorded: string[]; duplicates: string[] }) => {
    lastLine = `uploaded ${ack.recorded.length} offline decisions (${ack.duplicates.length} already known)`;
    display();
  });

  try {
    await client.connect();
  } catch (err) {
    process.stderr.write(`${(err as Error).message} (${opts.url})\n`);
    return 1;
  }
  print(INTERACTIVE_HELP);
  display();

  const rl = createInterface({ input: opts.input ?? process.stdin, terminal: false });
  const ident = (kind: string, value: string | undefined): Identification | null => {
    const k = kind === 'finger' ? 'fingerprint' : kind;
    if (!value || !['card', 'fingerprint', 'face', 'code'].includes(k)) return null;
    return { kind: k as Identification['kind'], value };
  };

  for await (const raw of rl) {
    const [cmd, ...args] = raw.trim().split(/\s+/);
    if (!cmd) continue;
    try {
      if (cmd === 'quit' || cmd === 'q') break;
      if (cmd === 'help') print(INTERACTIVE_HELP);
      else if (cmd === 'show') display();
      else if (['card', 'finger', 'face', 'code'].includes(cmd)) {
        const id = ident(cmd, args[0]);
        if (!id) print(`usage: ${cmd} <value>`);
        else {
          showDecision(await client.present(id));
          display();
        }
      } else if (cmd === 'exit') {
        const id = ident(args[0] ?? '', args[1]);
        if (!id) print('usage: exit <card|finger|face|code> <value>');
        else {
          const r = await exitGate(client, id);
          lastLine = `EXIT ${r.clientName ?? ''} — ${r.message}${r.rewardAmount ? `, reward ${(r.rewardAmount / 100).toFixed(2)} ₪` : ''}`;
          if (r.gateOpenSeconds > 0) client.gateOpenUntil = Date.now() + r.gateOpenSeconds * 1000;
          display();
        }
      } else if (cmd === 'pay') {
        const id = ident(args[0] ?? '', args[1]);
        const due = args[2] != null ? shekelsToAgorot(args[2]) : undefined;
        if (!id || due === null) print('usage: pay <card|code> <value> [amount in ₪]');
        else {
          session = { id: randomUUID() };
          session.state = await client.cashBegin(session.id, id, due);
          display();
        }
      } else if (cmd === 'coin' || cmd === 'bill') {
        const amount = shekelsToAgorot(args[0] ?? '');
        if (!session) print('start a cash session first: pay <kind> <value> [₪]');
        else if (amount == null) print(`usage: ${cmd} <₪>`);
        else {
          session.state = await client.cashInsert(session.id, cmd, amount);
          display();
        }
      } else if (cmd === 'done' || cmd === 'cancel') {
        if (!session) print('no cash session');
        else {
          let s = cmd === 'done' ? await client.cashComplete(session.id) : await client.cashCancel(session.id);
          if (s.change && s.change.amount > 0 && (s.state === 'startPayout' || s.state === 'canceled')) {
            session.state = s;
            display();
            // The simulated hopper pays out exactly what it was told to.
            s = await client.cashPayoutDone(session.id, s.change.coins, s.change.bills);
          }
          session.state = s;
          display();
          if (s.state === 'closed' || s.state === 'canceled' || s.state === 'rejected') session = null;
        }
      } else if (cmd === 'buy') {
        const r = await interactiveBuy(client, args, session?.id);
        lastLine = r.line;
        if (r.gateOpenSeconds > 0) client.gateOpenUntil = Date.now() + r.gateOpenSeconds * 1000;
        if (r.sessionUsed) session = null;
        display();
      } else if (cmd === 'door') {
        const d = Number(args[0]);
        if (!DOOR[d]) print('usage: door <1|2|3|4|6|7>');
        else {
          client.doorState = d as 1;
          client.heartbeat(client.doorState);
          display();
        }
      } else print(`unknown command: ${cmd} (help lists them)`);
    } catch (err) {
      print(`error: ${(err as Error).message}`);
    }
  }
  await client.close();
  return 0;
}
