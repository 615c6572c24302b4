import { randomUUID } from 'node:crypto';
import { Identification, IdentificationKind } from '@venue/domain';
import { TerminalClient, TerminalError } from './client.js';
import { clock, enroll, exitGate, reportIncident } from './gate.js';
import { parseAt, parseOneShot, runOneShot, usage } from './one-shot.js';

/**
 * One-shot simulator commands of the gate decisions (docs/terminal-protocol.md
 * "Enrolment", "Quick exit", "Attendance", "Incident reports"): `enroll`,
 * `exit`, `attendance` and `incident`. Like `present`, each prints the
 * server's answer as one JSON line on stdout.
 */

export const GATE_HELP = `
Enrolment and quick exit:
  enroll <kind> <clientNumber> <template> --password <P> --serial <serial> [--image <data-url>]
                          Enrol a card, fingerprint or face for a client at the terminal (kind: card,
                          fingerprint, face; template: the card serial or the reader's template; P: the
                          client's enrolment password). Prints {"type":"enrolled","ok",...}.
  exit <kind> <value> --serial <serial> [--at <iso-time>] [--event-id <id>]
                          Leave through a quick-exit terminal. Prints {"type":"exit-result","outcome",...}.
  attendance <kind> <value> --serial <serial> [--at <iso-time>] [--event-id <id>]
                          An employee (a Manager or Technician client) clocks in, or out of the open
                          shift. Prints {"type":"attendance-result","ok","action":"in"|"out",...}.
  incident <categoryId> --serial <serial> [--note <text>] [--event-id <id>]
                          A client reports an incident at the terminal in one of the club's feedback
                          categories (the category's id, from the console's feedback categories), with
                          an optional note (at most 500 characters). Prints
                          {"type":"incident-reported","eventId","incidentId"}, or the refusal
                          {"type":"error","code":"INCIDENT_REFUSED","eventId","message"} when the club's
                          incident reports are off, the terminal is not approved or the category is not
                          the club's. Resending the same --event-id is stored once.
  Fingerprint, face and code identify at the gate with: present fingerprint|face|code <value>.
`;

/** The incident command's answer: the server's report, or its refusal as the error message it sent. */
async function incident(
  c: TerminalClient,
  r: { categoryId: number; note?: string; eventId: string },
  timeoutMs: number,
): Promise<unknown> {
  try {
    return await reportIncident(c, r, timeoutMs);
  } catch (err) {
    // A refusal is the server's answer (exit 0, like a refused decision); a time-out is not.
    if (err instanceof TerminalError && err.code !== 'TIMEOUT') {
      return { type: 'error', code: err.code, eventId: r.eventId, message: err.message.replace(`${err.code}: `, '') };
    }
    throw err;
  }
}

/** Runs `enroll`, `exit`, `attendance` or `incident` with the rest of the command line; resolves with the exit code. */
export async function runGateCommand(
  command: 'enroll' | 'exit' | 'attendance' | 'incident',
  argv: string[],
): Promise<number> {
  const parsed = parseOneShot(argv, {
    password: { type: 'string' },
    image: { type: 'string' },
    at: { type: 'string' },
    note: { type: 'string' },
  });
  if (parsed.help) {
    process.stdout.write(GATE_HELP);
    return 0;
  }
  const { values, positionals, serial, timeoutMs } = parsed;
  let run: (c: TerminalClient) => Promise<unknown>;
  if (command === 'enroll') {
    if (positionals.length !== 3) usage('enroll needs <kind> <clientNumber> <template>');
    const [kind, number, template] = positionals;
    if (kind !== 'card' && kind !== 'fingerprint' && kind !== 'face') usage('enroll kind is card, fingerprint or face');
    const clientNumber = Number(number);
    if (!Number.isInteger(clientNumber) || clientNumber <= 0) usage('<clientNumber> must be a positive integer');
    if (!values.password) usage('--password is required (the client’s enrolment password)');
    const password = values.password;
    run = (c) =>
      enroll(
        c,
        {
          clientNumber,
          password,
          kind,
          template,
          ...(values.image ? { image: values.image } : {}),
          ...(values['event-id'] ? { eventId: values['event-id'] } : {}),
        },
        timeoutMs,
      );
  } else if (command === 'incident') {
    if (positionals.length !== 1) usage('incident needs <categoryId>');
    const categoryId = Number(positionals[0]);
    if (!/^\d+$/.test(positionals[0]) || !Number.isSafeInteger(categoryId) || categoryId <= 0) {
      usage('<categoryId> must be a positive integer');
    }
    const note = values.note ?? '';
    if (note.length > 500) usage('--note is at most 500 characters');
    const eventId = values['event-id'] ?? randomUUID();
    run = (c) => incident(c, { categoryId, note, eventId }, timeoutMs);
  } else {
    if (positionals.length !== 2) usage(`${command} needs <kind> <value>`);
    const ident = Identification.safeParse({ kind: positionals[0], value: positionals[1] });
    if (!ident.success) usage(`Bad identification: kind is one of ${IdentificationKind.join(', ')}`);
    const at = parseAt(values.at);
    const opts = { eventId: values['event-id'], at, timeoutMs };
    run = (c) => (command === 'attendance' ? clock(c, ident.data, opts) : exitGate(c, ident.data, opts));
  }

  return runOneShot({ ...values, serial }, timeoutMs, async (client) => {
    await client.connect();
    return run(client);
  });
}
