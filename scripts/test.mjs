#!/usr/bin/env node
/**
 * The README's test command: typecheck, lint, build the server and the console, run the unit/API suites (SQLite and
 * PostgreSQL), then the browser suite (Chromium). Prints a closing `N passed, N failed` line.
 * On a bare laptop without Chromium the browser suite is skipped LOUDLY; under CI (CI=true) or
 * with UMBO_REQUIRE_BROWSER=1 a missing Chromium fails the run.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const out = path.join(root, 'test-results');
fs.mkdirSync(out, { recursive: true });
let passed = 0;
let failed = 0;
let skipped = 0;
const problems = [];

function run(label, cmd, args, env = {}) {
  process.stdout.write(`\n=== ${label}: ${cmd} ${args.join(' ')}\n`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return res.status ?? 1;
}

/** Adds a vitest JSON report to the totals; a missing report counts as one failure. */
function count(label, file, status) {
  try {
    const r = JSON.parse(fs.readFileSync(file, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    if (status !== 0 && r.numFailedTests === 0) {
      failed += 1;
      problems.push(`${label}: exited ${status} (errors outside tests, see above)`);
    } else if (r.numFailedTests) problems.push(`${label}: ${r.numFailedTests} failed`);
    if (status !== 0) problems.push(...failures(r));
  } catch {
    failed += 1;
    problems.push(`${label}: no report (exit ${status})`);
  }
}

/** The failed files and tests of a report, named again at the end: CI keeps only the tail of a run's output. */
function failures(report) {
  const firstLine = (text) =>
    String(text ?? '')
      .split('\n')[0]
      .slice(0, 200);
  const lines = [];
  for (const f of report.testResults ?? []) {
    const where = path.relative(root, f.name);
    if (f.status === 'failed' && f.message) lines.push(`    ✗ ${where}: ${firstLine(f.message)}`);
    for (const t of f.assertionResults ?? []) {
      if (t.status === 'failed') lines.push(`    ✗ ${where} › ${t.fullName ?? t.title}\n        ${firstLine(t.failureMessages?.[0])}`);
    }
  }
  return lines;
}

const steps = [
  ['typecheck', () => run('typecheck', 'npm', ['run', '-s', 'typecheck'])],
  ['lint', () => run('lint: import structure, no cycles, formatting', 'npm', ['run', '-s', 'lint'])],
  ['build', () => run('build (server bundle, console, compressed assets)', 'npm', ['run', '-s', 'build'])],
];
for (const [label, step] of steps) {
  const status = step();
  if (status === 0) passed += 1;
  else {
    failed += 1;
    problems.push(`${label}: exited ${status}`);
  }
}

const unitReport = path.join(out, 'unit.json');
fs.rmSync(unitReport, { force: true });
count(
  'unit/API suites',
  unitReport,
  run('unit and API suites (SQLite + PostgreSQL)', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${unitReport}`]),
);

const requireBrowser = process.env.CI === 'true' || process.env.UMBO_REQUIRE_BROWSER === '1';
const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (!fs.existsSync(chromium) && !requireBrowser) {
  const bar = '!'.repeat(78);
  process.stdout.write(
    `\n${bar}\n!! BROWSER SUITE SKIPPED: no Chromium at ${chromium}.\n!! Install it (Debian: apt-get install chromium) to run the console tests.\n!! CI never skips it.\n${bar}\n`,
  );
  problems.push('browser suite: SKIPPED (no Chromium)');
  skipped += 1;
} else {
  const browserReport = path.join(out, 'browser.json');
  fs.rmSync(browserReport, { force: true });
  // Screenshots of this run only: stale ones from an earlier run would be reviewed by mistake.
  fs.rmSync(path.join(out, 'browser'), { recursive: true, force: true });
  count(
    'browser suite',
    browserReport,
    run('browser suite (Chromium)', 'npx', [
      'vitest',
      'run',
      '-c',
      'vitest.browser.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${browserReport}`,
    ]),
  );
}

process.stdout.write(`\n${problems.length ? problems.map((p) => `  - ${p}`).join('\n') + '\n' : ''}`);
process.stdout.write(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(failed ? 1 : 0);
