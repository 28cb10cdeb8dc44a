// Runs every compiled test file under dist/test with Node's test runner.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.js') ? [path] : [];
  });
}

// Only tests whose source still exists: a deleted test must not linger in an incremental build.
const files = testFiles('dist/test')
  .filter((file) => existsSync(file.replace(/^dist[\\/]/, '').replace(/\.js$/, '.ts')))
  .sort();
const filter = process.argv[2];
const selected = filter ? files.filter((file) => file.includes(filter)) : files;
const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...selected], { stdio: 'inherit' });
process.exit(result.status ?? 1);
