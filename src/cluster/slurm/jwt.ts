/**
 * Slurm's JWT: HS256 over the cluster's key file, with the claims slurmctld
 * reads (`sun` the user name, `iat`, `exp`). Minting our own is what
 * `scontrol token` does; a token handed to us is only inspected, never trusted
 * blindly: an expired one or one for another user is refused before any request.
 */
import { createHmac } from 'node:crypto';

export interface SlurmTokenClaims {
  sun: string;
  iat: number;
  exp: number;
}

function base64url(data: Buffer | string): string {
  return Buffer.from(data).toString('base64url');
}

/** A token for `user`, valid from `now` (epoch seconds) for `lifespanSeconds`. */
export function mintToken(key: Buffer, user: string, now: number, lifespanSeconds = 3600): string {
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const claims: SlurmTokenClaims = { iat: now, exp: now + lifespanSeconds, sun: user };
  const payload = base64url(JSON.stringify(claims));
  const signature = createHmac('sha256', key).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}

/** The claims of a token, without checking its signature (only the cluster has the key); null if it is not a JWT. */
export function readClaims(token: string): Partial<SlurmTokenClaims> | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as unknown;
    return claims && typeof claims === 'object' ? (claims as Partial<SlurmTokenClaims>) : null;
  } catch {
    return null;
  }
}

/** Why a given token cannot work for `user` at `now`, or null when nothing is visibly wrong. */
export function tokenProblem(token: string, user: string, now: number): string | null {
  const claims = readClaims(token);
  if (!claims) return 'the token is not a JWT (three base64url parts)';
  if (typeof claims.exp === 'number' && claims.exp <= now) {
    return `the token expired at ${new Date(claims.exp * 1000).toISOString()}`;
  }
  if (typeof claims.sun === 'string' && claims.sun !== user) {
    return `the token is for user "${claims.sun}" but requests go out as "${user}" (set the user to match)`;
  }
  return null;
}
