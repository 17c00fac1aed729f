import { assertNever, type Decider } from '#kernel';
import type { FollowUpStatus, WorkspaceEvent } from './workspace.events.js';

type FollowUpEvent = Extract<WorkspaceEvent, { type: 'WorkspaceFollowUpUpserted' | 'WorkspaceFollowUpCompleted' }>;

export interface FollowUpFields {
  title: string;
  due_at: string;
  assignee: string | null;
  status: FollowUpStatus;
}

export type FollowUpState = { status: 'none' } | { status: 'exists'; fields: FollowUpFields };

export type FollowUpCommand = {
  type: 'UpsertFollowUp';
  tenantId: string;
  companyId: string;
  key: string;
  fields: FollowUpFields;
  by: string;
  now: Date;
};

const same = (a: FollowUpFields, b: FollowUpFields) =>
  a.title === b.title && a.due_at === b.due_at && a.assignee === b.assignee && a.status === b.status;

/**
 * A follow-up (stream `wsfollowup-{tenant}-{company}-{key}`), keyed by the client: a PUT creates
 * or updates it, the same PUT again changes nothing; turning it done also records the completion.
 */
export const followUpDecider: Decider<FollowUpCommand, FollowUpEvent, FollowUpState> = {
  initialState: { status: 'none' },
  evolve(state, event) {
    switch (event.type) {
      case 'WorkspaceFollowUpUpserted': {
        const { title, due_at, assignee, status } = event.data;
        return { status: 'exists', fields: { title, due_at, assignee, status } };
      }
      case 'WorkspaceFollowUpCompleted':
        return state;
      default:
        return assertNever(event);
    }
  },
  decide(command, state) {
    if (command.type !== 'UpsertFollowUp') return assertNever(command.type);
    if (state.status === 'exists' && same(state.fields, command.fields)) return [];
    const at = command.now.toISOString();
    const events: FollowUpEvent[] = [
      {
        type: 'WorkspaceFollowUpUpserted',
        data: {
          tenant_id: command.tenantId,
          company_id: command.companyId,
          key: command.key,
          ...command.fields,
          created: state.status === 'none',
          updated_by: command.by,
          updated_at: at,
        },
      },
    ];
    const wasDone = state.status === 'exists' && state.fields.status === 'done';
    if (command.fields.status === 'done' && !wasDone)
      events.push({
        type: 'WorkspaceFollowUpCompleted',
        data: {
          tenant_id: command.tenantId,
          company_id: command.companyId,
          key: command.key,
          completed_by: command.by,
          completed_at: at,
        },
      });
    return events;
  },
};
