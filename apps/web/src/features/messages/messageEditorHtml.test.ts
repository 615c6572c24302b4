import { describe, expect, it } from 'vitest';
import { linkHref } from './messageEditorHtml';

describe('linkHref', () => {
  it('keeps http, https and mailto addresses', () => {
    expect(linkHref(' https://example.org/a?b=1 ')).toBe('https://example.org/a?b=1');
    expect(linkHref('http://example.org')).toBe('http://example.org');
    expect(linkHref('mailto:office@example.org')).toBe('mailto:office@example.org');
  });
  it('adds https:// to a bare domain and mailto: to a bare address', () => {
    expect(linkHref('example.org/path')).toBe('https://example.org/path');
    expect(linkHref('מקווה.co.il')).toBe('https://מקווה.co.il');
    expect(linkHref('office@example.org')).toBe('mailto:office@example.org');
  });
  it('refuses what the server would drop or what is no address', () => {
    for (const bad of [
      '',
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      '//evil.example',
      '/local',
      'ftp://x.org',
      'data:text/html,x',
      'hello',
      'two words.org',
    ])
      expect(linkHref(bad), bad).toBeNull();
  });
});
