import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppLogger, createLogger } from './logger.js';
import { requestId, requestLogLevel } from './request-logging.js';

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

describe('request ids and levels', () => {
  const req = (id?: string) =>
    ({ headers: id === undefined ? {} : { 'x-request-id': id } }) as Parameters<typeof requestId>[0];

  it('keeps a sane incoming x-request-id, else makes a UUID', () => {
    assert.equal(requestId(req('trace-123')), 'trace-123');
    assert.match(requestId(req('bad id')), /^[0-9a-f-]{36}$/);
    assert.match(requestId(req('x'.repeat(129))), /^[0-9a-f-]{36}$/);
    assert.match(requestId(req()), /^[0-9a-f-]{36}$/);
  });

  it('logs by status: 5xx or a failed response at error, 4xx at warn, else info', () => {
    assert.equal(requestLogLevel(200, false), 'info');
    assert.equal(requestLogLevel(304, false), 'info');
    assert.equal(requestLogLevel(404, false), 'warn');
    assert.equal(requestLogLevel(503, false), 'error');
    assert.equal(requestLogLevel(200, true), 'error');
  });
});
