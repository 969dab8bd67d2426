/** Whether a command is on this machine's PATH, found as the shell finds it, without starting one. */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export async function commandExists(name: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      if (statSync(path).isFile()) return true;
    } catch {
      // not here
    }
  }
  return false;
}
