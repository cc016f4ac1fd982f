//! The owner dashboard's charts: draws each table marked `data-chart` with uPlot, above the
//! table, which stays as the chart's accessible alternative. This is a Vite entry of its own,
//! linked only by `/config/` and `/config/dashboard`, so the site's pages never load uPlot.
//! On `/config/` of an admin it also starts the "Activity in your open tabs" panel where the
//! server rendered it. That panel's code is imported statically: a dynamic import would need
//! Vite's preload helper, which this entry and the site's common script would then share as a
//! chunk of its own, one more script on every page of the site.

import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './dashboard.css';

import { startTabActivity } from '../tab-activity';
import { type ChartData, readChartTable, toAlignedData } from './chart-data';

/** Line colours with at least 3:1 contrast on white, told apart by dash pattern too. */
const COLOURS = ['#1f5fbf', '#b3541e'];
const DASHES = [[], [6, 4]];

function options(data: ChartData, width: number, caption: string): uPlot.Options {
  return {
    title: caption,
    width,
    height: 240,
    // The table below is the legend and the exact figures.
    legend: { show: false },
    scales: { x: { time: true } },
    series: [
      {},
      ...data.series.map((series, index) => ({
        label: series.label,
        scale: `y${index}`,
        stroke: COLOURS[index % COLOURS.length]!,
        dash: DASHES[index % DASHES.length]!,
        width: 2,
      })),
    ],
    axes: [
      {},
      ...data.series.map((series, index) => ({
        scale: `y${index}`,
        label: series.label,
        side: index === 0 ? 3 : 1,
        stroke: COLOURS[index % COLOURS.length]!,
        grid: { show: index === 0 },
      })),
    ],
  };
}

function draw(figure: HTMLElement): void {
  const table = document.getElementById(figure.dataset.chartFor ?? '');
  if (!(table instanceof HTMLTableElement)) return;
  const data = readChartTable(table);
  const caption = table.caption?.textContent ?? '';
  figure.hidden = false;
  figure.setAttribute('role', 'img');
  figure.setAttribute('aria-label', `Chart: ${caption}. The table below lists the same figures.`);
  const width = Math.max(320, Math.min(figure.clientWidth || 720, 1100));
  new uPlot(options(data, width, caption), toAlignedData(data) as uPlot.AlignedData, figure);
}

for (const figure of document.querySelectorAll<HTMLElement>('figure[data-chart-for]')) {
  try {
    draw(figure);
  } catch (error) {
    // A table that cannot be drawn stays a table; the owner still has every figure.
    figure.hidden = true;
    console.error(error);
  }
}

const tabActivity = document.querySelector<HTMLElement>('[data-tab-activity]');
if (tabActivity !== null) startTabActivity(window, tabActivity);
