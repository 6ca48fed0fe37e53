import { type Body, Failed } from './expect.ts';
import { Wire } from './wire.ts';

/**
 * Conformance mode (`locker-sim conformance --url URL`): runs every exchange docs/LOCKER-PROTOCOL.md
 * documents against a server, as a locker written from the document would, and reports each as a
 * check that passed or failed. Pairing needs a member of staff: a support session token, or an email
 * and password it signs in with. It creates one machine (in the given business, or the first listed)
 * and archives it at the end.
 */
export type ConformanceOptions = {
  url: string;
  /** A support session token (Bearer), or… */
  token?: string;
  /** …a support user's email and password to sign in with. */
  email?: string;
  password?: string;
  /** The business the conformance machine is created in (default: the first active one). */
  business?: string;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
};

export type Check = { section: string; name: string; ok: boolean; detail?: string };

/**
 * One conformance run: the checks recorded so far, the ways to reach the server (staff RPC, the
 * OAuth form endpoints, a bare upgrade, a locker connection) and what the sections learn and pass on
 * (the machine, its tokens, the hub clock, the locker's sequence).
 */
export class Run {
  readonly base: string;
  readonly checks: Check[] = [];
  section = '';
  /** An essential check failed: the rest are recorded as not run. */
  private stopped = false;
  staffToken: string | undefined;
  businessId = '';
  machineId = '';
  tokens = { access: '', refresh: '' };
  /** The hub clock minus ours, learnt at boot: events are stamped on the hub's clock. */
  offset = 0;
  seq = 0;
  wire!: Wire;

  constructor(readonly options: ConformanceOptions) {
    this.base = options.url.replace(/\/$/, '');
    this.staffToken = options.token;
  }

  private log(line: string) {
    this.options.log?.(line);
  }

  /** Runs one check; a failure is recorded (with why) and, when `essential`, ends the run. */
  async check(name: string, body: () => Promise<void>, essential = false): Promise<boolean> {
    const section = this.section;
    if (this.stopped) {
      this.checks.push({ section, name, ok: false, detail: 'not run: an earlier essential check failed' });
      return false;
    }
    try {
      await body();
      this.checks.push({ section, name, ok: true });
      this.log(`pass  ${section} · ${name}`);
      return true;
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      this.checks.push({ section, name, ok: false, detail });
      this.log(`FAIL  ${section} · ${name}: ${detail}`);
      if (essential) this.stopped = true;
      return false;
    }
  }

  clock(): number {
    return Date.now() + this.offset;
  }

  /** A data-changing event's fields: a new event id, the next seq, stamped now. */
  event(extra: Record<string, unknown>): Record<string, unknown> {
    return { eventId: crypto.randomUUID(), seq: ++this.seq, created: this.clock(), ...extra };
  }

  /** A new locker connection with the current access token. */
  connect(): Wire {
    this.wire = new Wire(this.base.replace(/^http/, 'ws'), this.tokens.access);
    return this.wire;
  }

  /** POSTs a form to the pairing endpoints, as the OAuth device flow does. */
  form(path: string, body: Record<string, string>) {
    return fetch(`${this.base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
    }).then(async (res) => ({ status: res.status, body: (await res.json().catch(() => null)) as Body }));
  }

  /** A staff RPC call; anything but 2xx fails the check. */
  async rpc(area: string, method: string, input: Record<string, unknown>): Promise<Body> {
    const res = await fetch(`${this.base}/api/${area}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: this.base, authorization: `Bearer ${this.staffToken}` },
      body: JSON.stringify(input),
    });
    const body = (await res.json().catch(() => null)) as Body;
    if (!res.ok) throw new Failed(`${area}/${method}: ${res.status} ${JSON.stringify(body?.error ?? body)}`);
    return body;
  }

  /** A WebSocket upgrade made by hand, so a refusal's status and body can be read. */
  async upgrade(token?: string) {
    const res = await fetch(`${this.base}/machine`, {
      headers: {
        upgrade: 'websocket',
        connection: 'upgrade',
        'sec-websocket-version': '13',
        'sec-websocket-key': btoa(
          crypto.getRandomValues(new Uint8Array(16)).reduce((s, b) => s + String.fromCharCode(b), ''),
        ),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  }
}
