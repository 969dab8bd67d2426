/** Subordinate uid/gid ranges (/etc/subuid, /etc/subgid), which rootless Podman needs for its user namespace. */

/** True when the file's text gives `user` (by name or uid) a non-empty range. */
export function hasSubordinateRange(text: string, user: string, uid: number): boolean {
  return text.split('\n').some((line) => {
    const [who, , count] = line.trim().split(':');
    return (who === user || who === String(uid)) && Number(count) > 0;
  });
}
