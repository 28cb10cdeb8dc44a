/** The benchmark's results as a Markdown table and an SVG bar chart of the ratios. */

export interface CaseResult {
  name: string;
  /** Requests per second of each round; empty when the case could not run. */
  rates: number[];
  /** The Fastify hello rate of the same rounds. */
  baselines: number[];
  /** Operations per request (a batch carries many). */
  opsPerRequest: number;
  goal?: string;
  note?: string;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Each round's rate over the Fastify hello rate of that same round. */
export function ratios(result: CaseResult): number[] {
  return result.rates.map((rate, round) => rate / result.baselines[round]!);
}

const fixed = (value: number, digits: number) => value.toFixed(digits);

export function markdownTable(results: readonly CaseResult[], comparisons: ReadonlyArray<[string, number | undefined, string]>, header: string, unit = 'req/s'): string {
  const lines = [
    header,
    '',
    `| Request | ${unit} (median) | ratio to Fastify hello (median) | min–max of rounds | goal | note |`,
    '|---|---:|---:|---:|---|---|',
  ];
  for (const result of results) {
    if (result.rates.length === 0) {
      lines.push(`| ${result.name} | – | not available | | ${result.goal ?? ''} | ${result.note ?? ''} |`);
      continue;
    }
    const each = ratios(result);
    lines.push(
      `| ${result.name} | ${fixed(median(result.rates), 0)} | ${fixed(median(each), 3)} | ${fixed(Math.min(...each), 3)}–${fixed(Math.max(...each), 3)} | ${result.goal ?? ''} | ${result.note ?? ''} |`,
    );
  }
  lines.push('', '| Comparison | measured | goal |', '|---|---:|---|');
  for (const [name, value, goal] of comparisons) lines.push(`| ${name} | ${value === undefined ? 'not available' : `${fixed(value, 2)}×`} | ${goal} |`);
  return `${lines.join('\n')}\n`;
}

/** A horizontal bar per case, on a logarithmic axis: the ratios span three orders of magnitude. */
export function svgChart(results: readonly CaseResult[]): string {
  const rows = results.filter((result) => result.rates.length > 0).map((result) => ({ name: result.name, ratio: median(ratios(result)) }));
  // Wide enough for the longest name at about 7 px a character.
  const labelWidth = Math.max(430, ...rows.map((row) => row.name.length * 7 + 16));
  const plotWidth = 420;
  const rowHeight = 26;
  const top = 40;
  const height = top + rows.length * rowHeight + 40;
  const min = 1e-4;
  const x = (ratio: number) => labelWidth + (Math.log10(Math.max(ratio, min)) - Math.log10(min)) / (Math.log10(2) - Math.log10(min)) * plotWidth;
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${labelWidth + plotWidth + 80}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<text x="10" y="20" font-size="14">Requests per second as a ratio to a bare Fastify hello route (log scale; 1 = as fast as hello)</text>`,
  ];
  for (const tick of [0.001, 0.01, 0.1, 1]) {
    parts.push(`<line x1="${x(tick)}" y1="${top - 5}" x2="${x(tick)}" y2="${height - 30}" stroke="#ccc"/>`);
    parts.push(`<text x="${x(tick)}" y="${height - 15}" text-anchor="middle">${tick}</text>`);
  }
  rows.forEach((row, index) => {
    const y = top + index * rowHeight;
    parts.push(`<text x="${labelWidth - 8}" y="${y + 16}" text-anchor="end">${escape(row.name)}</text>`);
    parts.push(`<rect x="${labelWidth}" y="${y + 4}" width="${Math.max(1, x(row.ratio) - labelWidth)}" height="${rowHeight - 8}" fill="#4a78c2"/>`);
    parts.push(`<text x="${x(row.ratio) + 4}" y="${y + 16}">${row.ratio.toFixed(3)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
