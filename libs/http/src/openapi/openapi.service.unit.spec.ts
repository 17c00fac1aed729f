import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import type { DiscoveryService } from '@nestjs/core';
import { MetadataScanner } from '@nestjs/core';
import { parse } from 'yaml';
import { OpenApiService } from './openapi.service.js';

/** A service over no controllers, with one route mounted outside Nest's router. */
function service(): OpenApiService {
  const discovery = { getControllers: () => [] } as unknown as DiscoveryService;
  const openapi = new OpenApiService(discovery, new MetadataScanner(), { title: 't', version: '1' });
  openapi.addRoutes([
    {
      method: 'GET',
      path: '/health',
      spec: { summary: 'health', responses: { 200: { description: 'ok' } } },
      handlerName: 'health',
    },
  ]);
  return openapi;
}

describe('OpenApiService', () => {
  it('renders the YAML only when it is asked for, once, from the same document', () => {
    const openapi = service();
    const render = mock.method(openapi as unknown as { renderYaml(json: unknown): string }, 'renderYaml');
    const json = openapi.document();
    assert.equal(render.mock.callCount(), 0, 'building the JSON document rendered the YAML');
    const yaml = openapi.yaml();
    assert.equal(openapi.yaml(), yaml);
    assert.equal(render.mock.callCount(), 1);
    assert.deepEqual(parse(yaml), json);
  });

  it('renders both again after routes are added', () => {
    const openapi = service();
    const before = openapi.yaml();
    openapi.addRoutes([
      {
        method: 'GET',
        path: '/ready',
        spec: { summary: 'ready', responses: { 200: { description: 'ok' } } },
        handlerName: 'ready',
      },
    ]);
    assert.ok(Object.keys(openapi.document().paths).includes('/ready'));
    assert.notEqual(openapi.yaml(), before);
    assert.deepEqual(parse(openapi.yaml()), openapi.document());
  });
});
