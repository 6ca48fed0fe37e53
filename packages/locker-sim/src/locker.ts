import { join } from 'node:path';
import { drawAlarm } from './alarms.ts';
import { pairDevice, refreshTokens, type Tokens } from './pairing.ts';
import {
  callFrame,
  checkHubCall,
  encodeFrame,
  type Frame,
  type LockerAction,
  machineAlertCode,
  parseFrame,
  protocolTiming,
  reconnectDelayMs,
  resultFrame,
} from './protocol.ts';
import { DurableQueue, type QueuedEvent } from './queue.ts';
import { StateFile } from './state.ts';
import { type TemperatureMode, TemperatureModel } from './temperature.ts';

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

export type SimOptions = {
  api: string;
  index: number;
  stateDir?: string;
  /** Tokens of a test machine, used when the state has none. */
  credentials?: Tokens;
  /** Seconds between readings, and between TemperatureReadings batches. */
  readingEverySeconds?: number;
  batchEverySeconds?: number;
  /** Random alarms per hour (0: only scripted ones). */
  randomAlarmsPerHour?: number;
  log?: (line: string) => void;
  random?: () => number;
};

/** What the screen shows of a locker. */
export type LockerView = {
  index: number;
  status: LockerStatus;
  machineId: string | null;
  userCode: string | null;
  queued: number;
  seq: number;
  temperature: number | null;
  temperatureMode: TemperatureMode;
  outOfOrder: boolean;
  bags: number;
  lastEvent: string;
};

/** What the keypad got for a PIN: the hub's VerifyPin answer, or why it could not ask. */
export type PinAnswer =
  | { status: 'Accepted'; bagId: string; barcode: string; location: string }
  | { status: 'Invalid' | 'Expired' | 'PaymentRequired' | 'Held' }
  | { status: 'LockedOut'; retryAfter: number }
  | { status: 'Offline' }
  | { status: 'Error'; code: string };

/** A PIN as the locker's log shows it: the last two digits only. */
const maskPin = (pin: string) => `${'•'.repeat(Math.max(0, pin.length - 2))}${pin.slice(-2)}`;

const wsUrl = (api: string) => `${api.replace(/^http/, 'ws')}/machine`;

/**
 * A simulated locker: pairs, boots, heartbeats, reports status and temperature, raises alarms, loads and
 * removes bags, keeps its offline queue on disk and reconnects with backoff and full jitter.
 */
export class SimLocker {
  status: LockerStatus = 'starting';
  userCode: string | null = null;
  lastEvent = '';
  private readonly state: StateFile;
  private readonly queue: DurableQueue;
  private readonly temperature: TemperatureModel;
  private readonly random: () => number;
  private readings: { created: number; value: number }[] = [];
  private lastReading: number | null = null;
  private readonly bags = new Map<string, string>(); // location → barcode
  /** The slot the last accepted PIN opened, until its bag is collected. */
  private openSlot: string | null = null;
  private ws: WebSocket | null = null;
  private running = false;
  private networkUp = true;
  private powered = true;
  private attempt = 0;
  private callId = 0;
  private readonly waiting = new Map<string, (f: Frame) => void>();
  private pumping = false;
  private timers: ReturnType<typeof setInterval>[] = [];
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private wake: (() => void) | undefined;
  /** Waits in progress that stop() cuts short. */
  private readonly sleepers = new Set<() => void>();

  constructor(private readonly options: SimOptions) {
    const dir = options.stateDir;
    this.state = new StateFile(dir ? join(dir, `locker-${options.index}.json`) : undefined);
    this.queue = DurableQueue.open(dir ? join(dir, `locker-${options.index}.queue.jsonl`) : undefined);
    this.random = options.random ?? Math.random;
    this.temperature = new TemperatureModel(19 + this.random() * 2, this.random);
    const c = options.credentials;
    if (c && !this.state.value.accessToken) this.state.update({ ...c });
  }

  view(): LockerView {
    return {
      index: this.options.index,
      status: this.status,
      machineId: this.state.value.machineId,
      userCode: this.userCode,
      queued: this.queue.size,
      seq: this.state.value.seq,
      temperature: this.lastReading,
      temperatureMode: this.temperature.current,
      outOfOrder: this.state.value.outOfOrder,
      bags: this.bags.size,
      lastEvent: this.lastEvent,
    };
  }

