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

  useEffect(() => {
    if (!el.current) return;
    const c = echarts.init(el.current, undefined, { renderer: 'canvas' });
    chart.current = c;
    const ro = new ResizeObserver(() => c.resize());
    ro.observe(el.current);
    return () => {
      ro.disconnect();
      c.dispose();
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
