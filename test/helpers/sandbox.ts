import { BASE_IMAGE } from '../../src/sandbox/docker-api/base-image.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { openSandbox } from '../../src/sandbox/engine-table.js';

/** A sandbox on the base image with a tiny committed git repository at /repo. */
export async function sandboxWithRepo(runId: string): Promise<Sandbox> {
  const sandbox = await openSandbox({ image: BASE_IMAGE, runId });
  await sandbox.writeFiles([
    { path: 'calc.py', content: 'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n' },
    { path: 'README.md', content: 'calc\n' },
  ]);
  await sandbox.run(
    'git init -q -b main && git -c user.name=t -c user.email=t@example.com add -A && git -c user.name=t -c user.email=t@example.com commit -qm init',
  );
  return sandbox;
}
