/**
 * Go's build cache, shared by a bug's containers. Each container has its own
 * cache, so each lane compiled the buggy code once: about half a second a
 * check that a single container (and the raw runs bench:checks compares
 * against) pays once. On the volume the lanes already share for the script
 * lock, the cache one lane filled serves the other. It is seeded once, under
 * a lock, from the image's own cache (so nothing the image had compiled is
 * compiled again), unless that is larger than SEED_LIMIT_KB: copying it would
 * then cost more than it saves, and each container keeps its own.
 *
 * Go keys its cache by content, toolchain and directory, all the same in
 * containers of one image, and go's cache is safe for concurrent use (scripts
 * that use the whole machine take turns on it besides, check-lanes.ts). Test results are not
 * replayed from it (FRESH_GO_TESTS adds -count=1).
 *
 * The volume is kept in memory (SHARED_VOLUME_BYTES): removing a volume on
 * disk walks every file the cache holds, 50 to 75 ms at the end of each Go
 * check on a small library, where an unmount takes a few. Its pages count
 * against the memory limit of the container that wrote them and cannot be
 * swapped out: that container has up to this much less for its tests while
 * the check runs. A full volume costs only time: go leaves out what it cannot
 * cache and compiles it again in the next run.
 */
import { posix } from 'node:path';

/** An image's cache larger than this is not copied (256 MB). */
export const SEED_LIMIT_KB = 256 * 1024;

/** The most a bug's shared volume holds in memory: a seeded cache and as much again of the bug's own compiling. */
export const SHARED_VOLUME_BYTES = 2 * SEED_LIMIT_KB * 1024;

/** Bash that points GOCACHE at `sharedDir`/go-build once it is seeded; nothing where there is no go or no shared folder. */
export function sharedGoCache(sharedDir: string, limitKb = SEED_LIMIT_KB): string {
  const cache = posix.join(sharedDir, 'go-build');
  return [
    `if command -v go >/dev/null 2>&1 && [ -d ${sharedDir} ]; then`,
    `  if [ ! -e ${cache}.seeded ]; then`,
    '    {',
    '      flock 8',
    `      if [ ! -e ${cache}.seeded ]; then`,
    '        own=$(go env GOCACHE 2>/dev/null) || own=',
    '        kb=0; [ -n "$own" ] && [ -d "$own" ] && kb=$(du -sk "$own" 2>/dev/null | cut -f1)',
    `        if [ -n "$own" ] && [ "$own" != off ] && [ "\${kb:-0}" -le ${limitKb} ] && mkdir -p ${cache} && { [ ! -d "$own" ] || cp -a "$own"/. ${cache}/; }; then`,
    `          echo shared > ${cache}.seeded`,
    `        else echo own > ${cache}.seeded; fi`,
    '      fi',
    `    } 8> ${cache}.lock`,
    '  fi',
    `  [ "$(cat ${cache}.seeded 2>/dev/null)" = shared ] && export GOCACHE=${cache}`,
    'fi',
  ].join('\n');
}
