import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../infra/config.js';

describe('configuration', () => {
  it('has working defaults for the embedded stack', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.temporal.address).toBe('127.0.0.1:7233');
    expect(c.minio.endpoint.port).toBe('9000');
    expect(c.basePath).toBe('');
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(8080);
  });

  it('names every bad variable in one error', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', BASE_PATH: 'no-slash', MINIO_BUCKET: 'A_B' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const text = (e as ConfigError).message;
      for (const name of ['PORT', 'DATABASE_URL', 'BASE_PATH', 'MINIO_BUCKET']) expect(text).toContain(name);
    }
  });

  it('normalizes BASE_PATH without a trailing slash', () => {
    expect(loadConfig({ BASE_PATH: '/portal/' }).basePath).toBe('/portal');
  });
});
