import { forwardRef, type PointerEvent, useCallback, useEffect, useImperativeHandle, useRef } from 'react';

/**
 * What the form asks of the pad: the drawing as a PNG data URL (null when nothing is drawn), Clear,
 * and a typed name written in the box instead (the way to sign without a pointer).
 */
export type SignaturePadHandle = {
  toDataUrl: () => string | null;
  clear: () => void;
  signWith: (name: string) => void;
};

/** The server takes a signature of at most 64 KB (core's signatureMaxBytes). */
export const signatureMaxBytes = 65_536;

/** Bytes a base64 data URL decodes to. */
export function dataUrlBytes(dataUrl: string): number {
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

type Point = { x: number; y: number };

const point = (event: PointerEvent<HTMLCanvasElement>): Point => {
  const box = event.currentTarget.getBoundingClientRect();
  return { x: event.clientX - box.left, y: event.clientY - box.top };
};

/**
 * Sizes the bitmap to the box at the screen's density, which clears it, and sets the pen; false when
 * the browser gives no 2D context.
 */
function sizeToBox(el: HTMLCanvasElement): boolean {
  const ratio = Math.min(window.devicePixelRatio || 1, 3);
  el.width = Math.round(el.clientWidth * ratio);
  el.height = Math.round(el.clientHeight * ratio);
  const ctx = el.getContext('2d');
  if (!ctx) return false;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.lineWidth = 2.5;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.strokeStyle = '#0b0c0c';
  return true;
}

/** A dot for a tap. */
function dot(ctx: CanvasRenderingContext2D, p: Point): void {
  ctx.beginPath();
  ctx.arc(p.x, p.y, ctx.lineWidth / 2, 0, Math.PI * 2);
  ctx.fillStyle = ctx.strokeStyle;
  ctx.fill();
}

/** Draws the pointer's moves since `from`; answers where the line ended. */
function stroke(ctx: CanvasRenderingContext2D, from: Point, event: PointerEvent<HTMLCanvasElement>): Point {
  // Coalesced events keep a fast stroke smooth on phones.
  const events = event.nativeEvent.getCoalescedEvents?.() ?? [event.nativeEvent];
  const box = event.currentTarget.getBoundingClientRect();
  ctx.beginPath();
  ctx.moveTo(from.x, from.y);
  let x = from.x;
  let y = from.y;
  for (const e of events.length > 0 ? events : [event.nativeEvent]) {
    x = e.clientX - box.left;
    y = e.clientY - box.top;
    ctx.lineTo(x, y);
  }
  ctx.stroke();
  return { x, y };
}

/** Clears the box and writes `name` across it in a handwriting-like face, shrunk until it fits; false when it cannot. */
function writeName(el: HTMLCanvasElement, name: string): boolean {
  const ctx = el.getContext('2d');
  if (!name || !ctx || !sizeToBox(el)) return false;
  const width = el.clientWidth;
  let size = Math.min(48, el.clientHeight * 0.6);
  ctx.font = `italic ${size}px cursive`;
  while (size > 10 && ctx.measureText(name).width > width - 24) {
    size -= 2;
    ctx.font = `italic ${size}px cursive`;
  }
  ctx.fillStyle = ctx.strokeStyle;
  ctx.textBaseline = 'middle';
  ctx.fillText(name, 12, el.clientHeight / 2, width - 24);
  return true;
}

/** The drawing as a PNG on white, scaled down until it fits the server's limit. */
function pngWithin(el: HTMLCanvasElement): string | null {
  // On white (a transparent PNG shows black on black in some viewers), at most 600 px wide.
  let scale = Math.min(1, 600 / el.width);
  for (;;) {
    const out = document.createElement('canvas');
    out.width = Math.max(1, Math.round(el.width * scale));
    out.height = Math.max(1, Math.round(el.height * scale));
    const ctx = out.getContext('2d');
    if (!ctx) return null;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, out.width, out.height);
    ctx.drawImage(el, 0, 0, out.width, out.height);
    const url = out.toDataURL('image/png');
    if (dataUrlBytes(url) <= signatureMaxBytes || out.width <= 100) return url;
    scale *= 0.7;
  }
}

/**
 * A box to sign in with a finger, pen or mouse (pointer events; the page does not scroll while
 * drawing). Drawn at the screen's pixel density; exported as a PNG on white, scaled down until it fits
 * the server's 64 KB. Labelled by the form (`aria-labelledby`); drawing needs a pointer, so the form
 * offers writing the declarant's typed name in the box instead (`signWith`), which a keyboard can do.
 */
export const SignaturePad = forwardRef<
  SignaturePadHandle,
  { id: string; labelledBy: string; describedBy?: string; invalid?: boolean; onChange: (drawn: boolean) => void }
>(function SignaturePad(props, ref) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef<{ id: number; x: number; y: number } | null>(null);
  const drawn = useRef(false);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;

  const context = useCallback(() => canvas.current?.getContext('2d') ?? null, []);

  /** Clears the pad (on mount and Clear). */
  const reset = useCallback(() => {
    const el = canvas.current;
    if (el && sizeToBox(el)) drawn.current = false;
  }, []);

  useEffect(() => reset(), [reset]);

  useImperativeHandle(
    ref,
    () => ({
      clear: () => {
        reset();
        onChange.current(false);
      },
      signWith: (name: string) => {
        if (!canvas.current || !writeName(canvas.current, name.trim())) return;
        drawn.current = true;
        onChange.current(true);
      },
      toDataUrl: () => {
        const el = canvas.current;
        return el && drawn.current ? pngWithin(el) : null;
      },
    }),
    [reset],
  );

  return (
    <canvas
      id={props.id}
      ref={canvas}
      className={`signature${props.invalid ? ' signature--error' : ''}`}
      role="img"
      // Focusable from the error summary's link, but not a tab stop: drawing needs a pointer.
      tabIndex={-1}
      aria-labelledby={props.labelledBy}
      aria-describedby={props.describedBy}
      onPointerDown={(event) => {
        if (event.button !== 0) return;
        event.preventDefault();
        event.currentTarget.setPointerCapture(event.pointerId);
        const p = point(event);
        drawing.current = { id: event.pointerId, ...p };
        const ctx = context();
        if (!ctx) return;
        dot(ctx, p);
        if (!drawn.current) {
          drawn.current = true;
          onChange.current(true);
        }
      }}
      onPointerMove={(event) => {
        const last = drawing.current;
        if (!last || last.id !== event.pointerId) return;
        const ctx = context();
        if (ctx) drawing.current = { id: last.id, ...stroke(ctx, last, event) };
      }}
      onPointerUp={() => {
        drawing.current = null;
      }}
      onPointerCancel={() => {
        drawing.current = null;
      }}
    >
      Sign in this box
    </canvas>
  );
});
