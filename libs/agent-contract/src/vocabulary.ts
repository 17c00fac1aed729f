// The pure part of the agent vocabulary (packs, objectives, the pilot's length), for deciders:
// they import #kernel and this entry only, never the lib's index, which also holds the Nest auth
// decorators and providers (ADR 0093, ADR 0095).
export { OBJECTIVE_PACK } from './catalog/objectives.js';
export { type PackId } from './catalog/packs.js';
export { OPERATOR_PILOT_DAYS } from './catalog/services.js';
