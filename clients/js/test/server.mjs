// Starts the real reference server for the client's tests: built with
// `go build ./examples/server`, on a free port, with a temporary SQLite
// database and fake payments.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** startServer builds and starts the reference server; stop() ends it. */
export async function startServer() {
  const dir = mkdtempSync(path.join(tmpdir(), 'staykit-client-test-'));
  const bin = path.join(dir, 'server');
  execFileSync('go', ['build', '-o', bin, './examples/server'], { cwd: repoRoot, stdio: 'inherit' });
  const port = await freePort();
  const env = { ...process.env };
  for (const k of ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET']) delete env[k];
  const proc = spawn(bin, ['-addr', `127.0.0.1:${port}`, '-db', path.join(dir, 'staykit.db')], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  proc.stderr.on('data', (b) => { log += b; });
  const exited = new Promise((resolve) => proc.on('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited (${proc.exitCode}):\n${log}`);
    try {
      const res = await fetch(url + '/healthz');
      if (res.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) { proc.kill(); throw new Error(`server did not start:\n${log}`); }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    log: () => log,
    async stop() {
      proc.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