  /** Runs until `stop()`: pairs if needed, then stays connected. */
  async start(): Promise<void> {
    this.running = true;
    const readingMs = (this.options.readingEverySeconds ?? 10) * 1000;
    const batchMs = (this.options.batchEverySeconds ?? 60) * 1000;
    this.timers.push(setInterval(() => this.takeReading(), readingMs));
    this.timers.push(setInterval(() => this.sendReadings(), batchMs));
    const perHour = this.options.randomAlarmsPerHour ?? 0;
    if (perHour > 0) {
      this.timers.push(
        setInterval(() => {
          if (this.random() < perHour / 360) this.randomAlarm();
        }, 10_000),
      );
    }
    // Pairs first when it has no tokens; never throws, so the process cannot die of a rejected start.
    void this.connectLoop();
  }

  stop(): void {
    this.running = false;
    for (const t of this.timers) clearInterval(t);
    clearInterval(this.heartbeat);
    this.ws?.close(1000, 'stopping');
    this.status = 'stopped';
    this.wake?.();
    for (const wake of this.sleepers) wake();
  }

  // ---- what QA and scenarios can do ----

  alarm(code: string, level?: string, message?: string): void {
    if (!machineAlertCode(code)) this.note(`unknown code ${code}: sent as is`);
    this.emit('MachineEvent', { code, ...(level ? { level } : {}), ...(message ? { message } : {}) });
    this.note(`alarm ${code}`);
  }

  /** An alarm of a random code, sent with its level (`--random-alarms`). */
  randomAlarm(): void {
    const { code, level } = drawAlarm(this.random);
    this.alarm(code, level);
  }

  setTemperature(mode: TemperatureMode): void {
    this.temperature.set(mode, Date.now());
    this.note(`temperature ${mode}`);
  }

  loadBag(barcode = `RX-${Math.floor(this.random() * 1e6)}`, location?: string): void {
    const slot = location ?? `A${this.bags.size + 1}`;
    this.bags.set(slot, barcode);
    this.emit('BagLoaded', { barcode, location: slot });
    this.note(`loaded ${barcode} in ${slot}`);
  }

  removeBag(barcode?: string): void {
    const entry = [...this.bags.entries()].find(([, b]) => !barcode || b === barcode);
    if (!entry) return;
    this.bags.delete(entry[0]);
    this.emit('BagRemoved', { barcode: entry[1], location: entry[0], reason: 'staff' });
    this.note(`removed ${entry[1]}`);
  }

  /**
   * The keypad: a patient types a PIN. Asked online only (never queued): offline, the locker says it
   * cannot check PINs now. Accepted opens the slot the hub names (`collectBag` then takes the bag out);
   * every other answer opens nothing. Returns what the locker's screen would say.
   */
  async enterPin(pin: string): Promise<PinAnswer> {
    if (this.status !== 'online') {
      this.note(`PIN ${maskPin(pin)}: offline, cannot check PINs`);
      return { status: 'Offline' };
    }
    const answer = await this.call('VerifyPin', { pin });
    if (answer[0] !== 3) {
      const code = answer[0] === 4 ? String(answer[2]) : 'InternalError';
      this.note(`PIN ${maskPin(pin)}: the hub answered ${code}`);
      return { status: 'Error', code };
    }
    const result = answer[2] as PinAnswer;
    if (result.status === 'Accepted' && 'location' in result) {
      this.openSlot = result.location;
      this.note(`PIN ${maskPin(pin)}: opened ${result.location}`);
    } else {
      this.note(
        `PIN ${maskPin(pin)}: ${result.status}${'retryAfter' in result ? ` (retry in ${result.retryAfter}s)` : ''}`,
      );
    }
    return result;
  }

  /** The patient takes the bag from the slot the last accepted PIN opened (or the given one). */
  collectBag(location = this.openSlot): boolean {
    const barcode = location === null ? undefined : this.bags.get(location);
    if (location === null || barcode === undefined) {
      this.note('no open slot to collect from');
      return false;
    }
    this.bags.delete(location);
    this.openSlot = null;
    this.emit('BagCollected', { barcode, location });
    this.note(`collected ${barcode} from ${location}`);
    return true;
  }

  /** The bags in the locker now: slot → barcode. */
  contents(): ReadonlyMap<string, string> {
    return this.bags;
  }

