import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Identification, ServerCashState, ServerMessage } from '@venue/domain';
import { TerminalClient, type PresentResult } from './client.js';
import { exitGate } from './gate.js';
import { INTERACTIVE_KIOSK_HELP, interactiveBuy } from './kiosk-cli.js';
import { ScreenReporter } from './screen.js';

/**
 * Interactive mode of the simulator: one terminal driven from the keyboard.
 * It keeps the link (reconnecting, deciding offline from the valid list
 * meanwhile), carries out the console's actions (open gate,
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
  fire                   the fire-alarm input fires: the gate opens by itself, the club's open-all starts
  panic                  the panic button: the gate locks, the club's lockdown starts
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

/** Agorot as shekels with two decimals, e.g. 2000 → "20.00". */
function shekels(agorot: number): string {
  return (agorot / 100).toFixed(2);
}

/** The line of a cash session's state on the display (amounts in ₪). */
export function cashLine(s: ServerCashState): string {
  return (
    `cash ${s.state}: inserted ${shekels(s.inserted)} ₪` +
    (s.due != null ? `, due ${shekels(s.due)} ₪` : '') +
    (s.change ? `, change ${shekels(s.change.amount)} ₪` : '') +
    (s.unpaid ? `, unpaid ${shekels(s.unpaid)} ₪` : '') +
    (s.error ? `  ${s.error}` : '')
  );
}

/** The display's line for a decision: welcome or refused, the reason, and what to pay when the gate asks for it. */
export function decisionLine(d: PresentResult): string {
  return (
    `${d.status === 1 ? 'WELCOME' : 'REFUSED'} ${d.clientName ?? ''} — ${d.message}` +
    ` (status ${d.status}, reason ${d.reason})${d.offline ? ' [decided offline]' : ''}` +
    (d.paymentRequired ? ` — pay ${shekels(d.paymentRequired.amount)} ₪: buy <kind> <value> entrance` : '')
  );
}

/** An identification as typed (`finger` for fingerprint); null for an unknown kind or no value. */
export function typedIdentification(kind: string, value: string | undefined): Identification | null {
  const k = kind === 'finger' ? 'fingerprint' : kind;
  if (!value || !['card', 'fingerprint', 'face', 'code'].includes(k)) return null;
  return { kind: k as Identification['kind'], value };
}

/** The interactive terminal: its client, what its display shows, and its cash session. */
interface Screen {
  client: TerminalClient;
  serial: string;
  print(s: string): void;
  /** The display's event line (the last decision, action, exit or purchase). */
  lastLine: string;
  /** The club's terminal messages pushed by the server. */
  messages: string[];
  session: { id: string; state?: ServerCashState } | null;
}

/** Prints the terminal's display: name, link, gate and door; the event line; the cash session; the messages. */
function display(t: Screen): void {
  const { client } = t;
  const now = Date.now();
  const gate = client.gateHeldOpen
    ? 'HELD OPEN'
    : client.gateOpenUntil > now
      ? `OPEN ${Math.ceil((client.gateOpenUntil - now) / 1000)} s`
      : 'closed';
  const link = client.connected ? 'online' : `OFFLINE (${client.offlineQueue.length} queued)`;
  t.print('┌──────────────────────────────────────────────');
  t.print(`│ ${client.welcome?.name ?? t.serial}  [${link}]  gate ${gate}  door ${DOOR[client.doorState]}`);
  const safety = safetyLine(client);
  if (safety) t.print(`│ ${safety}`);
  if (t.lastLine) t.print(`│ ${t.lastLine}`);
  if (t.session?.state) t.print(`│ ${cashLine(t.session.state)}`);
  for (const m of t.messages) t.print(`│ ✉ ${m}`);
  t.print('└──────────────────────────────────────────────');
}

