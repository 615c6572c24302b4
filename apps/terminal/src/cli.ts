#!/usr/bin/env -S npx tsx
import { IdentificationKind, Identification } from '@venue/domain';
import { parseAt, parseOneShot, runOneShot, usage } from './one-shot.js';

/**
 * The terminal simulator (DESIGN §1, §8): connects as a terminal over
 * protocol v1 and presents identifications. Prints exactly one JSON line on
 * stdout per command; diagnostics go to stderr.
 */

const HELP = `Terminal simulator: connects to the server as an entrance terminal (protocol v1,
docs/terminal-protocol.md) and prints the server's answer as one JSON line.

Usage (from the repository root):
  npm run terminal -- present <kind> <value> --serial <serial> [options]
  npm run terminal -- hello --serial <serial> [options]
  npm run terminal -- --help

Commands:
  present <kind> <value>  Present one identification and print the decision:
                          {"type":"decision","eventId","status","reason","gateOpenSeconds","message","clientName"?}
                          kind is one of: ${IdentificationKind.join(', ')}
                          (card = card serial, code = client number).
  hello                   Connect, print the server's welcome ({terminalId, name, approved, gateOpenSeconds}).
  enroll, exit, attendance, incident
                          Enrolment, quick exit, clocking in and out, incident reports:
                          run 'enroll --help'.
  buy                     Kiosk purchase or paying at an OpenWithPay gate: run 'buy --help'.

Options:
  --serial <serial>       The terminal's serial (required), e.g. DEMO-1.
  --secret <secret>       The terminal's secret, issued when the terminal was created.
                          Default: env TERMINAL_SECRET, else the demo secrets file (below).
  --server <url>          Server origin or terminal URL (default env TERMINAL_SERVER or
                          ws://localhost:3000; the path /api/terminal/ws is added to an origin).
  --event-id <id>         The event id to send (default a new UUID). Sending the same id again
                          returns the first decision without counting the entrance twice.
  --at <iso-time>         When the event happened (for events handled offline); default now.
  --timeout <ms>          How long to wait for the server (default 10000).
  -h, --help              This text.

Demo secrets: the demo club's terminals DEMO-1, DEMO-2, ... have secrets that the demo seeder
writes to <DATA_DIR>/terminal-secrets.json ({"DEMO-1": "<secret>", ...}). Without --secret and
TERMINAL_SECRET the simulator reads the secret of --serial from the first of:
  $DATA_DIR/terminal-secrets.json (DATA_DIR relative to the directory you ran npm in), else
  ./data, <repo>/data and <repo>/apps/server/data.

Exit codes: 0 the server answered (whatever the decision); 1 connection or authentication
failed, or no answer; 2 wrong usage.

Examples:
  npm run terminal -- present card 100001 --serial DEMO-1
  npm run terminal -- present code 17 --serial DEMO-2 --server ws://localhost:3000
  TERMINAL_SECRET=s3cret npm run terminal -- hello --serial GATE-7
`;

async function main(): Promise<number> {
  // Enrolment and quick exit (gate decisions) parse their own options: gate-cli.ts.
  const gateCommand = process.argv[2];
  if (
    gateCommand === 'enroll' ||
    gateCommand === 'exit' ||
    gateCommand === 'attendance' ||
    gateCommand === 'incident'
  ) {
    return (await import('./gate-cli.js')).runGateCommand(gateCommand, process.argv.slice(3));
  }
  // Kiosk purchases and paying at the gate parse their own options: kiosk-cli.ts.
  if (process.argv[2] === 'buy') return (await import('./kiosk-cli.js')).runKioskCommand(process.argv.slice(3));
  // Long-running modes (interactive, traffic) parse their own options: modes.ts.
  const mode = process.argv[2];
  if (mode === 'interactive' || mode === 'traffic') {
    return (await import('./modes.js')).runMode(mode, process.argv.slice(3));
  }
  const parsed = parseOneShot(undefined, { at: { type: 'string' } });
  if (parsed.help || parsed.positionals.length === 0) {
    process.stdout.write(HELP + (await import('./modes.js')).MODES_HELP);
    return parsed.help ? 0 : 2;
  }
  const { values, positionals, serial, timeoutMs } = parsed;
  const [command, ...args] = positionals;
  if (command !== 'present' && command !== 'hello') usage(`Unknown command: ${command}`);

  let identification: Identification | undefined;
  if (command === 'present') {
    if (args.length !== 2) usage('present needs <kind> <value>');
    const ident = Identification.safeParse({ kind: args[0], value: args[1] });
    if (!ident.success) usage(`Bad identification: kind is one of ${IdentificationKind.join(', ')}`);
    identification = ident.data;
  }
  const at = parseAt(values.at);
  return runOneShot({ ...values, serial }, timeoutMs, async (client) => {
    const welcome = await client.connect();
    return identification ? client.present(identification, { eventId: values['event-id'], at }) : welcome;
  });
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
