import { type Connection, type Model, Schema } from 'mongoose';

/**
 * When a task the scheduler runs once per deployment (server/scheduler.ts) is next due, shared by every process:
 * the process whose conditional update moves `nextAt` on runs it, the others wait for the new `nextAt`. A restart
 * keeps it, so a daily task does not run again because a process started.
 */
export interface TaskLease {
  /** The task's name in the scheduler's list. */
  _id: string;
  nextAt: Date;
  /** When the last run was claimed. */
  claimedAt?: Date;
}
const TaskLeaseSchema = new Schema<TaskLease>(
  {
    _id: { type: String, required: true },
    nextAt: { type: Date, required: true },
    claimedAt: { type: Date },
  },
  { versionKey: false },
);
export type TaskLeaseModel = Model<TaskLease>;
export function taskLeaseModel(connection: Connection): TaskLeaseModel {
  return (connection.models.TaskLease as TaskLeaseModel | undefined) ?? connection.model<TaskLease>('TaskLease', TaskLeaseSchema);
}

const DUPLICATE_KEY = 11000;

/**
 * Claims the run of `task` due at `now` for this process: true when this process moved its `nextAt` to `nextAt`
 * (it runs it now); else false with the `nextAt` another process set.
 */
export async function claimTaskRun(
  model: TaskLeaseModel,
  task: string,
  now: Date,
  nextAt: Date,
): Promise<{ claimed: boolean; nextAt: Date }> {
  // The first process to see the task makes its record, due at once; two doing it at once: one insert wins.
  await model.updateOne({ _id: task }, { $setOnInsert: { nextAt: new Date(0) } }, { upsert: true }).catch((error: unknown) => {
    if ((error as { code?: unknown }).code !== DUPLICATE_KEY) throw error;
  });
  const claimed = await model.updateOne({ _id: task, nextAt: { $lte: now } }, { $set: { nextAt, claimedAt: now } });
  if (claimed.modifiedCount === 1) return { claimed: true, nextAt };
  const lease = await model.findById(task, { nextAt: 1 }).lean();
  return { claimed: false, nextAt: lease?.nextAt ?? nextAt };
}