  /** The network goes away for `seconds` (0: until restored): events queue up on disk meanwhile. */
  networkDrop(seconds = 300): void {
    this.networkUp = false;
    this.status = 'network down';
    this.ws?.close(4900, 'network drop');
    this.note(`network down${seconds ? ` for ${seconds}s` : ''}`);
    if (seconds) setTimeout(() => this.networkRestore(), seconds * 1000);
  }

  networkRestore(): void {
    this.networkUp = true;
    this.note('network back');
    this.wake?.();
  }

  /** Mains fails: the locker reports it on battery, then shuts down; power returns after `seconds`. */
  powerFailure(seconds = 120): void {
    this.alarm('EM_0003');
    setTimeout(() => {
      this.emit('MachineEvent', { code: 'EM_0013' });
      this.powered = false;
      this.status = 'powered off';
      this.ws?.close(4901, 'power off');
      this.note('powered off');
      if (seconds) setTimeout(() => this.powerRestore(), seconds * 1000);
    }, 2000);
  }

  powerRestore(): void {
    this.powered = true;
    this.emit('MachineEvent', { code: 'EM_0019' });
    this.note('power back: booting');
    this.wake?.();
  }

  // ---- internals ----

  private note(text: string): void {
    this.lastEvent = text;
    this.options.log?.(`locker ${this.options.index}: ${text}`);
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
    this.status = 'pairing';
    const tokens = await pairDevice(this.options.api, {
      show: (code) => {
        this.userCode = code;
        if (!this.running) return;
        this.status = 'pairing';
        if (code) this.note(`pair me with code ${code}`);
      },
      waiting: (problem, delayMs) => {
        this.status = 'waiting for server';
        this.note(`waiting for server (${problem}): pairing again in ${(delayMs / 1000).toFixed(1)}s`);
      },
      refused: (error) => this.note(`pairing code refused (${error}): asking for a new one`),
      isRunning: () => this.running,
      sleep: (ms) => this.sleep(ms),
      random: this.random,
    });
    if (!tokens) return;
    this.userCode = null;
    this.state.update({ ...tokens });
    this.note(`paired as machine ${tokens.machineId}`);
  }

  private takeReading(): void {
    if (!this.powered) return;
    const now = Date.now();
    this.readings.push({ created: now, value: this.temperature.read(now) });
    this.lastReading = this.readings[this.readings.length - 1]?.value ?? null;
  }

  private sendReadings(): void {
    if (!this.powered || this.readings.length === 0) return;
    const readings = this.readings.splice(0, 600);
    this.emit('TemperatureReadings', { readings });
  }

  /** Queues a data-changing event on disk with a new seq and event id, then sends what is queued. */
  private emit(action: LockerAction, fields: Record<string, unknown>): void {
    const payload = { ...fields, eventId: crypto.randomUUID(), seq: this.state.nextSeq(), created: Date.now() };
    this.queue.append({ action, payload } as QueuedEvent);
    void this.pump();
  }

