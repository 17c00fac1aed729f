import { AppError, assertNever, type Decider } from '#kernel';
import type { WorkspaceEvent } from './workspace.events.js';

type MemoEvent = Extract<WorkspaceEvent, { type: 'WorkspaceMemoUpdated' }>;

/** Version 0: no memo written yet. */
export interface MemoState {
  version: number;
  body: string;
}

export type MemoCommand = {
  type: 'UpdateMemo';
  tenantId: string;
  companyId: string;
  body: string;
  /** The version the writer read (`If-Match`); undefined: last writer wins. */
  expectedVersion: number | undefined;
  by: string;
  now: Date;
};

/** 412 with the current version: the writer read an older memo. */
export function memoVersionConflict(current: number): AppError {
  return new AppError(
    'precondition_failed',
    'MEMO_VERSION_CONFLICT',
    `The memo is at version ${current}: read it again (its ETag) and apply your change to it.`,
    // HTTP sends current_version as the ETag too (libs/http's error table).
    { current_version: current },
  );
}

/**
 * A company's memo (stream `wsmemo-{tenant}-{company}`): each update is a new version. A write
 * with `If-Match` applies only to the version it names (optimistic concurrency over HTTP); the
 * same body again writes nothing.
 */
export const memoDecider: Decider<MemoCommand, MemoEvent, MemoState> = {
  initialState: { version: 0, body: '' },
  evolve(_state, event) {
    return { version: event.data.version, body: event.data.body };
  },
  decide(command, state) {
    if (command.type !== 'UpdateMemo') return assertNever(command.type);
    if (command.expectedVersion !== undefined && command.expectedVersion !== state.version)
      throw memoVersionConflict(state.version);
    if (state.version > 0 && command.body === state.body) return [];
    return [
      {
        type: 'WorkspaceMemoUpdated',
        data: {
          tenant_id: command.tenantId,
          company_id: command.companyId,
          version: state.version + 1,
          body: command.body,
          updated_by: command.by,
          updated_at: command.now.toISOString(),
        },
      },
    ];
  },
};
