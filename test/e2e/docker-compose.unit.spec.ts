import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { loadConfig } from '#kernel';
import { ROOT } from './support/processes.js';

interface Service {
  image?: string;
  restart?: string;
  networks?: string[];
  network_mode?: string;
  volumes?: string[];
  deploy?: { resources?: { limits?: { cpus?: string; memory?: string } } };
  logging?: { driver?: string; options?: Record<string, string> };
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}

/**
 * docker-compose.yml is not run here (no Docker): it is parsed (YAML merge keys resolved, as
 * Compose does) and held to the topology of ADR 0067, and each process's environment
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

/**
 * docker-compose.prod.yml: the production variant, held to what the local model leaves
 * out: auth and TLS to the stores, internal networks, a bootstrap key in a file, limits, rotation.
 */
describe('docker-compose.prod.yml: the production topology', () => {
  const text = readFileSync(join(ROOT, 'docker-compose.prod.yml'), 'utf8');
  const compose = parse(text, { merge: true }) as {
    services: Record<string, Service>;
    networks: Record<string, { internal?: boolean } | null>;
  };
  const services = compose.services;
  const oneShot = (s: Service) => s.restart === 'no';
  const longRunning = Object.entries(services).filter(([, s]) => !oneShot(s));
  const stores = ['eventstore', 'mongo'];
  const svcProcesses = Object.entries(services).filter(([, s]) => s.command?.[0] === 'node');

  it('the stores publish nothing and sit only on internal networks; only the proxy publishes, with HTTPS', () => {
    for (const name of stores) {
      const s = services[name]!;
      assert.equal(s.ports, undefined, `${name} publishes no port`);
      assert.ok(s.networks?.length, name);
      for (const n of s.networks!) assert.equal(compose.networks[n]?.internal, true, `${name} on ${n}`);
    }
    const published = Object.entries(services).filter(([, s]) => s.ports?.length);
    assert.deepEqual(
      published.map(([name]) => name),
      ['proxy'],
    );
    assert.ok(services.proxy!.ports!.includes('443:443'));
    for (const name of ['api', 'api-2'])
      assert.ok(!services[name]!.networks!.includes('edge'), `${name} is reached only through the proxy`);
  });

  it('auth and TLS between the services and the stores', () => {
    const esdb = services.eventstore!.environment!;
    assert.equal(esdb.EVENTSTORE_INSECURE, 'false');
    assert.ok(esdb.EVENTSTORE_CERTIFICATE_FILE && esdb.EVENTSTORE_TRUSTED_ROOT_CERTIFICATES_PATH);
    assert.ok(esdb.EVENTSTORE_DEFAULT_ADMIN_PASSWORD?.startsWith('${'), 'the password comes from the environment');
    const mongo = services.mongo!.command!.join(' ');
    for (const flag of ['--auth', '--keyFile', '--tlsMode requireTLS', '--tlsCertificateKeyFile'])
      assert.ok(mongo.includes(flag), flag);
    for (const [name, s] of svcProcesses) {
      const env = s.environment!;
      assert.match(
        env.EVENTSTORE_URL ?? '',
        /^esdb:\/\/admin:\$\{[A-Z_]+:\?[^}]*\}@eventstore:2113\?tls=true&tlsCAFile=/,
        name,
      );
      assert.match(env.MONGODB_URL ?? '', /^mongodb:\/\/svc:\$\{[A-Z_]+:\?[^}]*\}@mongo:27017\/\?.*tls=true/, name);
      assert.ok(s.volumes?.includes('certs:/certs:ro'), `${name} reads the CA`);
    }
    // The certificates come from a one-shot job the stores wait for.
    assert.ok(oneShot(services.certs!));
    for (const name of stores)
      assert.equal(services[name]!.depends_on?.certs?.condition, 'service_completed_successfully', name);
  });

  it('the bootstrap key goes to a file by a one-shot job, never to the log', () => {
    for (const name of ['api', 'api-2']) assert.equal(services[name]!.environment?.SVC_BOOTSTRAP, 'false', name);
    const job = services.bootstrap!;
    assert.ok(oneShot(job));
    assert.deepEqual(job.command, ['node', 'deploy/bootstrap/write-bootstrap-key.mjs']);
    const file = job.environment!.SVC_BOOTSTRAP_KEY_FILE!;
    assert.ok(
      job.volumes?.some((v) => v.startsWith('bootstrap:') && file.startsWith(v.split(':')[1]!)),
      file,
    );
    for (const script of ['deploy/bootstrap/write-bootstrap-key.mjs', 'deploy/certs/generate.sh'])
      assert.ok(readFileSync(join(ROOT, script), 'utf8').length > 0, script);
  });

  it('every long-running service has a health check, resource limits and rotated logs', () => {
    for (const [name, s] of longRunning) {
      assert.ok(s.healthcheck?.test.length, `${name} has no health check`);
      assert.ok(s.deploy?.resources?.limits?.cpus && s.deploy.resources.limits.memory, `${name} limits`);
      assert.equal(s.logging?.driver, 'json-file', name);
      assert.ok(s.logging?.options?.['max-size'] && s.logging.options['max-file'], `${name} log rotation`);
      for (const [dep, { condition }] of Object.entries(s.depends_on ?? {})) {
        assert.ok(services[dep], `${name} depends on an unknown service ${dep}`);
        assert.equal(condition, oneShot(services[dep]!) ? 'service_completed_successfully' : 'service_healthy');
      }
    }
  });

  it("each node process's environment passes the service's configuration check", () => {
    for (const [name, s] of svcProcesses) {
      // Required variables (`${X:?…}`) as an operator would set them.
      const env = Object.fromEntries(
        Object.entries(s.environment ?? {}).map(([k, v]) => [
          k,
          String(v)
            .replace(/\$\{SVC_SECRETS_KEY:\?[^}]*\}/, Buffer.alloc(32, 7).toString('base64'))
            .replace(/\$\{[A-Z_]+:\?[^}]*\}/g, 'secret0123'),
        ]),
      );
      assert.doesNotThrow(() => loadConfig(env), name);
    }
  });
});
