import { pairDevice, refreshTokens } from './pairing.ts';
import {
  callFrame,
  checkHubCall,
  encodeFrame,
  type Frame,
  type HubAction,
  parseFrame,
  protocolTiming,
  reconnectDelayMs,
  resultFrame,
} from './protocol.ts';
import type { DurableQueue } from './queue.ts';
import type { StateFile } from './state.ts';

export type LockerStatus =
  | 'starting'
  | 'pairing'
  | 'waiting for server'
  | 'connecting'
  | 'online'
  | 'offline'
  | 'network down'
  | 'powered off'
  | 'stopped';

/** What the link reads and changes of the locker it connects. */
export type LinkHost = {
  /** The server's address, read at each connection: it may change while the locker runs (a load balancer's). */
  api(): string;
  readonly index: number;
  readonly random: () => number;
  /** Tokens, the sequence counter and the out-of-order flag, kept across restarts. */
  readonly state: StateFile;
  /** Data-changing events waiting for the hub's answer. */
  readonly queue: DurableQueue;
  status(): LockerStatus;
  setStatus(status: LockerStatus): void;
  /** The user code to show while pairing (null once paired). */
  showUserCode(code: string | null): void;
  note(text: string): void;
  /** Network and power are up: the link may connect. */
  canConnect(): boolean;
  /** What StatusNotification reports. */
  observations(): Record<string, unknown>;
  /** Booted again after the hub's Reset: a locker reports it (EM_0019 MachineBootingUp). */
  restarted(type: string): void;
};

const wsUrl = (api: string) => `${api.replace(/^http/, 'ws')}/machine`;

/**
 * A locker's link to the hub: pairs when it has no tokens, refreshes them, connects, boots, heartbeats,
 * sends the offline queue oldest first, answers hub calls, and reconnects with backoff and full jitter.
 */
export class HubLink {
  private ws: WebSocket | null = null;
  private running = false;
  private attempt = 0;
  private callId = 0;
  private readonly waiting = new Map<string, (f: Frame) => void>();
  private pumping = false;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  /** HeartbeatInterval set by ChangeConfiguration: used instead of the hub's. */
  private heartbeatSeconds: number | null = null;
  /** The Reset being carried out (Soft or Hard), until the locker has booted again. */
  private resetting: string | null = null;
  private wake: (() => void) | undefined;
  /** Waits in progress that stop() cuts short. */
  private readonly sleepers = new Set<() => void>();

  constructor(private readonly host: LinkHost) {}

  /** Connects and stays connected until `stop()`; never throws, so the process cannot die of it. */
  start(): void {
    this.running = true;
    void this.connectLoop();
  }

  stop(): void {
    this.running = false;
    clearInterval(this.heartbeat);
    this.ws?.close(1000, 'stopping');
    this.wake?.();
    for (const wake of this.sleepers) wake();
  }

  /** Network or power came back: cuts short the wait for them, or for the next reconnect attempt. */
  wakeUp(): void {
    this.wake?.();
  }

  /** Drops the connection (the network or the power went); the connect loop takes over. */
  close(code: number, reason: string): void {
    this.ws?.close(code, reason);
  }

