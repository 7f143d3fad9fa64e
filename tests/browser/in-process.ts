/**
 * The real server inside the test process, for the journeys that pass the image captcha
 * (issue 3). The master realm keeps its default 'always' policy (SPEC §5), so every form asks
 * for a captcha, as in production. A person reads the image; this test looks its answer up:
 * the captcha service's issue() is wrapped here to remember each image's answer. This is
 * instrumentation of this process only: the answer never travels over HTTP, and apps/server
 * has no switch that would reveal it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../apps/server/src/app.js';
import type { AppContext } from '../../apps/server/src/composition/context.js';
import { openProduct } from '../../apps/server/src/open.js';
import { systemClock } from '../../apps/server/src/platform/clock.js';
import { loadConfig } from '../../apps/server/src/platform/config.js';
import { freePort, root, type RunningServer } from './harness';

/** A 96×32 PNG (the SPEC's logo rule: png, at most 4 KB) for the master realm's sign-in screens. */
export const TEST_LOGO =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAGAAAAAgCAYAAADtwH1UAAAAbElEQVR42u3awQ0AEQBFQVVsq8r/KnARwTKSdyUxEQdKkqJ92YRTAL6aaF0AAAAAAAAAgL8A9MbAwlPmAQAAAAAAAAAAeBPg9AEAAAAAAFzCAG4HWHVkAQAAAACABxkAAgBAAABoLoD8jn6yBnlco2DDAK23AAAAAElFTkSuQmCC';

export interface InProcessServer extends RunningServer {
  ctx: AppContext;
  /** The answer of a captcha image as the page shows it (the <img> src, an SVG data URL). */
  captchaAnswer(imageSrc: string): string;
}

export async function startInProcessServer(): Promise<InProcessServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'umbo-browser-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const adminPassword = 'Browser-suite-Pa55';
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: adminPassword,
    WEB_DIST: process.env.WEB_DIST || path.join(root, 'apps/web/dist'),
    // The outbox is where this suite reads mail; the start-up notice about it is expected.
    LOG_LEVEL: 'error',
  });
  const { dbh, ctx } = await openProduct(config, systemClock, { captchaPolicy: 'always', logo_img_url: TEST_LOGO });

  // Image (the PNG's base64) → answer. Keyed by what the user sees, so the test needs nothing else.
  const answers = new Map<string, string>();
  const captcha = ctx.services.captcha;
  const issue = captcha.issue;
  captcha.issue = async (...args) => {
    const issued = await issue(...args);
    answers.set(issued.png.toString('base64'), issued.answer);
    return issued;
  };

  const app = await buildApp(ctx, { logger: false });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    baseUrl,
    adminPassword,
    ctx,
    captchaAnswer(imageSrc) {
      const answer = answers.get(imageSrc.replace(/^data:image\/png;base64,/, ''));
      if (!answer) throw new Error('no captcha of this server shows that image');
      return answer;
    },
    async stop() {
      await app.close();
      await dbh.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
