import { describe, expect, it } from 'vitest';
import { bridgeListeners, cleartextWarnings } from '../../src/app/checks/cleartext.ts';
import { isLoopback } from '../../src/kernel/http/loopback.ts';
import { startBridgeProcess, tempDir } from '../support/bridge-process.ts';
import { freePort } from '../support/free-port.ts';

describe('listeners beyond loopback', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['[::1]', true],
    ['0:0:0:0:0:0:0:1', true],
    ['::ffff:127.0.0.1', true],
    ['localhost', true],
    ['LOCALHOST', true],
    ['0.0.0.0', false],
    ['::', false],
    ['[::]', false],
    ['10.0.0.5', false],
    ['128.0.0.1', false],
    ['bridge.internal', false],
    ['localhost.example.com', false],
  ])('%s is loopback: %s', (host, expected) => expect(isLoopback(host)).toBe(expected));

  it('warns once for each listener beyond loopback without TLS, and for nothing else', () => {
    const listeners = bridgeListeners({
      mcp: { host: '0.0.0.0', port: 8765 },
      api: { host: '::', port: 50051, tokens: [], scopes: {}, noChatMode: 'safe' },
      web: { host: '0.0.0.0', port: 8080, url: 'http://bridge.lan:8080' },
    });
    expect(cleartextWarnings(listeners)).toEqual([
      expect.stringMatching(/^BRIDGE_MCP_LISTEN=0\.0\.0\.0:8765: the agents' tools \(MCP\), served beyond loopback without TLS: .* TLS proxy/),
      expect.stringMatching(
        /^BRIDGE_API_ADDR=\[::\]:50051: the SubagentService API, served beyond loopback without TLS: .*BRIDGE_API_TLS_CERT and BRIDGE_API_TLS_KEY/,
      ),
      expect.stringMatching(/^BRIDGE_WEB_ADDR=0\.0\.0\.0:8080: the dashboard, chat page and webhooks, served beyond loopback without TLS: .*HTTPS proxy/),
    ]);
    // Behind an HTTPS proxy, the proxy is the TLS.
    expect(
      cleartextWarnings(
        bridgeListeners({ mcp: { host: '127.0.0.1', port: 0 }, api: undefined, web: { host: '0.0.0.0', port: 8080, url: 'https://bridge.example.com' } }),
      ),
    ).toEqual([]);
    const tls = { cert: Buffer.from('c'), key: Buffer.from('k') };
    expect(
      cleartextWarnings(
        bridgeListeners({
          mcp: { host: '127.0.0.1', port: 0 },
          api: { host: '0.0.0.0', port: 50051, tokens: [], scopes: {}, noChatMode: 'safe', tls },
          web: undefined,
        }),
      ),
    ).toEqual([]);
    expect(cleartextWarnings(bridgeListeners({ mcp: { host: 'localhost', port: 8765 }, api: undefined, web: undefined }))).toEqual([]);
    // Another listener joins with one more entry in the list.
    expect(
      cleartextWarnings([{ what: 'the web page', variable: 'BRIDGE_WEB_ADDR', host: '192.168.1.2', port: 8080, tls: false, advice: 'Give it TLS.' }]),
    ).toEqual([expect.stringMatching(/^BRIDGE_WEB_ADDR=192\.168\.1\.2:8080: the web page, served beyond loopback without TLS: .* Give it TLS\.$/)]);
  });

  it('the bridge says so at start, a warning line each', async () => {
    const data = await tempDir('cleartext-data-');
    const [mcp, api] = [await freePort(), await freePort()];
    const bridge = startBridgeProcess(
      {
        BRIDGE_DATA_DIR: data.path,
        TELEGRAM_BOT_TOKEN: '',
        BRIDGE_LOG_FORMAT: 'json',
        BRIDGE_MCP_LISTEN: `0.0.0.0:${mcp}`,
        BRIDGE_API_ADDR: `127.0.0.1:${api}`,
        BRIDGE_API_TOKENS: 'ci=ci-token-0123456789',
      },
      ['--console'],
      '',
    );
    const exit = await bridge.exited;
    await data.remove();
    expect(exit.code).toBe(0);
    const warnings = bridge.logEntries().filter((entry) => entry.level === 'warn' && /beyond loopback/.test(entry.msg));
    expect(warnings.map((entry) => entry.msg)).toEqual([expect.stringMatching(new RegExp(`^BRIDGE_MCP_LISTEN=0\\.0\\.0\\.0:${mcp}: .* beyond loopback`))]);
  });
});
