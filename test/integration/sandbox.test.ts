import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PatchRejectedError } from '../../src/errors.js';
import type { Sandbox } from '../../src/sandbox/sandbox.js';
import { sandboxWithRepo } from '../helpers/sandbox.js';
import type { DockerSandbox } from '../../src/sandbox/docker-api/sandbox.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await sandboxWithRepo('test-sandbox');
});
afterAll(async () => {
  await sandbox?.remove();
});

const processList = async () =>
  (await sandbox.exec('for p in /proc/[0-9]*; do tr "\\0" " " < $p/cmdline 2>/dev/null; echo; done')).stdout;

describe('exec', () => {
  it('returns exit code, stdout and stderr separately, in /repo, with no network', async () => {
    const result = await sandbox.exec('pwd; echo oops >&2; cat /sys/class/net/*/operstate | wc -l; exit 3');
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toBe('/repo\n1\n'); // only the loopback interface
    expect(result.stderr).toBe('oops\n');
    expect(result.timedOut).toBe(false);
  });

  it('resolves localhost, and a server on the loopback answers', async () => {
    const served = await sandbox.exec(
      'getent ahosts localhost | head -n 1; ' +
        'python3 -c "import socket; s = socket.create_server((\'localhost\', 0)); c = socket.create_connection((\'127.0.0.1\', s.getsockname()[1]), 2); print(\'answered\')"',
    );
    expect(served.stderr).toBe('');
    // IPv4 first, as network mode none has it (IPv6 off): a server on localhost and a client of 127.0.0.1 meet.
    expect(served.stdout).toMatch(/^127\.0\.0\.1\s+STREAM localhost\nanswered\n$/);
  });

  it('streams output as it arrives', async () => {
    const seen: string[] = [];
    const result = await sandbox.exec('echo one; sleep 0.3; echo two >&2', { onOutput: (s, t) => seen.push(`${s}:${t}`) });
    expect(seen).toEqual(['stdout:one\n', 'stderr:two\n']);
    expect(result.stdout).toBe('one\n');
  });

  it('kills a command past its time limit, with everything it started', async () => {
    const started = Date.now();
    const result = await sandbox.exec('sleep 300 & (setsid sleep 301 &); sleep 302', { timeoutMs: 1000 });
    expect(result.timedOut).toBe(true);
    // Far from the sleeps' 300 s; wide enough for a busy rootless Podman's execs.
    expect(Date.now() - started).toBeLessThan(20_000);
    const left = await processList();
    expect(left).not.toMatch(/sleep 30[012]/);
  });

  it('does not wait for background children once the command is done', async () => {
    const result = await sandbox.exec('sleep 200 & echo started', { timeoutMs: 30_000 });
    expect(result.timedOut).toBe(false);
    expect(result.stdout).toBe('started\n');
    expect(result.durationMs).toBeLessThan(20_000);
    expect(await processList()).not.toMatch(/sleep 200/);
  });

  it('caps output and marks the truncation', async () => {
    const result = await sandbox.exec('head -c 3000000 /dev/zero | tr "\\0" x; echo; echo END', { maxOutputBytes: 4096 });
    expect(result.truncated).toBe(true);
    expect(result.stdout.length).toBeLessThan(4096 + 200);
    expect(result.stdout).toMatch(/bytes of output truncated/);
    expect(result.stdout.endsWith('END\n')).toBe(true);
  });
});

