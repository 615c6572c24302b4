import type {
  ServerCashState,
  ServerMessage,
  ServerAction,
  TerminalScreenState,
  ScreenCash,
  ScreenDecision,
} from '@venue/domain';
import type { PresentResult, TerminalClient } from './client.js';

/**
 * The simulated terminal's screen and its report to the server (remote view,
 * docs/terminal-protocol.md "Remote view"). It follows what the terminal
 * shows — decisions, the cash session, the club's terminal messages, a
 * remote gate opening, the link going offline — and sends a `screen` message
 * whenever the screen changed (changes within SEND_DELAY_MS go out as one),
 * and again after every welcome (a reconnect, another server instance).
 */

/** Changes within this many milliseconds are sent as one report. */
export const SEND_DELAY_MS = 50;
/** Seconds a decision stays on the screen when the gate does not open (a refusal). */
export const DECISION_SHOWN_SECONDS = 5;

/** The prompt of each view, in the screen's language. */
const PROMPTS: Record<'he' | 'en', Record<TerminalScreenState['view'], string>> = {
  he: {
    idle: 'נא להציג כרטיס, טביעת אצבע או קוד',
    decision: '',
    cash: 'נא להכניס מטבעות או שטרות',
    purchase: 'נא לבחור מוצר',
    enroll: 'נא להציג את האצבע שוב',
    exit: 'יציאה',
    message: '',
    offline: 'אין קשר לשרת: כניסה לפי הרשימה השמורה',
  },
  en: {
    idle: 'Present your card, fingerprint or code',
    decision: '',
    cash: 'Insert coins or bills',
    purchase: 'Choose a product',
    enroll: 'Present your finger again',
    exit: 'Exit',
    message: '',
    offline: 'No link to the server: admitting from the saved list',
  },
};

const FINAL_CASH = new Set(['closed', 'canceled', 'rejected']);

export class ScreenReporter {
  /** What the screen shows now. */
  readonly state: TerminalScreenState;
  private seq = 0;
  private sendTimer?: NodeJS.Timeout;
  private idleTimer?: NodeJS.Timeout;
  private readonly language: 'he' | 'en';

  constructor(
    private readonly client: TerminalClient,
    opts: { language?: 'he' | 'en' } = {},
  ) {
    this.language = opts.language ?? 'he';
    this.state = {
      view: 'idle',
      prompt: PROMPTS[this.language].idle,
      messages: [],
      lastDecision: null,
      cash: null,
      gateOpen: false,
      language: this.language,
    };
    client.on('decision', (d: PresentResult) => this.showDecision(d));
    client.on('cash', (s: ServerCashState) => this.showCash(s));
    client.on('message', (m: ServerMessage) => {
      if (m.type !== 'messages') return;
      this.update({
        messages: m.items.slice(0, 5).map((i) => ({ id: i.id, kind: i.type, text: i.content.slice(0, 500) })),
      });
    });
    client.on('action', (a: ServerAction, reply: { ok: boolean }) => {
      if (a.actionName === 'openGate' && reply.ok) this.openGateFor(client.welcome?.gateOpenSeconds ?? 5);
    });
    client.on('offline', () => this.update({ view: 'offline', prompt: PROMPTS[this.language].offline }));
    // The club's emergency on the screen (docs/gate-safety.md): the gate held open, or locked.
    client.on('safety', (s: { mode: 'normal' | 'openAll' | 'lockdown' }) =>
      this.update({ safety: s.mode, gateOpen: s.mode === 'openAll' }),
    );
    // After every welcome the server gets the whole screen again (it may be another instance, or restarted).
    client.on('online', () => {
      if (this.state.view === 'offline') this.update({ view: 'idle', prompt: PROMPTS[this.language].idle });
      else this.schedule();
    });
  }

  /** Changes the screen and schedules a report. */
  update(patch: Partial<TerminalScreenState>): void {
    Object.assign(this.state, patch);
    this.schedule();
  }

  /** A decision on the screen: the gate open for its seconds, then back to the idle prompt. */
  private showDecision(d: PresentResult): void {
    const lastDecision: ScreenDecision = {
      eventId: d.eventId,
      status: d.status,
      reason: d.reason,
      message: d.message.slice(0, 100),
      ...(d.clientName ? { clientName: d.clientName.slice(0, 130) } : {}),
      ...(d.offline ? { offline: true } : {}),
      at: new Date().toISOString(),
    };
    const seconds = d.gateOpenSeconds > 0 ? d.gateOpenSeconds : DECISION_SHOWN_SECONDS;
    this.update({
      view: 'decision',
      prompt: PROMPTS[this.language].decision,
      lastDecision,
      gateOpen: d.gateOpenSeconds > 0,
    });
    this.backToIdleIn(seconds);
  }

  /** The cash display follows the session; a finished session leaves the screen after a while. */
  private showCash(s: ServerCashState): void {
    const cash: ScreenCash = {
      sessionId: s.sessionId,
      state: s.state,
      inserted: s.inserted,
      due: s.due,
      ...(s.change ? { change: s.change.amount } : {}),
      ...(s.error ? { error: s.error } : {}),
    };
    this.update({ view: 'cash', prompt: PROMPTS[this.language].cash, cash });
    clearTimeout(this.idleTimer);
    if (FINAL_CASH.has(s.state)) this.backToIdleIn(DECISION_SHOWN_SECONDS, true);
  }

  private openGateFor(seconds: number): void {
    this.update({ gateOpen: true });
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.update({ gateOpen: false }), seconds * 1000);
    this.idleTimer.unref?.();
  }

  private backToIdleIn(seconds: number, clearCash = false): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.update({
        view: 'idle',
        prompt: PROMPTS[this.language].idle,
        gateOpen: false,
        ...(clearCash || this.state.cash == null || FINAL_CASH.has(this.state.cash.state) ? { cash: null } : {}),
      });
    }, seconds * 1000);
    this.idleTimer.unref?.();
  }

  private schedule(): void {
    this.sendTimer ??= setTimeout(() => {
      this.sendTimer = undefined;
      this.flush();
    }, SEND_DELAY_MS);
    this.sendTimer.unref?.();
  }

  /** Sends the screen now (each report with the next `seq`). */
  flush(): void {
    this.client.sendScreen({
      type: 'screen',
      seq: ++this.seq,
      at: new Date().toISOString(),
      screen: structuredClone(this.state),
    });
  }

  /** Stops the timers (the terminal shuts down). */
  stop(): void {
    clearTimeout(this.sendTimer);
    clearTimeout(this.idleTimer);
  }
}
