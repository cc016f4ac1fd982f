import { describe, expect, it } from 'vitest';

import { readChartTable, toAlignedData } from './chart-data';

function table(html: string): HTMLTableElement {
  document.body.innerHTML = html;
  return document.querySelector('table')!;
}

const traffic = `<table id="t"><thead><tr><th>Date</th><th data-series>Page views</th><th data-series>Visitors</th><th>Counted without cookies</th></tr></thead>
<tbody><tr data-day="20000"><th>2024-10-04</th><td data-value="12">12</td><td data-value="5">~5</td><td data-value="2">2</td></tr>
<tr data-day="20001"><th>2024-10-05</th><td data-value="0">0</td><td data-value="0">0</td><td data-value="0">0</td></tr></tbody></table>`;

describe('chart data', () => {
  it('reads the drawn columns of every day from their raw values, not the shown text', () => {
    const data = readChartTable(table(traffic));
    expect(data).toEqual({
      days: [20000, 20001],
      series: [
        { label: 'Page views', values: [12, 0] },
        { label: 'Visitors', values: [5, 0] },
      ],
    });
    expect(toAlignedData(data)).toEqual([
      [1_728_000_000, 1_728_086_400],
      [12, 0],
      [5, 0],
    ]);
  });

  it('refuses a cell that is not a number', () => {
    expect(() => readChartTable(table(traffic.replace('data-value="12"', 'data-value="many"')))).toThrow(
      /Page views of day 20000 is not a number/,
    );
  });
});