describe('files', () => {
  it('round-trips binary content under unicode names', async () => {
    const bytes = Buffer.from([0, 1, 2, 0xfe, 0xff, 0x80, 10, 13]);
    await sandbox.writeFiles([
      { path: '/tmp/données/ünïcødé 名前.bin', content: bytes },
      { path: 'nested/dir/note.txt', content: 'héllo\n' },
    ]);
    expect(await sandbox.readFile('/tmp/données/ünïcødé 名前.bin')).toEqual(bytes);
    expect(await sandbox.readText('nested/dir/note.txt')).toBe('héllo\n');
    const listed = await sandbox.exec('ls /tmp/données');
    expect(listed.stdout).toBe('ünïcødé 名前.bin\n');
    await sandbox.reset();
  });

  it('says which file is missing', async () => {
    await expect(sandbox.readFile('/no/such/file')).rejects.toThrow(/no file \/no\/such\/file/);
  });

  it('reads a file with its mode in one exec, and says what is missing or refused', async () => {
    const archiveCalls = countArchiveCalls(sandbox);
    await sandbox.writeFiles([
      { path: '/tmp/read/run.sh', content: '#!/bin/sh\necho hi\n', mode: 0o755 },
      { path: "/tmp/read/quote's.txt", content: 'x' },
      { path: '/tmp/read/empty', content: '' },
    ]);
    await sandbox.run('ln -s /tmp/read/run.sh /repo/run_link.sh && head -c 2048 /dev/urandom > /tmp/read/random.bin');
    expect(await sandbox.readFileEntry('/tmp/read/run.sh')).toEqual({ content: Buffer.from('#!/bin/sh\necho hi\n'), mode: 0o755 });
    expect(await sandbox.readText("/tmp/read/quote's.txt")).toBe('x');
    expect(await sandbox.readFile('/tmp/read/empty')).toEqual(Buffer.alloc(0));
    const random = (await sandbox.exec('od -An -tx1 -v /tmp/read/random.bin | tr -d " \\n"')).stdout;
    expect((await sandbox.readFile('/tmp/read/random.bin')).toString('hex')).toBe(random);
    await expect(sandbox.readFile('/tmp/read/random.bin', { maxBytes: 100 })).rejects.toThrow(/over the 100 bytes limit/);
    await expect(sandbox.readFile('run_link.sh')).rejects.toThrow(/is a link to \/tmp\/read\/run.sh, outside \/repo/);
    expect(archiveCalls()).toEqual({ put: 1, get: 0 });
    await sandbox.reset();
  });

  it('reads several files in one exec, each as it is read alone, odd names and refusals included', async () => {
    await sandbox.writeFiles([
      { path: '/tmp/many/a.txt', content: 'alpha\n' },
      { path: '/tmp/many/line\nbreak.txt', content: 'beta' },
      { path: '/tmp/many/empty', content: '' },
    ]);
    await sandbox.run("mkdir -p /tmp/many/dir && ln -s '/tmp/many/line\nbreak.txt' /tmp/many/link && ln -s /tmp/many/a.txt /repo/out_link.txt");
    const paths = ['/tmp/many/a.txt', '/tmp/many/line\nbreak.txt', '/tmp/many/link', '/tmp/many/empty', '/tmp/many/missing', '/tmp/many/dir', '/dev/null', 'out_link.txt'];
    const exec = sandbox.exec.bind(sandbox);
    let execs = 0;
    sandbox.exec = (...args) => (execs++, exec(...args));
    const together = await sandbox.readFiles(paths, { maxBytes: 100 }).finally(() => (sandbox.exec = exec));
    expect(execs).toBe(1);
    const alone = await Promise.all(paths.map((p) => sandbox.readFile(p, { maxBytes: 100 }).catch((e: Error) => e)));
    expect(together.map(String)).toEqual(alone.map(String));
    expect(together.slice(0, 4).map(String)).toEqual(['alpha\n', 'beta', 'beta', '']);
    expect(String(together[4])).toMatch(/no file \/tmp\/many\/missing/);
    expect(String(together[5])).toMatch(/is a directory, not a regular file/);
    expect(String(together[7])).toMatch(/is a link to \/tmp\/many\/a.txt, outside \/repo/);
    await sandbox.reset();
  });

  it('reads through the engine where the container cannot: a failed read, an image without base64', async () => {
    const bare = await sandboxWithRepo('test-sandbox-no-tools');
    try {
      await bare.writeFiles([{ path: 'tools/run.sh', content: 'echo ok\n', mode: 0o700 }]);
      const archiveCalls = countArchiveCalls(bare);
      // A head that sends part of the file and fails, as a read the container's user may not make would.
      await bare.run(`printf '#!/bin/sh\\nprintf partial\\nexit 1\\n' > /usr/local/bin/head && chmod +x /usr/local/bin/head`);
      expect(await bare.readFileEntry('tools/run.sh')).toEqual({ content: Buffer.from('echo ok\n'), mode: 0o700 });
      expect(archiveCalls()).toEqual({ put: 0, get: 1 });
      await bare.run('rm /usr/local/bin/head "$(command -v base64)"');
      expect(await bare.readFileEntry('tools/run.sh')).toEqual({ content: Buffer.from('echo ok\n'), mode: 0o700 });
      await expect(bare.readFile('/dev/zero')).rejects.toThrow(/where the kernel makes files up/);
      expect(archiveCalls()).toEqual({ put: 0, get: 2 });
    } finally {
      await bare.remove();
    }
  });
});

