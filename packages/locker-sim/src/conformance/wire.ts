import { callFrame, type Frame, parseFrame } from '@medlocker/core/locker';
import { Failed } from './expect.ts';

/** A locker connection for the checks: calls with answers, hub calls recorded, the close code. */
export class Wire {
  private readonly ws: WebSocket;
  private readonly waiting = new Map<string, (f: Frame) => void>();
  readonly hubCalls: Frame[] = [];
  readonly opened: Promise<void>;
  readonly closed: Promise<number>;
  protocol = '';
  private n = 0;

  constructor(wsUrl: string, token: string) {
    this.ws = new WebSocket(`${wsUrl}/machine`, {
      headers: { authorization: `Bearer ${token}` },
      protocols: ['medlocker.locker.v1'],
    } as never);
    this.closed = new Promise((resolve) => this.ws.addEventListener('close', (e) => resolve(e.code)));
    this.opened = new Promise((resolve, reject) => {
      this.ws.addEventListener('open', () => {
        this.protocol = this.ws.protocol;
        resolve();
      });
      this.ws.addEventListener('close', (e) => reject(new Failed(`connection closed (${e.code})`)));
    });
    this.ws.addEventListener('message', (m) => {
      const parsed = parseFrame(String(m.data));
      const frame = parsed.ok ? parsed.frame : parsed.error;
      if (frame[0] === 2) {
        this.hubCalls.push(frame);
        this.ws.send(JSON.stringify([3, frame[1], { status: 'Accepted' }]));
        return;
      }
      this.waiting.get(frame[1])?.(frame);
      this.waiting.delete(frame[1]);
    });
  }

  private answer(id: string): Promise<Frame> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Failed(`no answer to call ${id} within 30 s`)), 30_000);
      this.waiting.set(id, (f) => {
        clearTimeout(timer);
        resolve(f);
      });
    });
  }

  call(action: string, payload: Record<string, unknown>): Promise<Frame> {
    const id = String(++this.n);
    const answer = this.answer(id);
    this.ws.send(JSON.stringify(callFrame(id, action, payload)));
    return answer;
  }

  raw(text: string, id = '-1'): Promise<Frame> {
    const answer = this.answer(id);
    this.ws.send(text);
    return answer;
  }

  async hubCall(action: string, timeoutMs = 5000): Promise<Frame> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const found = this.hubCalls.find((f) => f[2] === action);
      if (found) return found;
      await Bun.sleep(20);
    }
    throw new Failed(`the hub did not call ${action}`);
  }

  close() {
    this.ws.close();
  }
}
