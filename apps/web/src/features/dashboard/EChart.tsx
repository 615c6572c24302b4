import { useEffect, useRef } from 'react';
import { echarts } from './echarts';

type Option = Parameters<ReturnType<typeof echarts.init>['setOption']>[0];

/**
 * A minimal ECharts host: one instance per element, option replaced on
 * change, resized with its box. (echarts-for-react needs an undeclared
 * tslib at build time; this keeps the dashboard chunk self-contained.)
 */
export function EChart({
  option,
  className,
  testId,
  height,
}: {
  option: Option;
  className?: string;
  testId?: string;
  /** Block size in px instead of the class's. */
  height?: number;
}) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<typeof echarts.init> | null>(null);

  // The latest option, for the drawing that starts after the next paint.
  const latest = useRef(option);
  latest.current = option;

  // Each chart is drawn in a task of its own after the next paint, not in the
  // commit that mounts it: the screen's text (the dashboard's counters) shows
  // first, and a click between two charts is not held up (issue 35).
  useEffect(() => {
    const host = el.current;
    if (!host) return;
    let c: ReturnType<typeof echarts.init> | null = null;
    let ro: ResizeObserver | null = null;
    let timer: number | undefined;
    const frame = window.requestAnimationFrame(() => {
      timer = window.setTimeout(() => {
        c = echarts.init(host, undefined, { renderer: 'canvas' });
        chart.current = c;
        c.setOption(latest.current, { notMerge: true });
        const drawn = c;
        ro = new ResizeObserver(() => drawn.resize());
        ro.observe(host);
      }, 0);
    });
    return () => {
      window.cancelAnimationFrame(frame);
      window.clearTimeout(timer);
      ro?.disconnect();
      c?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  // role img: the chart's aria option writes its figures into the box's aria-label (docs/accessibility.md).
  return (
    <div
      ref={el}
      role="img"
      className={className}
      data-testid={testId}
      style={height ? { blockSize: height } : undefined}
    />
  );
}