/** The display's emergency line (docs/gate-safety.md), or '' when normal. */
export function safetyLine(client: Pick<TerminalClient, 'safety'>): string {
  const s = client.safety;
  if (s.mode === 'normal') return '';
  const what = s.mode === 'openAll' ? 'EMERGENCY: ALL GATES OPEN' : 'LOCKDOWN: ENTRY REFUSED';
  return `${what}${s.reason ? ` — ${s.reason}` : ''}${s.local ? ' [alarm input, not yet confirmed]' : ''}`;
}

/** Shows on the display what happens on the link: pushed messages, the console's actions, offline and upload. */
function watchLink(t: Screen): void {
  const show = (line: string) => {
    t.lastLine = line;
    display(t);
  };
  t.client.on('message', (m: ServerMessage) => {
    if (m.type !== 'messages') return;
    t.messages = m.items.map((i) => i.content);
    display(t);
  });
  t.client.on('action', (a: { actionName: string }, reply: { ok: boolean }) =>
    show(`console action: ${a.actionName} → ${reply.ok ? 'done' : 'failed'}`),
  );
  t.client.on('offline', () => show('link to the server lost: admitting from the cached list'));
  t.client.on('safety', () => display(t));
  t.client.on('uploaded', (ack: { recorded: string[]; duplicates: string[] }) =>
    show(`uploaded ${ack.recorded.length} offline decisions (${ack.duplicates.length} already known)`),
  );
}

/** Opens the gate on the display for `seconds` (nothing for 0). */
function openGate(t: Screen, seconds: number): void {
  if (seconds > 0) t.client.gateOpenUntil = Date.now() + seconds * 1000;
}

/** `card|finger|face|code <value>`: presents an identification and shows the decision. */
async function presentCommand(t: Screen, cmd: string, args: string[]): Promise<void> {
  const id = typedIdentification(cmd, args[0]);
  if (!id) return t.print(`usage: ${cmd} <value>`);
  t.lastLine = decisionLine(await t.client.present(id));
  display(t);
}

/** `exit <kind> <value>`: leaves through the quick exit and shows the reward. */
async function exitCommand(t: Screen, args: string[]): Promise<void> {
  const id = typedIdentification(args[0] ?? '', args[1]);
  if (!id) return t.print('usage: exit <card|finger|face|code> <value>');
  const r = await exitGate(t.client, id);
  t.lastLine = `EXIT ${r.clientName ?? ''} — ${r.message}${r.rewardAmount ? `, reward ${shekels(r.rewardAmount)} ₪` : ''}`;
  openGate(t, r.gateOpenSeconds);
  display(t);
}

/** `pay <kind> <value> [₪]`: starts a cash session (amount due in shekels; none = load what is inserted). */
async function payCommand(t: Screen, args: string[]): Promise<void> {
  const id = typedIdentification(args[0] ?? '', args[1]);
  const due = args[2] != null ? shekelsToAgorot(args[2]) : undefined;
  if (!id || due === null) return t.print('usage: pay <card|code> <value> [amount in ₪]');
  const session: Screen['session'] = { id: randomUUID() };
  t.session = session;
  session.state = await t.client.cashBegin(session.id, id, due);
  display(t);
}

/** `coin|bill <₪>`: inserts money into the cash session. */
async function insertCommand(t: Screen, cmd: 'coin' | 'bill', args: string[]): Promise<void> {
  const amount = shekelsToAgorot(args[0] ?? '');
  if (!t.session) return t.print('start a cash session first: pay <kind> <value> [₪]');
  if (amount == null) return t.print(`usage: ${cmd} <₪>`);
  t.session.state = await t.client.cashInsert(t.session.id, cmd, amount);
  display(t);
}

/** `done|cancel`: finishes or cancels the cash session; the simulated hopper pays out exactly the change asked. */
async function finishCommand(t: Screen, cmd: 'done' | 'cancel'): Promise<void> {
  const session = t.session;
  if (!session) return t.print('no cash session');
  let s = cmd === 'done' ? await t.client.cashComplete(session.id) : await t.client.cashCancel(session.id);
  if (s.change && s.change.amount > 0 && (s.state === 'startPayout' || s.state === 'canceled')) {
    session.state = s;
    display(t);
    s = await t.client.cashPayoutDone(session.id, s.change.coins, s.change.bills);
  }
  session.state = s;
  display(t);
  if (s.state === 'closed' || s.state === 'canceled' || s.state === 'rejected') t.session = null;
}

