/**
 * A small RFC 4180 reader and writer for the CSV imports and exports (person accounts, the audit trail; issue 11; no new
 * dependency). Reading is strict where a lenient reader would guess: a quote inside an
 * unquoted cell, or text after a closing quote, stops the file with the line it is on.
 * Writing quotes what needs quoting and defuses spreadsheet formulas (OWASP "CSV injection").
 */

export interface CsvRecord {
  /** the physical line the record starts on (1-based) */
  line: number;
  cells: string[];
}

export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    public readonly line: number,
  ) {
    super(message);
  }
}

const countNewlines = (text: string, from: number, to: number) => {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
};

/**
 * The records of `text` (RFC 4180 §2: CRLF or LF line ends, cells quoted with '"' and '""'
 * for a quote inside). Empty lines are skipped.
 */
export function* parseCsv(text: string): Generator<CsvRecord> {
  const n = text.length;
  let i = 0;
  let line = 1;
  while (i < n) {
    const start = line;
    const cells: string[] = [];
    for (;;) {
      if (text.charCodeAt(i) === 34 /* " */) {
        let value = '';
        i++;
        for (;;) {
          const q = text.indexOf('"', i);
          if (q === -1) throw new CsvSyntaxError('a quoted cell is not closed', start);
          value += text.slice(i, q);
          line += countNewlines(text, i, q);
          if (text.charCodeAt(q + 1) === 34) {
            value += '"';
            i = q + 2;
          } else {
            i = q + 1;
            break;
          }
        }
        cells.push(value);
      } else {
        let j = i;
        while (j < n) {
          const c = text.charCodeAt(j);
          if (c === 44 /* , */ || c === 10 || c === 13) break;
          if (c === 34) throw new CsvSyntaxError('a quote inside an unquoted cell', line);
          j++;
        }
        cells.push(text.slice(i, j));
        i = j;
      }
      if (i >= n) break;
      const c = text.charCodeAt(i);
      if (c === 44) {
        i++;
        // A comma at the very end still opens one last, empty cell.
        if (i >= n) cells.push('');
        if (i >= n) break;
        continue;
      }
      if (c === 13 && text.charCodeAt(i + 1) === 10) i += 2;
      else if (c === 10 || c === 13) i += 1;
      else throw new CsvSyntaxError('text after a closing quote', line);
      line++;
      break;
    }
    if (!(cells.length === 1 && cells[0] === '')) yield { line: start, cells };
  }
}

/**
 * A cell that a spreadsheet would run as a formula (starting with = + - @, or a tab or CR that
 * some programs skip before one) is prefixed with an apostrophe, shown but not evaluated.
 */
export function defuseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function csvCell(value: string): string {
  const safe = defuseFormula(value);
  return /[",\r\n]|^\s|\s$/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One record, CRLF-terminated (RFC 4180 §2.1). */
export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
