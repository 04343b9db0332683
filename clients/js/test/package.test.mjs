// The published package: `npm pack` builds the client (prepack) and the
// tarball holds ESM with its types, so an application installs it from
// the registry or a file and imports it by name, in JavaScript and in
// TypeScript, with nothing else of this repository.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, '..');
const tsc = path.join(pkgDir, 'node_modules', 'typescript', 'bin', 'tsc');

test('npm pack gives an ESM package with types that installs by name', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'staykit-client-pack-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));

  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: pkgDir, encoding: 'utf8' });
  const [info] = JSON.parse(out.slice(out.indexOf('[')));
  const files = info.files.map((f) => f.path);
  for (const want of ['package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/client.js', 'dist/client.d.ts']) {
    assert.ok(files.includes(want), `the package lacks ${want}: ${files.join(', ')}`);
  }
  assert.ok(!files.some((f) => f.startsWith('src/') || f.startsWith('test/')), `the package ships sources or tests: ${files.join(', ')}`);

  // An application that installed the tarball.
  const app = path.join(dir, 'app');
  const installed = path.join(app, 'node_modules', '@staykit', 'client');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', path.join(dir, info.filename), '-C', installed, '--strip-components=1']);
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));

  writeFileSync(path.join(app, 'main.mjs'), `import { StaykitClient, StaykitError, parseExact } from '@staykit/client';
const c = new StaykitClient({ baseUrl: 'http://127.0.0.1:1', org: 'demo' });
console.log([typeof c.config, typeof StaykitError, parseExact('{"a":1.10}', new Set(['a'])).a].join(' '));
`);
  const ran = execFileSync(process.execPath, ['main.mjs'], { cwd: app, encoding: 'utf8' }).trim();
  assert.equal(ran, 'function function 1.10');

  // TypeScript finds the types through the package's exports, and they
  // type-check a use and refuse a misuse.
  writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, lib: ['ES2022', 'DOM'] },
    files: ['main.ts']
  }));
  writeFileSync(path.join(app, 'main.ts'), `import { StaykitClient, type components } from '@staykit/client';
const c = new StaykitClient({ baseUrl: 'http://127.0.0.1:1', org: 'demo' });
const p: Promise<unknown> = c.config();
type Quote = components['schemas'];
export { p, type Quote };
`);
  execFileSync(process.execPath, [tsc, '-p', app], { cwd: app, encoding: 'utf8' });
  writeFileSync(path.join(app, 'main.ts'), `import { StaykitClient } from '@staykit/client';
new StaykitClient({ org: 42 });
`);
  assert.throws(() => execFileSync(process.execPath, [tsc, '-p', app], { cwd: app, encoding: 'utf8', stdio: 'pipe' }),
    (err) => /error TS2322/.test(String(err.stdout)), 'a misuse type-checks: the types are not applied');
});
