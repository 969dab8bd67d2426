import { describe, expect, it } from 'vitest';
import { ownedFolders } from '../../../src/sandbox/docker-api/sandbox.js';

describe('the folders a write makes for an image\'s own user', () => {
  it('are those below the root, bugbench\'s folder and the temporary ones, never the trees themselves or system folders', () => {
    expect(
      ownedFolders(['/home/app/lib/src/new/x.ts', '/bugbench/artifact/test.sh', '/tmp/work/helper.py', '/tmp/top.diff', '/usr/local/lib/x.so', '/home/app/lib/README'], '/home/app/lib'),
    ).toEqual(['/bugbench/artifact', '/home/app/lib/src', '/home/app/lib/src/new', '/tmp/work']);
  });
});
