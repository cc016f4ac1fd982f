//! Reads a dashboard table into the columns a chart draws: the server renders each figure as
//! a table (the dashboard without JavaScript, and every chart's accessible alternative), and
//! the chart is drawn from that same table, so the two can never show different numbers.

/** One drawn column of a table. */
export interface ChartSeries {
  label: string;
  values: number[];
}

/** A table's days (UTC day numbers) and its drawn columns, one value per day. */
export interface ChartData {
  days: number[];
  series: ChartSeries[];
}

const SECONDS_PER_DAY = 86_400;

/**
 * The days and drawn columns of a table whose rows carry `data-day`, whose cells carry
 * `data-value`, and whose drawn column headers carry `data-series`. A cell that is not a
 * number is an error: a chart of wrong numbers is worse than none.
 */
export function readChartTable(table: HTMLTableElement): ChartData {
  const headers = [...table.querySelectorAll('thead th')];
  // The first header is the date column; value cells are counted from the second.
  const drawn = headers
    .map((header, index) => ({ header, column: index - 1 }))
    .filter(({ header }) => header.hasAttribute('data-series'));
  const rows = [...table.querySelectorAll<HTMLTableRowElement>('tbody tr[data-day]')];
  const days = rows.map((row) => Number(row.dataset.day));
  if (days.some((day) => !Number.isInteger(day))) {
    throw new Error(`${table.id}: a row's day is not a day number`);
  }
  const series = drawn.map(({ header, column }) => ({
    label: header.textContent?.trim() ?? '',
    values: rows.map((row) => {
      const cell = row.querySelectorAll('td')[column];
      const value = Number(cell?.dataset.value);
      if (cell === undefined || !Number.isFinite(value)) {
        throw new Error(`${table.id}: the ${header.textContent} of day ${row.dataset.day} is not a number`);
      }
      return value;
    }),
  }));
  return { days, series };
}

/** The data uPlot takes: x as Unix seconds at the start of each day, then each series. */
export function toAlignedData(data: ChartData): number[][] {
  return [data.days.map((day) => day * SECONDS_PER_DAY), ...data.series.map((series) => series.values)];
}