  /** Sends queued events oldest first, one at a time, removing each when the hub has answered. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.status === 'online') {
        const next = this.queue.pending()[0];
        if (!next) break;
        const answer = await this.call(next.action, next.payload);
        if (answer[0] === 3) {
          this.queue.ack(next.payload.eventId);
          continue;
        }
        const code = answer[0] === 4 ? answer[2] : 'InternalError';
        if (code === 'InternalError' || code === 'GenericError') break; // keep it; try again later
        if (code === 'ProtocolError') break;
        this.note(`hub refused ${next.action} (${code}): dropped`);
        this.queue.ack(next.payload.eventId);
      }
    } finally {
      this.pumping = false;
    }
  }

  private call(action: string, payload: Record<string, unknown>): Promise<Frame> {
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

  private async connectLoop(): Promise<void> {
    while (this.running) {
      try {
        await this.connectStep();
      } catch (error) {
        // Nothing above should throw; if something does, the locker backs off and tries again, never dies.
        this.note(`unexpected: ${error instanceof Error ? error.message : String(error)}`);
        await this.waitToReconnect();
      }
    }
  }

  /** One turn of the connect loop: wait for network and power, pair if needed, connect, back off. */
  private async connectStep(): Promise<void> {
    if (!this.networkUp || !this.powered) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      return;
    }
    if (!this.state.value.accessToken) {
      await this.pair();
      return;
    }
    await this.refreshIfDue();
    this.status = 'connecting';
    const closed = await this.connectOnce();
    if (!this.running) return;
    if (closed === 4001) {
      this.note('machine archived or paired again: pairing');
      this.state.update({ accessToken: null, refreshToken: null, machineId: null });
      return;
    }
    // Tokens refreshed (by this locker, or another holding its state): reconnect at once with the new ones.
    if (closed === 4004) return;
    if (closed === 4003) await this.refreshIfDue(true);
    if (closed === 'refused' && this.attempt >= 2) await this.refreshIfDue(true);
    if (this.networkUp && this.powered) this.status = 'offline';
    await this.waitToReconnect();
  }

  /** The reconnect backoff (docs/LOCKER-PROTOCOL.md §10); network or power coming back cuts it short. */
  private async waitToReconnect(): Promise<void> {
    const delay = reconnectDelayMs(this.attempt++, this.random);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, delay);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async refreshIfDue(force = false): Promise<void> {
    const { refreshToken, accessTokenExpires } = this.state.value;
    if (!refreshToken) return;
    if (!force && accessTokenExpires !== null && accessTokenExpires - Date.now() > 60 * 60_000) return;
    try {
      const tokens = await refreshTokens(this.options.api, refreshToken);
      if (tokens) this.state.update({ ...tokens });
      else {
        this.note('refresh refused: pairing again');
        this.state.update({ accessToken: null, refreshToken: null });
      }
    } catch {
      // the server is unreachable: try again on the next attempt
    }
  }

  /** One connection, from open to close; resolves with the close code, or 'refused'. */
  private connectOnce(): Promise<number | 'refused'> {
    return new Promise((resolve) => {
      let opened = false;
      const ws = new WebSocket(wsUrl(this.options.api), {
        headers: { authorization: `Bearer ${this.state.value.accessToken}` },
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
        if (this.status === 'online') this.status = 'offline';
        resolve(opened ? e.code : 'refused');
      };
      ws.onerror = () => {};
    });
  }

  private async onOpen(): Promise<void> {
    const boot = await this.call('BootNotification', {
      vendor: 'MedLocker',
      model: 'locker-sim',
      firmwareVersion: '1.0.0',
      serialNumber: `SIM-${this.options.index}`,
      lastSeq: this.state.value.seq,
    });
    if (boot[0] !== 3) return;
    const result = boot[2] as { status: string; heartbeatInterval: number; outOfOrder: boolean; lastSeq: number };
    if (result.status !== 'Accepted') {
      this.note('boot rejected (archived machine)');
      this.ws?.close(1000);
      return;
    }
    this.attempt = 0;
    this.status = 'online';
    this.state.update({ outOfOrder: result.outOfOrder });
    this.note(`online; replaying ${this.queue.size} queued`);
    clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => void this.call('Heartbeat', {}), result.heartbeatInterval * 1000);
    await this.call('StatusNotification', { observations: this.observations() });
    void this.pump();
  }

  private observations(): Record<string, unknown> {
    return {
      doorOpen: false,
      slotsTotal: 24,
      slotsFree: 24 - this.bags.size,
      mains: this.powered ? 'ok' : 'battery',
      outOfOrder: this.state.value.outOfOrder,
      queued: this.queue.size,
    };
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
    const p = checked.payload as Record<string, unknown>;
    switch (checked.action) {
      case 'SetOutOfOrder':
        this.state.update({ outOfOrder: p.outOfOrder === true });
        this.note(p.outOfOrder ? `OUT OF ORDER (by ${String(p.by ?? 'staff')})` : 'back in order');
        this.ws?.send(encodeFrame(resultFrame(id, { status: 'Accepted' })));
        break;
      case 'TriggerStatus':
        this.ws?.send(encodeFrame(resultFrame(id, { status: 'Accepted' })));
        if (p.requested === 'StatusNotification')
          void this.call('StatusNotification', { observations: this.observations() });
        else if (p.requested === 'Heartbeat') void this.call('Heartbeat', {});
        else this.ws?.close(1012, 'rebooting');
        break;
      case 'ChangeConfiguration':
        this.ws?.send(encodeFrame(resultFrame(id, { status: 'NotSupported' })));
        break;
      case 'Reset':
        this.ws?.send(encodeFrame(resultFrame(id, { status: 'Accepted' })));
        this.note(`reset (${String(p.type)})`);
        this.ws?.close(1012, 'reset');
        break;
    }
  }
}
