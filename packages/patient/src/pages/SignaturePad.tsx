import { forwardRef, type PointerEvent, useCallback, useEffect, useImperativeHandle, useRef } from 'react';

/** What the form asks of the pad: the drawing as a PNG data URL (null when nothing is drawn), and Clear. */
export type SignaturePadHandle = { toDataUrl: () => string | null; clear: () => void };

/** The server takes a signature of at most 64 KB (core's signatureMaxBytes). */
export const signatureMaxBytes = 65_536;

/** Bytes a base64 data URL decodes to. */
export function dataUrlBytes(dataUrl: string): number {
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

/**
 * A box to sign in with a finger, pen or mouse (pointer events; the page does not scroll while
 * drawing). Drawn at the screen's pixel density; exported as a PNG on white, scaled down until it fits
 * the server's 64 KB. Labelled by the form (`aria-labelledby`); drawing has no keyboard alternative,
 * the rest of the form does.
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

  /** Sizes the bitmap to the box at the screen's density (clears it: called on mount and Clear). */
  const reset = useCallback(() => {
    const el = canvas.current;
    if (!el) return;
    const ratio = Math.min(window.devicePixelRatio || 1, 3);
    el.width = Math.round(el.clientWidth * ratio);
    el.height = Math.round(el.clientHeight * ratio);
    const ctx = context();
    if (!ctx) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.lineWidth = 2.5;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.strokeStyle = '#0b0c0c';
    drawn.current = false;
  }, [context]);

  useEffect(() => reset(), [reset]);

  useImperativeHandle(
    ref,
    () => ({
      clear: () => {
        reset();
        onChange.current(false);
      },
      toDataUrl: () => {
        const el = canvas.current;
        if (!el || !drawn.current) return null;
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
      },
    }),
    [reset],
  );

  const point = (event: PointerEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };

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
        // A dot for a tap.
        ctx.beginPath();
        ctx.arc(p.x, p.y, ctx.lineWidth / 2, 0, Math.PI * 2);
        ctx.fillStyle = ctx.strokeStyle;
        ctx.fill();
        if (!drawn.current) {
          drawn.current = true;
          onChange.current(true);
        }
      }}
      onPointerMove={(event) => {
        const last = drawing.current;
        if (!last || last.id !== event.pointerId) return;
        const ctx = context();
        if (!ctx) return;
        // Coalesced events keep a fast stroke smooth on phones.
        const events = event.nativeEvent.getCoalescedEvents?.() ?? [event.nativeEvent];
        const box = event.currentTarget.getBoundingClientRect();
        ctx.beginPath();
        ctx.moveTo(last.x, last.y);
        let x = last.x;
        let y = last.y;
        for (const e of events.length > 0 ? events : [event.nativeEvent]) {
          x = e.clientX - box.left;
          y = e.clientY - box.top;
          ctx.lineTo(x, y);
        }
        ctx.stroke();
        drawing.current = { id: last.id, x, y };
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
