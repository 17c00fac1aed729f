import { Query } from '@nestjs/cqrs';
import type { ModelHealth } from './model-health.schema.js';

export class ModelHealthQuery extends Query<ModelHealth> {}
