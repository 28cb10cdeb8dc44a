import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';

const run = (command: string, args: string[], env: NodeJS.ProcessEnv) =>
  spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, ...env } });

describe('CHROMIUM_PATH', () => {
  it('chooses the Chromium of the browser tests', () => {
    const script = "import('./dist/test/helpers/chromium.js').then((m) => process.stdout.write(m.CHROMIUM_PATH))";
    assert.equal(run(process.execPath, ['-e', script], { CHROMIUM_PATH: '/opt/chromium/chrome' }).stdout, '/opt/chromium/chrome');
    assert.equal(run(process.execPath, ['-e', script], { CHROMIUM_PATH: '' }).stdout, '/usr/bin/chromium');
  });

  it('is what scripts/ensure-chromium.sh checks, installing nothing for a path of its own', () => {
    assert.equal(run('bash', ['scripts/ensure-chromium.sh'], { CHROMIUM_PATH: process.execPath }).status, 0);
    const missing = run('bash', ['scripts/ensure-chromium.sh'], { CHROMIUM_PATH: '/nonexistent/chromium' });
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /CHROMIUM_PATH names \/nonexistent\/chromium, which is not an executable file/);
  });
});
