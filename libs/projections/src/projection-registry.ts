import { type DynamicModule, Global, Injectable, Module } from '@nestjs/common';
import type { ProjectionDefinition } from './projection.port.js';

/**
 * Collects the projections feature modules contribute, for the runner the storage module builds.
 * Filled while providers are created, read in onModuleInit: every registration is in by then.
 */
@Injectable()
export class ProjectionRegistry {
  private readonly byName = new Map<string, ProjectionDefinition>();

  add(definitions: ProjectionDefinition[]): void {
    for (const def of definitions) {
      const existing = this.byName.get(def.name);
      if (existing && existing !== def) throw new Error(`Two projections are named ${def.name}`);
      this.byName.set(def.name, def);
    }
  }

  all(): ProjectionDefinition[] {
    return [...this.byName.values()];
  }
}

@Global()
@Module({ providers: [ProjectionRegistry], exports: [ProjectionRegistry] })
export class ProjectionRegistryModule {}

let registrations = 0;

/**
 * `ProjectionsModule.forFeature([myProjection])` in a feature module's imports registers its
 * projections with the runner of whichever app (api, worker, cli) imports that feature module.
 */
@Module({})
export class ProjectionsModule {
  static forFeature(definitions: ProjectionDefinition[]): DynamicModule {
    // A distinct token per call: Nest would otherwise merge two identical-looking registrations.
    const token = Symbol(`projections#${++registrations}:${definitions.map((d) => d.name).join(',')}`);
    return {
      module: ProjectionsModule,
      imports: [ProjectionRegistryModule],
      providers: [
        {
          provide: token,
          useFactory: (registry: ProjectionRegistry) => {
            registry.add(definitions);
            return definitions;
          },
          inject: [ProjectionRegistry],
        },
      ],
    };
  }
}
