import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { loadConfig } from '#kernel';
import { ROOT } from './support/processes.js';

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}

/**
 * docker-compose.yml is not run here (no Docker): it is parsed (YAML merge keys resolved, as
 * Compose does) and held to the topology of issue 17 / ADR 0067, and each process's environment
 * must pass the service's own configuration check.
 */
describe('docker-compose.yml: the scaled topology', () => {
  const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, Service>;
  };
  const services = compose.services;
  const node = (s: Service) => s.command?.[0] === 'node';
  const apis = Object.entries(services).filter(([, s]) => s.command?.includes('dist/apps/api/src/main.js'));
  const workers = Object.entries(services).filter(([, s]) => s.command?.includes('dist/apps/worker/src/main.js'));

  it('two api replicas without projections, one worker, EventStoreDB and a MongoDB replica set', () => {
    assert.deepEqual(
      apis.map(([name]) => name),
      ['api', 'api-2'],
    );
    assert.deepEqual(
      workers.map(([name]) => name),
      ['worker'],
    );
    for (const [name, s] of [...apis, ...workers]) {
      assert.equal(s.environment?.EVENTSTORE_URL, 'esdb://eventstore:2113?tls=false', name);
      assert.match(s.environment?.MONGODB_URL ?? '', /^mongodb:\/\/mongo:27017\/\?replicaSet=rs0$/, name);
    }
    for (const [name, s] of apis) assert.equal(s.environment?.SVC_RUN_PROJECTIONS, 'false', name);
    assert.deepEqual(
      apis.map(([, s]) => s.environment?.SVC_BOOTSTRAP),
      ['true', 'false'],
      'one bootstrap per store',
    );
    assert.ok(services.mongo?.healthcheck?.test.join(' ').includes('rs.initiate'));
  });

  it('every service has a health check, and starts after what it needs is healthy', () => {
    for (const [name, s] of Object.entries(services)) {
      assert.ok(s.healthcheck?.test.length, `${name} has no health check`);
      for (const [dep, { condition }] of Object.entries(s.depends_on ?? {})) {
        assert.ok(services[dep], `${name} depends on an unknown service ${dep}`);
        assert.equal(condition, 'service_healthy', `${name} → ${dep}`);
      }
    }
    const worker = services.worker!;
    const port = worker.environment?.SVC_WORKER_HEALTH_PORT;
    assert.ok(
      port && worker.healthcheck!.test.join(' ').includes(`:${port}/health`),
      'the worker is checked on its health port',
    );
  });

  it('port 3000 of the host is the proxy over both replicas', () => {
    const published = Object.entries(services).filter(([, s]) => s.ports?.some((p) => p.startsWith('3000:')));
    assert.deepEqual(
      published.map(([name]) => name),
      ['proxy'],
    );
    const command = services.proxy!.command!.join(' ');
    for (const [name] of apis) assert.ok(command.includes(`--to ${name}:3000`), `the proxy sends to ${name}`);
  });

  it("each node process's environment passes the service's configuration check", () => {
    for (const [name, s] of Object.entries(services).filter(([, s]) => node(s))) {
      const env = Object.fromEntries(
        Object.entries(s.environment ?? {}).map(([k, v]) => [k, String(v).replace(/^\$\{[A-Z_]+:-\}$/, '')]),
      );
      assert.doesNotThrow(() => loadConfig(env), name);
    }
  });
});
