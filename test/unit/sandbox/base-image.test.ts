import { describe, expect, it } from 'vitest';
import { debianMirror, splitTag } from '../../../src/sandbox/docker-api/base-image.js';

describe('debianMirror', () => {
  it('reads the URI of a deb822 source for bookworm and skips the security archive', () => {
    const text = [
      'Types: deb',
      'URIs: http://mirror.example/debian-security',
      'Suites: bookworm-security',
      '',
      'Types: deb',
      'URIs: http://mirror.example/debian',
      'Suites: bookworm bookworm-updates',
      'Components: main',
    ].join('\n');
    expect(debianMirror([{ name: '/etc/apt/sources.list.d/debian.sources', text }])).toBe('http://mirror.example/debian');
  });

  it('reads one-line sources.list entries, with options', () => {
    const text = '# comment\ndeb [arch=amd64] http://mirror.example/debian bookworm main\n';
    expect(debianMirror([{ name: '/etc/apt/sources.list', text }])).toBe('http://mirror.example/debian');
  });

  it('finds nothing for another suite', () => {
    expect(debianMirror([{ name: '/etc/apt/sources.list', text: 'deb http://m/debian bullseye main' }])).toBeUndefined();
  });
});

describe('splitTag', () => {
  it('splits repository and tag, defaulting to latest', () => {
    expect(splitTag('bugbench/base:bookworm')).toEqual(['bugbench/base', 'bookworm']);
    expect(splitTag('localhost:5000/x')).toEqual(['localhost:5000/x', 'latest']);
  });
});
