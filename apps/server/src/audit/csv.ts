/**
 * CSV lines for the audit export (RFC 4180). A cell a spreadsheet would run as a formula —
 * starting with = + - @, a tab or a carriage return — gets a leading apostrophe (OWASP "CSV
 * injection"), so that a user name like `=HYPERLINK(…)` stays text when an administrator
 * opens the file. Cells with a comma, a quote or a line break are quoted.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, CRLF-terminated as RFC 4180 says. */
export function csvLine(cells: readonly string[]): string {
  return cells.map(csvCell).join(',') + '\r\n';
}
