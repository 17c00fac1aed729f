import { Errors } from '#kernel';
import { OperationValidationGuard } from '#http';
import type { ToolPart } from '../tools/tool-definitions.js';
import type { PublishedTool } from '../tools/published-tools.js';

export type ToolInput = Record<ToolPart['part'], Record<string, unknown>>;

/**
 * A tool's arguments as the parsed REST parts of its twin (`company_id` → `params.id`, ...),
 * validated as REST validates them (400 VALIDATION_FAILED). An argument the tool does not take
 * is 400, as an unknown field is on REST.
 */
export function parseToolArguments(tool: PublishedTool, args: Record<string, unknown>): ToolInput {
  const input = toolInput(tool, args);
  toolValidation(tool)?.validate(input);
  return input;
}

function toolInput(tool: PublishedTool, args: Record<string, unknown>): ToolInput {
  const unknown = Object.keys(args).filter((arg) => !tool.fields.has(arg));
  if (unknown.length) throw Errors.validation(unknown.map((arg) => ({ path: arg, message: 'unknown argument' })));
  const input: ToolInput = { params: {}, query: {}, body: {} };
  for (const [arg, value] of Object.entries(args)) {
    const [part, field] = tool.fields.get(arg)!;
    input[part.part][field] = value;
  }
  return input;
}

const validations = new WeakMap<PublishedTool, OperationValidationGuard | undefined>();

/**
 * The validation of a tool's parts: REST's own (`OperationValidationGuard`) over the route's zod
 * schemas, so a 400 lists every problem with REST's paths (`params.id`, `query.sector`). Built
 * once per tool.
 */
function toolValidation(tool: PublishedTool): OperationValidationGuard | undefined {
  if (!validations.has(tool)) {
    const schemas: Partial<Record<ToolPart['part'], ToolPart['schema']>> = {};
    for (const { part, schema } of tool.definition.parts) {
      if (schemas[part]) throw new Error(`${tool.listed.name}: two ${part} parts`);
      schemas[part] = schema;
    }
    validations.set(tool, OperationValidationGuard.for(schemas));
  }
  return validations.get(tool);
}
