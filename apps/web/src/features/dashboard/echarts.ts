/**
 * ECharts with only what the dashboard draws (pie and bar on canvas), so the
 * library stays in the dashboard chunk and out of the first load.
 */
import * as echarts from 'echarts/core';
import { BarChart, PieChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([AriaComponent, BarChart, PieChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export { echarts };
