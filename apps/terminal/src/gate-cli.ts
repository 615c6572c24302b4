import { Identification, IdentificationKind } from '@venue/domain';
import { TerminalClient } from './client.js';
import { clock, enroll, exitGate } from './gate.js';
import { parseAt, parseOneShot, runOneShot, usage } from './one-shot.js';

/**
 * One-shot simulator commands of the gate decisions (docs/terminal-protocol.md
 * "Enrolment", "Quick exit"): `enroll` and `exit`. Like `present`, each
 * prints the server's answer as one JSON line on stdout.
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
  Fingerprint, face and code identify at the gate with: present fingerprint|face|code <value>.
`;

/** Runs `enroll`, `exit` or `attendance` with the rest of the command line; resolves with the exit code. */
export async function runGateCommand(command: 'enroll' | 'exit' | 'attendance', argv: string[]): Promise<number> {
  const parsed = parseOneShot(argv, {
    password: { type: 'string' },
    image: { type: 'string' },
    at: { type: 'string' },
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