  /** Sends a call and resolves with the hub's answer, or an InternalError frame on timeout or close. */
  call(action: string, payload: Record<string, unknown>): Promise<Frame> {
    const id = String(++this.callId);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve([4, id, 'InternalError', 'timeout', {}]);
      }, protocolTiming.callTimeoutMs);
      this.waiting.set(id, (f) => {
        clearTimeout(timer);
        resolve(f);
      });
      try {
        this.ws?.send(encodeFrame(callFrame(id, action, payload)));
      } catch {
        // closed: the timeout answers
      }
    });
  }

  /** Sends queued events oldest first, one at a time, removing each when the hub has answered. */
  async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    const { queue } = this.host;
    try {
      while (this.host.status() === 'online') {
        const next = queue.pending()[0];
        if (!next) break;
        const answer = await this.call(next.action, next.payload);
        if (answer[0] === 3) {
          queue.ack(next.payload.eventId);
          continue;
        }
        const code = answer[0] === 4 ? answer[2] : 'InternalError';
        if (code === 'InternalError' || code === 'GenericError') break; // keep it; try again later
        if (code === 'ProtocolError') break;
        this.host.note(`hub refused ${next.action} (${code}): dropped`);
        queue.ack(next.payload.eventId);
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Waits `ms`, or less if the locker stops meanwhile. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (!this.running) return resolve();
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }

  private async pair(): Promise<void> {
    const { host } = this;
    host.setStatus('pairing');
    const tokens = await pairDevice(host.api(), {
      show: (code) => {
        host.showUserCode(code);
        if (!this.running) return;
        host.setStatus('pairing');
        if (code) host.note(`pair me with code ${code}`);
      },
      waiting: (problem, delayMs) => {
        host.setStatus('waiting for server');
        host.note(`waiting for server (${problem}): pairing again in ${(delayMs / 1000).toFixed(1)}s`);
      },
      refused: (error) => host.note(`pairing code refused (${error}): asking for a new one`),
      isRunning: () => this.running,
      sleep: (ms) => this.sleep(ms),
      random: host.random,
    });
    if (!tokens) return;
    host.showUserCode(null);
    host.state.update({ ...tokens });
    host.note(`paired as machine ${tokens.machineId}`);
  }

  private async connectLoop(): Promise<void> {
    while (this.running) {
      try {
        await this.connectStep();
      } catch (error) {
        // Nothing above should throw; if something does, the locker backs off and tries again, never dies.
        this.host.note(`unexpected: ${error instanceof Error ? error.message : String(error)}`);
        await this.waitToReconnect();
      }
    }
  }

  /** One turn of the connect loop: wait for network and power, pair if needed, connect, back off. */
  private async connectStep(): Promise<void> {
    const { host } = this;
    if (!host.canConnect()) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      return;
    }
    if (!host.state.value.accessToken) {
      await this.pair();
      return;
    }
    await this.refreshIfDue();
    host.setStatus('connecting');
    const closed = await this.connectOnce();
    if (!this.running) return;
    if (closed === 4001) {
      host.note('machine archived or paired again: pairing');
      host.state.update({ accessToken: null, refreshToken: null, machineId: null });
      return;
    }
    // Tokens refreshed (by this locker, or another holding its state): reconnect at once with the new ones.
    if (closed === 4004) return;
    if (closed === 4003) await this.refreshIfDue(true);
    if (closed === 'refused' && this.attempt >= 2) await this.refreshIfDue(true);
    if (host.canConnect()) host.setStatus('offline');
    await this.waitToReconnect();
  }

  /** The reconnect backoff (docs/LOCKER-PROTOCOL.md §10); network or power coming back cuts it short. */
  private async waitToReconnect(): Promise<void> {
    const delay = reconnectDelayMs(this.attempt++, this.host.random);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, delay);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async refreshIfDue(force = false): Promise<void> {
    const { state } = this.host;
    const { refreshToken, accessTokenExpires } = state.value;
    if (!refreshToken) return;
    if (!force && accessTokenExpires !== null && accessTokenExpires - Date.now() > 60 * 60_000) return;
    try {
      const tokens = await refreshTokens(this.host.api(), refreshToken);
      if (tokens) state.update({ ...tokens });
      else {
        this.host.note('refresh refused: pairing again');
        state.update({ accessToken: null, refreshToken: null });
      }
    } catch {
      // the server is unreachable: try again on the next attempt
    }
  }

  /** One connection, from open to close; resolves with the close code, or 'refused'. */
  private connectOnce(): Promise<number | 'refused'> {
    return new Promise((resolve) => {
      let opened = false;
      const ws = new WebSocket(wsUrl(this.host.api()), {
        headers: { authorization: `Bearer ${this.host.state.value.accessToken}` },
      } as never);
      this.ws = ws;
      ws.onopen = () => {
        opened = true;
        void this.onOpen();
      };
      ws.onmessage = (m) => this.onMessage(String(m.data));
      ws.onclose = (e) => {
        clearInterval(this.heartbeat);
        this.ws = null;
        for (const [id, w] of this.waiting) w([4, id, 'InternalError', 'closed', {}]);
        this.waiting.clear();
        if (this.host.status() === 'online') this.host.setStatus('offline');
        resolve(opened ? e.code : 'refused');
      };
      ws.onerror = () => {};
    });
  }

  private bootPayload() {
    return {
      vendor: 'MedLocker',
      model: 'locker-sim',
      firmwareVersion: '1.0.0',
      serialNumber: `SIM-${this.host.index}`,
      lastSeq: this.host.state.value.seq,
    };
  }

  /** Boots; once accepted, the locker is online: heartbeats start, status is sent, the queue replays. */
  private async onOpen(): Promise<void> {
    const { host } = this;
    const boot = await this.call('BootNotification', this.bootPayload());
    if (boot[0] !== 3) return;
    const result = boot[2] as { status: string; heartbeatInterval: number; outOfOrder: boolean; lastSeq: number };
    if (result.status !== 'Accepted') {
      host.note('boot rejected (archived machine)');
      this.ws?.close(1000);
      return;
    }
    this.attempt = 0;
    host.setStatus('online');
    host.state.update({ outOfOrder: result.outOfOrder });
    host.note(`online; replaying ${host.queue.size} queued`);
    clearInterval(this.heartbeat);
    const every = this.heartbeatSeconds ?? result.heartbeatInterval;
    this.heartbeat = setInterval(() => void this.call('Heartbeat', {}), every * 1000);
    await this.call('StatusNotification', { observations: host.observations() });
    if (this.resetting) host.restarted(this.resetting);
    this.resetting = null;
    void this.pump();
  }

  private onMessage(text: string): void {
    const parsed = parseFrame(text);
    if (!parsed.ok) return;
    const frame = parsed.frame;
    if (frame[0] !== 2) {
      this.waiting.get(frame[1])?.(frame);
      this.waiting.delete(frame[1]);
      return;
    }
    const [, id, action, payload] = frame;
    const checked = checkHubCall(id, action, payload);
    if (!checked.ok) {
      this.ws?.send(encodeFrame(checked.error));
      return;
    }
    this.answerHubCall(id, checked.action, checked.payload as Record<string, unknown>);
  }

  private answerHubCall(id: string, action: HubAction, p: Record<string, unknown>): void {
    const answer = (status: string) => this.ws?.send(encodeFrame(resultFrame(id, { status })));
    switch (action) {
      case 'SetOutOfOrder':
        this.host.state.update({ outOfOrder: p.outOfOrder === true });
        this.host.note(p.outOfOrder ? `OUT OF ORDER (by ${String(p.by ?? 'staff')})` : 'back in order');
        answer('Accepted');
        break;
      case 'TriggerStatus':
        answer('Accepted');
        this.host.note(`asked for a ${String(p.requested)}`);
        if (p.requested === 'StatusNotification')
          void this.call('StatusNotification', { observations: this.host.observations() });
        else if (p.requested === 'Heartbeat') void this.call('Heartbeat', {});
        else void this.call('BootNotification', this.bootPayload());
        break;
      case 'ChangeConfiguration': {
        const status = this.configure(String(p.key), String(p.value));
        this.host.note(`configuration ${String(p.key)}=${String(p.value)}: ${status}`);
        answer(status);
        break;
      }
      case 'Reset':
        answer('Accepted');
        this.host.note(`reset (${String(p.type)}): restarting`);
        // Soft: the software restarts at once; Hard: the power is cut for a moment. Either way the
        // connection closes and the locker connects and boots again.
        clearInterval(this.heartbeat);
        this.resetting = String(p.type);
        this.ws?.close(1012, p.type === 'Hard' ? 'hard reset' : 'soft reset');
        break;
    }
  }

  /**
   * The settings ChangeConfiguration may change: `HeartbeatInterval` (whole seconds, 10 to 3600;
   * anything else Rejected), kept until the process stops and used instead of the hub's interval.
   * Any other key: NotSupported.
   */
  private configure(key: string, value: string): 'Accepted' | 'Rejected' | 'NotSupported' {
    if (key !== 'HeartbeatInterval') return 'NotSupported';
    const seconds = /^\d{1,4}$/.test(value) ? Number(value) : Number.NaN;
    if (!(seconds >= 10 && seconds <= 3600)) return 'Rejected';
    this.heartbeatSeconds = seconds;
    clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => void this.call('Heartbeat', {}), seconds * 1000);
    return 'Accepted';
  }

  /** The HeartbeatInterval set by ChangeConfiguration, if any. */
  get configuredHeartbeatSeconds(): number | null {
    return this.heartbeatSeconds;
  }
}
