/** The RFC 4180 reader and writer of person import/export (issue 11). */
import { describe, expect, it } from 'vitest';
import { csvLine, CsvSyntaxError, defuseFormula, parseCsv } from './csv.js';

const read = (text: string) => [...parseCsv(text)];

describe('parseCsv (RFC 4180)', () => {
  it('reads CRLF and LF lines, quoted cells with commas, quotes and line breaks, and empty cells', () => {
    const text = 'a,b,c\r\n"x,1","say ""hi""",\n"two\r\nlines",,z\n\nlast,"",q';
    expect(read(text)).toEqual([
      { line: 1, cells: ['a', 'b', 'c'] },
      { line: 2, cells: ['x,1', 'say "hi"', ''] },
      { line: 3, cells: ['two\r\nlines', '', 'z'] },
      { line: 6, cells: ['last', '', 'q'] },
    ]);
  });

  it('keeps a trailing empty cell and reads a file without a final line break', () => {
    expect(read('a,b,\nc,d,')).toEqual([
      { line: 1, cells: ['a', 'b', ''] },
      { line: 2, cells: ['c', 'd', ''] },
    ]);
  });

  it('refuses an unclosed quote, a quote inside an unquoted cell and text after a closing quote, naming the line', () => {
    for (const [text, line] of [
      ['a,b\n"open,c\nd', 2],
      ['a,b\nc,d"e', 2],
      ['a\n"x"y,z', 2],
    ] as const) {
      let caught: unknown;
      try {
        read(text);
      } catch (err) {
        caught = err;
      }
      expect(caught, text).toBeInstanceOf(CsvSyntaxError);
      expect((caught as CsvSyntaxError).line, text).toBe(line);
    }
  });
});

describe('csvLine', () => {
  it('quotes what needs quoting and round-trips through parseCsv', () => {
    const cells = ['plain', 'with,comma', 'with "quote"', 'two\nlines', ' padded ', ''];
    const line = csvLine(cells);
    expect(line.endsWith('\r\n')).toBe(true);
    expect(read(line)[0]!.cells).toEqual(cells);
  });

  it('defuses cells a spreadsheet would run as a formula (= + - @ tab CR) with an apostrophe', () => {
    for (const v of ['=1+1', '+86138', '-2', '@SUM(A1)', '\t=x', '\r=x']) expect(defuseFormula(v)).toBe(`'${v}`);
    for (const v of ['a=b', 'x+y', '1-2', 'a@b.test', '']) expect(defuseFormula(v)).toBe(v);
    expect(csvLine(['=HYPERLINK("http://evil.test")'])).toBe(`"'=HYPERLINK(""http://evil.test"")"\r\n`);
  });
});
