import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mintToken, readClaims, tokenProblem } from '../../../src/cluster/slurm/jwt.js';

const key = Buffer.from('0123456789abcdef0123456789abcdef');
const now = 1_800_000_000;

describe('Slurm JWT', () => {
  it('mints an HS256 token with the claims slurmctld reads', () => {
    const token = mintToken(key, 'bugbench', now, 600);
    const [header, payload, signature] = token.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toEqual({ iat: now, exp: now + 600, sun: 'bugbench' });
    expect(signature).toBe(createHmac('sha256', key).update(`${header}.${payload}`).digest('base64url'));
    expect(token).not.toMatch(/[=+/]/);
  });

  it('signs differently with another key', () => {
    expect(mintToken(key, 'u', now)).not.toBe(mintToken(Buffer.from('another key'), 'u', now));
  });

  it('reads the claims of a token and says what is visibly wrong with it', () => {
    const token = mintToken(key, 'alice', now, 60);
    expect(readClaims(token)).toMatchObject({ sun: 'alice', exp: now + 60 });
    expect(readClaims('not a token')).toBeNull();
    expect(tokenProblem(token, 'alice', now + 10)).toBeNull();
    expect(tokenProblem(token, 'alice', now + 60)).toMatch(/^the token expired at 2027-/);
    expect(tokenProblem(token, 'bob', now)).toContain('for user "alice" but requests go out as "bob"');
    expect(tokenProblem('abc', 'alice', now)).toContain('not a JWT');
  });
});
