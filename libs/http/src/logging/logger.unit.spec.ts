import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppLogger, createLogger, redactUrl } from './logger.js';
import { clientRequestId, requestId, requestLogLevel } from './request-logging.js';

function capture(level: 'info' | 'warn' | 'silent') {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger(
    { logLevel: level },
    { stream: { write: (l: string) => void lines.push(JSON.parse(l) as Record<string, unknown>) } },
  );
  return { logger, lines };
}

describe('AppLogger (Nest LoggerService over pino)', () => {
  it('writes Nest messages as JSON with their context', () => {
    const { logger, lines } = capture('info');
    new AppLogger(logger).log('listening on http://127.0.0.1:1', 'Main');
    assert.equal(lines.length, 1);
    assert.equal(lines[0]!.level, 30);
    assert.equal(lines[0]!.context, 'Main');
    assert.equal(lines[0]!.msg, 'listening on http://127.0.0.1:1');
  });

  it("turns Nest's error(message, stack, context) into an err with that stack", () => {
    const { logger, lines } = capture('info');
    new AppLogger(logger).error('it broke', 'Error: it broke\n    at somewhere (file.js:1:1)', 'ExceptionsHandler');
    const err = lines[0]!.err as { message: string; stack: string };
    assert.equal(lines[0]!.level, 50);
    assert.equal(lines[0]!.context, 'ExceptionsHandler');
    assert.equal(err.message, 'it broke');
    assert.match(err.stack, /at somewhere/);
  });

  it('merges an object message and keeps an Error as err', () => {
    const { logger, lines } = capture('info');
    const app = new AppLogger(logger);
    app.warn({ attempt: 3 }, 'Retry');
    app.error(new Error('bad'), 'Worker');
    assert.equal(lines[0]!.attempt, 3);
    assert.equal(lines[0]!.context, 'Retry');
    assert.equal((lines[1]!.err as { message: string }).message, 'bad');
  });

  it('writes nothing under its level', () => {
    const warn = capture('warn');
    new AppLogger(warn.logger).log('chatty');
    assert.equal(warn.lines.length, 0);
    const silent = capture('silent');
    new AppLogger(silent.logger).fatal('even this');
    assert.equal(silent.lines.length, 0);
  });

  it('redacts credentials in request lines', () => {
    const { logger, lines } = capture('info');
    logger.info(
      {
        req: {
          method: 'GET',
          url: '/',
          headers: { authorization: 'Bearer x', 'x-api-key': 'k', cookie: 'c', accept: '*/*' },
        },
      },
      'request completed',
    );
    assert.deepEqual((lines[0]!.req as { headers: unknown }).headers, {
      authorization: '[redacted]',
      'x-api-key': '[redacted]',
      cookie: '[redacted]',
      accept: '*/*',
    });
  });
});

describe('redactUrl (credentials in query strings and redirects)', () => {
  it('replaces the value of every credential-bearing parameter, in the query and the fragment', () => {
    const names = ['client_secret', 'api_key', 'code', 'token', 'refresh_token', 'access_token', 'password', 'key'];
    for (const name of names) {
      assert.equal(redactUrl(`/x?${name}=s3cr3t&b=1`), `/x?${name}=[redacted]&b=1`, name);
      assert.equal(redactUrl(`/x?a=1&${name}=s3cr3t`), `/x?a=1&${name}=[redacted]`, name);
      assert.equal(
        redactUrl(`https://client.example/cb#${name}=s3cr3t`),
        `https://client.example/cb#${name}=[redacted]`,
      );
    }
    assert.equal(
      redactUrl('http://127.0.0.1:9/callback?code=AbC-123_xyz&state=st&iss=http%3A%2F%2Fsvc'),
      'http://127.0.0.1:9/callback?code=[redacted]&state=st&iss=http%3A%2F%2Fsvc',
    );
    assert.equal(
      redactUrl('/x?CLIENT_SECRET=a&Code=b&code_verifier=c'),
      '/x?CLIENT_SECRET=[redacted]&Code=[redacted]&code_verifier=[redacted]',
    );
    assert.equal(
      redactUrl('/x?client%5Fsecret=a&%63ode=b'),
      '/x?client%5Fsecret=[redacted]&%63ode=[redacted]',
      'encoded names',
    );
    assert.equal(redactUrl('/x?token=a&token=b'), '/x?token=[redacted]&token=[redacted]', 'every repeat');
    assert.equal(redactUrl('/login?next=/cb?code=abc'), '/login?next=/cb?code=[redacted]', 'nested, unencoded');
  });

  it('keeps everything else as sent', () => {
    for (const url of [
      '/health',
      '/x?limit=20&cursor=abc',
      '/x?country_code=FR&state=xyz',
      '/x?code',
      '/x?a=%zz',
      '/a/b#frag',
    ]) {
      assert.equal(redactUrl(url), url);
    }
  });

  it('applies to the logged request URL and to Location and Referer headers', () => {
    const { logger, lines } = capture('info');
    logger.info(
      {
        req: { method: 'GET', url: '/oauth/token?client_secret=cs1&grant_type=x', headers: { referer: '/p?token=t1' } },
        res: { statusCode: 303, getHeaders: () => ({ location: '/cb?code=c1&state=s', 'content-type': 'text/html' }) },
      },
      'request completed',
    );
    const line = lines[0] as {
      req: { url: string; headers: Record<string, string> };
      res: { headers: Record<string, string> };
    };
    assert.equal(line.req.url, '/oauth/token?client_secret=[redacted]&grant_type=x');
    assert.equal(line.req.headers.referer, '/p?token=[redacted]');
    assert.deepEqual(line.res.headers, { location: '/cb?code=[redacted]&state=s', 'content-type': 'text/html' });
    assert.ok(!JSON.stringify(lines).match(/cs1|t1|c1/));
  });
});

describe('request ids and levels', () => {
  const headers = (id?: string) => (id === undefined ? {} : { 'x-request-id': id });

  it("makes the server's own id whatever the client sent; keeps a sane client id apart", () => {
    const ids = new Set(Array.from({ length: 3 }, () => requestId()));
    assert.equal(ids.size, 3);
    for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.equal(clientRequestId(headers('trace-123')), 'trace-123');
    assert.equal(clientRequestId(headers('x'.repeat(128))), 'x'.repeat(128));
    for (const bad of [undefined, '', 'bad id', 'x'.repeat(129), 'a\nb', '<script>', 'ü']) {
      assert.equal(clientRequestId(headers(bad)), undefined, String(bad));
    }
  });

  it('logs by status: 5xx or a failed response at error, 4xx at warn, else info', () => {
    assert.equal(requestLogLevel(200, false), 'info');
    assert.equal(requestLogLevel(304, false), 'info');
    assert.equal(requestLogLevel(404, false), 'warn');
    assert.equal(requestLogLevel(503, false), 'error');
    assert.equal(requestLogLevel(200, true), 'error');
  });
});
