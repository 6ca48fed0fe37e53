import { join } from 'node:path';
import { drawAlarm } from './alarms.ts';
import { HubLink, type LockerStatus } from './hub-link.ts';
import type { Tokens } from './pairing.ts';
import { type LockerAction, machineAlertCode, readQrCode } from './protocol.ts';
import { DurableQueue, type QueuedEvent } from './queue.ts';
import { StateFile } from './state.ts';
import { type TemperatureMode, TemperatureModel } from './temperature.ts';

export type { LockerStatus };

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

/**
 * A simulated locker: reports temperature, raises alarms, loads and removes bags, answers its keypad,
 * loses network or power, and keeps its offline queue on disk. Its HubLink pairs, connects and
 * reconnects, and sends that queue.
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
  private networkUp = true;
  private powered = true;
  private timers: ReturnType<typeof setInterval>[] = [];
  private readonly link: HubLink;

  constructor(private readonly options: SimOptions) {
    const dir = options.stateDir;
    this.state = new StateFile(dir ? join(dir, `locker-${options.index}.json`) : undefined);
    this.queue = DurableQueue.open(dir ? join(dir, `locker-${options.index}.queue.jsonl`) : undefined);
    this.random = options.random ?? Math.random;
    this.temperature = new TemperatureModel(19 + this.random() * 2, this.random);
    const c = options.credentials;
    if (c && !this.state.value.accessToken) this.state.update({ ...c });
    this.link = new HubLink({
      api: () => options.api,
      index: options.index,
      random: this.random,
      state: this.state,
      queue: this.queue,
      status: () => this.status,
      setStatus: (status) => {
        this.status = status;
      },
      showUserCode: (code) => {
        this.userCode = code;
      },
      note: (text) => this.note(text),
      canConnect: () => this.networkUp && this.powered,
      observations: () => this.observations(),
      restarted: (type) => {
        this.emit('MachineEvent', { code: 'EM_0019', message: `Booted after a ${type} reset` });
        this.note(`booted after a ${type} reset`);
      },
    });
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
    // Pairs first when it has no tokens.
    this.link.start();
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.link.stop();
    this.status = 'stopped';
  }

  // ---- what QA and scenarios can do ----

  alarm(code: string, level?: string, message?: string): void {
    if (!machineAlertCode(code)) this.note(`unknown code ${code}: sent as is`);
    this.emit('MachineEvent', { code, ...(level ? { level } : {}), ...(message ? { message } : {}) });
    this.note(`alarm ${code}`);
  }

  /**
   * The alarm of this code is over (docs/LOCKER-PROTOCOL.md, MachineEvent): the same code with
   * `data.cleared`, which resolves the machine's unresolved alarm of that code.
   */
  clearAlarm(code: string): void {
    this.emit('MachineEvent', { code, data: { cleared: true } });
    this.note(`alarm ${code} cleared`);
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

  loadBag(barcode = `RX-${Math.floor(this.random() * 1e6)}`, location?: string, qrCode?: string): void {
    const slot = location ?? `A${this.bags.size + 1}`;
    this.bags.set(slot, barcode);
    this.emit('BagLoaded', { barcode, location: slot, ...(qrCode === undefined ? {} : { qrCode }) });
    this.note(`loaded ${barcode} in ${slot}${qrCode === undefined ? '' : ' with its QR code'}`);
  }

  /**
   * Staff load a bag whose label carries a pharmacy-signed QR code (docs/LOCKER-PROTOCOL.md, BagLoaded):
   * the bag's barcode is the one the code names, and the code goes with it so the hub can create the
   * order. A text that is no MedLocker QR code loads nothing (a real scanner would read the barcode).
   */
  scanQrCode(qrCode: string, location?: string): boolean {
    const code = readQrCode(qrCode);
    if (!code.ok) {
      this.note(`QR code not read: ${code.problem.message}`);
      return false;
    }
    this.loadBag(code.payload.barcode, location, qrCode.trim());
    return true;
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
    const answer = await this.link.call('VerifyPin', { pin });
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
    this.link.close(4900, 'network drop');
    this.note(`network down${seconds ? ` for ${seconds}s` : ''}`);
    if (seconds) setTimeout(() => this.networkRestore(), seconds * 1000);
  }

  networkRestore(): void {
    this.networkUp = true;
    this.note('network back');
    this.link.wakeUp();
  }

  /** Mains fails: the locker reports it on battery, then shuts down; power returns after `seconds`. */
  powerFailure(seconds = 120): void {
    this.alarm('EM_0003');
    setTimeout(() => {
      this.emit('MachineEvent', { code: 'EM_0013' });
      this.powered = false;
      this.status = 'powered off';
      this.link.close(4901, 'power off');
      this.note('powered off');
      if (seconds) setTimeout(() => this.powerRestore(), seconds * 1000);
    }, 2000);
  }

  powerRestore(): void {
    this.powered = true;
    this.emit('MachineEvent', { code: 'EM_0019' });
    // Mains is back and the locker is up again: its power and shutdown alarms are over.
    this.clearAlarm('EM_0003');
    this.clearAlarm('EM_0013');
    this.note('power back: booting');
    this.link.wakeUp();
  }

  // ---- internals ----

  private note(text: string): void {
    this.lastEvent = text;
    this.options.log?.(`locker ${this.options.index}: ${text}`);
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
    void this.link.pump();
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
}