/** Counts the sandbox's calls to the engine's archive endpoints from now on. */
function countArchiveCalls(target: Sandbox): () => { put: number; get: number } {
  const counts = { put: 0, get: 0 };
  const container = (target as DockerSandbox).container as unknown as { putArchive: (...a: unknown[]) => unknown; getArchive: (...a: unknown[]) => unknown };
  const put = container.putArchive.bind(container);
  const get = container.getArchive.bind(container);
  container.putArchive = (...args) => (counts.put++, put(...args));
  container.getArchive = (...args) => (counts.get++, get(...args));
  return () => ({ ...counts });
}

describe('git', () => {
  const bug = [
    'diff --git a/calc.py b/calc.py',
    '--- a/calc.py',
    '+++ b/calc.py',
    '@@ -1,4 +1,4 @@',
    ' def add(a, b):',
    '-    return a + b',
    '+    return a - b',
    ' ',
    ' ',
    '',
  ].join('\n');

  it('applies a diff, takes it back with git diff, and resets including untracked files', async () => {
    await sandbox.applyDiff(bug);
    await sandbox.writeFile('scratch.txt', 'new\n');
    expect(await sandbox.diff(['calc.py'])).toContain('+    return a - b');
    const all = await sandbox.diff();
    expect(all).toContain('scratch.txt');
    await sandbox.reset();
    expect(await sandbox.readText('calc.py')).toContain('return a + b');
    expect((await sandbox.exec('test -e scratch.txt')).exitCode).toBe(1);
    expect(await sandbox.diff()).toBe('');
  });

  it('applies a diff in reverse', async () => {
    await sandbox.applyDiff(bug);
    await sandbox.applyDiff(bug, { reverse: true });
    expect(await sandbox.diff()).toBe('');
  });

  it('names the file of a rejected hunk', async () => {
    const stale = bug.replace('-    return a + b', '-    return a * b').replace('+    return a - b', '+    return a / b');
    const error = await sandbox.applyDiff(stale).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PatchRejectedError);
    expect((error as PatchRejectedError).files).toEqual(['calc.py']);
    expect(await sandbox.diff()).toBe('');
  });
});

describe('the processor time a run reads', () => {
  it('counts what a script left running in the background, from the container\'s own cgroup', async () => {
    const { PROCESSOR_TIME } = await import('../../src/bugs/test-run.js');
    const busy = '( e=$(( ${EPOCHREALTIME/./} + 600000 )); while [ ${EPOCHREALTIME/./} -lt $e ]; do :; done ) &';
    const result = await sandbox.exec([...PROCESSOR_TIME, 'cpu_now; a=$cpu_us', busy, 'sleep 1', 'cpu_now', 'echo "$cg $(( (cpu_us - a) / 1000 ))"'].join('\n'));
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const [cgroup, ms] = result.stdout.trim().split(' ');
    // This shell's own children alone would show none of it: it was never waited for.
    expect(cgroup).toMatch(/^\/sys\/fs\/cgroup/);
    expect(Number(ms)).toBeGreaterThanOrEqual(450);
  });
});
