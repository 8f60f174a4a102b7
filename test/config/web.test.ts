import { describe, expect, it } from 'vitest';
import { webConfig } from '../../src/surfaces/web/web-settings.ts';

// BRIDGE_WEB_*: where the dashboard is served and the address people reach it at.
describe('the web server settings', () => {
  it('are off without BRIDGE_WEB_ADDR; the address people use defaults to it', async () => {
    expect(await webConfig({})).toBeUndefined();
    expect(await webConfig({ BRIDGE_WEB_ADDR: '127.0.0.1:8080' })).toEqual({ host: '127.0.0.1', port: 8080, url: 'http://127.0.0.1:8080' });
    expect(await webConfig({ BRIDGE_WEB_ADDR: '[::1]:8080', BRIDGE_WEB_URL: 'https://bridge.example.com/' })).toEqual({
      host: '::1',
      port: 8080,
      url: 'https://bridge.example.com',
    });
  });

  it('name the variable at fault', async () => {
    await expect(webConfig({ BRIDGE_WEB_ADDR: '8080' })).rejects.toThrow(/^BRIDGE_WEB_ADDR: expected host:port, like 127\.0\.0\.1:8080, got "8080"/);
    await expect(webConfig({ BRIDGE_WEB_URL: 'https://bridge.example.com' })).rejects.toThrow(/^BRIDGE_WEB_URL: set BRIDGE_WEB_ADDR too/);
    await expect(webConfig({ BRIDGE_WEB_ADDR: '127.0.0.1:8080', BRIDGE_WEB_URL: 'ftp://x' })).rejects.toThrow(/^BRIDGE_WEB_URL: expected an http\(s\) address/);
    await expect(webConfig({ BRIDGE_WEB_ADDR: '127.0.0.1:8080', BRIDGE_WEB_TLS_CERT: '/tmp/cert.pem' })).rejects.toThrow(
      /^BRIDGE_WEB_TLS_CERT and BRIDGE_WEB_TLS_KEY: set both/,
    );
    await expect(webConfig({ BRIDGE_WEB_ADDR: '127.0.0.1:8080', BRIDGE_WEB_TLS_CERT: '/nowhere/c.pem', BRIDGE_WEB_TLS_KEY: '/nowhere/k.pem' })).rejects.toThrow(
      /^BRIDGE_WEB_TLS_CERT: cannot read \/nowhere\/c\.pem/,
    );
  });
});
