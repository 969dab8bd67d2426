// Asks the agent's tools for a 1 GB file, a deep folder and other things that
// are not files, in a container, in a process of its own, so that its peak
// memory (VmHWM) measures these reads alone. Prints one JSON line.
// Usage: [SKIP=name,name] node bounded-reads-child.mjs RUN_ID STAGING_DIR [DIST_DIR]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [runId, staging, distArg] = process.argv.slice(2);
const dist = distArg ?? join(import.meta.dirname, '..', '..', 'dist', 'src');
const load = (path) => import(pathToFileURL(join(dist, path)).href);
const { openSandbox } = await load('sandbox/engine-table.js');
const { BASE_IMAGE } = await load('sandbox/docker-api/base-image.js');
const { DEFAULT_TOOL_OPTIONS, INJECTOR_SUBMIT, ToolSet } = await load('agent/tools.js');
const { artifactSubmitHandler } = await load('agent/artifact-submit.js');
const tar = await load('sandbox/tar.js');

const peak = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
const rss = () => process.memoryUsage().rss;

const sandbox = await openSandbox({ image: BASE_IMAGE, runId });
try {
  await sandbox.run(
    [
      'head -c 1000000000 /dev/zero > /tmp/big',
      'mkdir -p /tmp/deep && cd /tmp/deep && for i in $(seq 1 200); do mkdir d && cd d; done && cp /tmp/big here.bin && echo x > small.txt',
      'mkdir -p /tmp/artifact && printf "tests/test_x.py\\n" > /tmp/artifact/test_files.txt && ln -sf /tmp/big /repo/big_link.py',
    ].join(' && '),
    { timeoutMs: 300_000 },
  );
  const tools = new ToolSet(sandbox, {
    ...DEFAULT_TOOL_OPTIONS,
    submit: { definition: INJECTOR_SUBMIT, handle: artifactSubmitHandler(sandbox, staging) },
  });
  const submit = (path) =>
    tools.execute('submit', { test_files: path, test_script: path, test_parser: path, bug_inject: path, test_weaken: path });
  const asks = {
    viewBig: () => tools.execute('editor', { command: 'view', path: '/tmp/big' }),
    viewBigRange: () => tools.execute('editor', { command: 'view', path: '/tmp/big', view_range: [1, 5] }),
    viewDeep: () => tools.execute('editor', { command: 'view', path: '/tmp/deep' }),
    viewLink: () => tools.execute('editor', { command: 'view', path: 'big_link.py' }),
    replaceBig: () => tools.execute('editor', { command: 'str_replace', path: '/tmp/big', old_str: 'a', new_str: 'b' }),
    insertDeep: () => tools.execute('editor', { command: 'insert', path: '/tmp/deep', insert_line: 0, new_str: 'x' }),
    submitBig: () => submit('/tmp/big'),
    submitDeep: () => submit('/tmp/deep'),
    submitRoot: () => submit('/'),
    submitDevice: () => submit('/dev/zero'),
    // The byte cap on the stream itself, without the look before: the archive of the whole file, and of /.
    archiveBig: async () => tar.readOneFile(await sandbox.container.getArchive({ path: '/tmp/big' }), 10 * 1024 * 1024, 'big'),
    archiveRoot: async () => tar.readOneFile(await sandbox.container.getArchive({ path: '/' }), 10 * 1024 * 1024, 'big'),
  };
  const before = { peak: peak(), rss: rss() };
  let sampled = rss();
  const sampler = setInterval(() => (sampled = Math.max(sampled, rss())), 5);
  const results = {};
  const timings = {};
  const skip = (process.env.SKIP ?? '').split(',');
  for (const [name, ask] of Object.entries(asks)) {
    if (skip.includes(name)) continue;
    const started = performance.now();
    results[name] = await ask();
    timings[name] = Math.round(performance.now() - started);
  }
  clearInterval(sampler);
  console.log(JSON.stringify({ before, after: { peak: peak(), rss: rss(), sampledRss: sampled }, results, timings }));
} finally {
  await sandbox.remove();
}
