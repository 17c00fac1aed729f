// The pure part of the agent vocabulary (packs, objectives, the pilot's length), for deciders:
// they import #kernel and this entry only, never the lib's index, which also holds the Nest auth
// decorators and providers (ADR 0093, ADR 0095).
// Nothing here reads a data file: objectives.ts is code, and PackId is a type only.
export { OBJECTIVE_PACK, OPERATOR_PILOT_DAYS } from './catalog/objectives.js';
export type { PackId } from './catalog/packs.js';