/** `buy ...`: a kiosk purchase (kiosk-cli.ts), paid by the cash session when it names cash. */
async function buyCommand(t: Screen, args: string[]): Promise<void> {
  const r = await interactiveBuy(t.client, args, t.session?.id);
  t.lastLine = r.line;
  openGate(t, r.gateOpenSeconds);
  if (r.sessionUsed) t.session = null;
  display(t);
}

/** `door <1-7>`: reports the door state in a heartbeat. */
function doorCommand(t: Screen, args: string[]): void {
  const d = Number(args[0]);
  if (!DOOR[d]) return t.print('usage: door <1|2|3|4|6|7>');
  t.client.doorState = d as 1;
  t.client.heartbeat(t.client.doorState);
  display(t);
}

/** Runs one typed line; false for quit. An error (a timeout, a refusal) is printed, never thrown. */
async function runCommand(t: Screen, line: string): Promise<boolean> {
  const [cmd, ...args] = line.trim().split(/\s+/);
  if (!cmd) return true;
  if (cmd === 'quit' || cmd === 'q') return false;
  try {
    if (cmd === 'help') t.print(INTERACTIVE_HELP);
    else if (cmd === 'show') display(t);
    else if (['card', 'finger', 'face', 'code'].includes(cmd)) await presentCommand(t, cmd, args);
    else if (cmd === 'exit') await exitCommand(t, args);
    else if (cmd === 'pay') await payCommand(t, args);
    else if (cmd === 'coin' || cmd === 'bill') await insertCommand(t, cmd, args);
    else if (cmd === 'done' || cmd === 'cancel') await finishCommand(t, cmd);
    else if (cmd === 'buy') await buyCommand(t, args);
    else if (cmd === 'door') doorCommand(t, args);
    else if (cmd === 'fire' || cmd === 'panic') {
      t.client.raiseAlarm(cmd === 'fire' ? 'fire-alarm' : 'panic');
      t.lastLine = `alarm input: ${cmd === 'fire' ? 'fire-alarm' : 'panic'}`;
      display(t);
    } else t.print(`unknown command: ${cmd} (help lists them)`);
  } catch (err) {
    t.print(`error: ${(err as Error).message}`);
  }
  return true;
}

/**
 * Runs the interactive terminal: connects (reconnecting and deciding offline when the link
 * is lost), then runs the lines of `input` (default stdin) until `quit` or its end.
 * @returns the exit code: 0, or 1 when the first connection fails
 */
export async function runInteractive(opts: {
  /** The server, or several tried in order (docs/terminal-protocol.md "Several servers"). */
  url: string | string[];
  serial: string;
  secret: string;
  /** Language of the screen reported for the remote view (default Hebrew). */
  language?: 'he' | 'en';
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
}): Promise<number> {
  const out = opts.output ?? process.stdout;
  const client = new TerminalClient({
    url: opts.url,
    serial: opts.serial,
    secret: opts.secret,
    devices: ['card', 'fingerprint', 'face', 'coins', 'bills'],
    reconnect: true,
  });
  const t: Screen = {
    client,
    serial: opts.serial,
    print: (s) => out.write(`${s}\n`),
    lastLine: '',
    messages: [],
    session: null,
  };
  watchLink(t);
  // Remote view: the screen goes to the server whenever it changes (docs/terminal-protocol.md).
  const screen = new ScreenReporter(client, { language: opts.language });
  try {
    await client.connect();
  } catch (err) {
    process.stderr.write(`${(err as Error).message} (${[opts.url].flat().join(', ')})\n`);
    return 1;
  }
  t.print(INTERACTIVE_HELP);
  display(t);
  for await (const raw of createInterface({ input: opts.input ?? process.stdin, terminal: false })) {
    if (!(await runCommand(t, raw))) break;
  }
  screen.stop();
  await client.close();
  return 0;
}
