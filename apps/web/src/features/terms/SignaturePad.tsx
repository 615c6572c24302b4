import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';

export interface SignaturePadHandle {
  clear: () => void;
  /** PNG data URL of the drawing, or null when nothing was drawn. */
  toDataUrl: () => string | null;
}

/**
 * A drawn signature on a canvas with pointer events: mouse, pen and touch
 * (touch-action none, so a finger draws instead of scrolling the page).
 */
export const SignaturePad = forwardRef<SignaturePadHandle, { onChange?: (signed: boolean) => void; label: string }>(
  function SignaturePad({ onChange, label }, ref) {
    const canvas = useRef<HTMLCanvasElement>(null);
    const drawn = useRef(false);
    const last = useRef<{ x: number; y: number } | null>(null);

    // Match the canvas's pixel size to its CSS size (and the device pixel ratio) for a sharp line.
    useEffect(() => {
      const c = canvas.current;
      if (!c) return;
      const ratio = window.devicePixelRatio || 1;
      const rect = c.getBoundingClientRect();
      c.width = Math.max(1, Math.round(rect.width * ratio));
      c.height = Math.max(1, Math.round(rect.height * ratio));
      const ctx = c.getContext('2d');
      if (!ctx) return;
      ctx.scale(ratio, ratio);
      ctx.lineWidth = 2.2;
      ctx.lineCap = 'round';
      ctx.lineJoin = 'round';
      ctx.strokeStyle = '#1f2937';
    }, []);

    useImperativeHandle(ref, () => ({
      clear: () => {
        const c = canvas.current;
        c?.getContext('2d')?.clearRect(0, 0, c.width, c.height);
        drawn.current = false;
        onChange?.(false);
      },
      toDataUrl: () => (drawn.current && canvas.current ? canvas.current.toDataURL('image/png') : null),
    }));

    const point = (e: React.PointerEvent<HTMLCanvasElement>) => {
      const r = e.currentTarget.getBoundingClientRect();
      return { x: e.clientX - r.left, y: e.clientY - r.top };
    };

    return (
      <canvas
        ref={canvas}
        className="signature-pad"
        role="img"
        aria-label={label}
        data-testid="signature-pad"
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture(e.pointerId);
          last.current = point(e);
          const ctx = e.currentTarget.getContext('2d');
          if (ctx) {
            ctx.beginPath();
            ctx.arc(last.current.x, last.current.y, 1, 0, Math.PI * 2);
            ctx.fillStyle = '#1f2937';
            ctx.fill();
          }
        }}
        onPointerMove={(e) => {
          if (!last.current) return;
          const ctx = e.currentTarget.getContext('2d');
          const p = point(e);
          if (ctx) {
            ctx.beginPath();
            ctx.moveTo(last.current.x, last.current.y);
            ctx.lineTo(p.x, p.y);
            ctx.stroke();
          }
          last.current = p;
          if (!drawn.current) {
            drawn.current = true;
            onChange?.(true);
          }
        }}
        onPointerUp={() => {
          last.current = null;
        }}
        onPointerCancel={() => {
          last.current = null;
        }}
      />
    );
  },
);
