using DivCon.Scheduling;

namespace DivCon.Multiprogramming;

/// <summary>
/// A program's <see cref="TaskScheduler"/>: the same queue machinery as <see cref="WorkStealingTaskScheduler"/>
/// (a <see cref="WorkQueueSet"/>: global queue + one deque per worker slot), with threads lent by the
/// MultiProgramScheduler's pool instead of owned. Queuing and inlining rules are WorkQueueSet's: own deque on a
/// worker serving this program, global queue otherwise; inlining only on a worker serving this program (so a task of
/// another program waiting for one of ours never runs it on its own worker); LongRunning tasks on a dedicated thread
/// when compensation is on.
/// </summary>
internal sealed class ProgramTaskScheduler : TaskScheduler, ITaskExecutor
{
    private readonly WorkQueueSet _queues;

    public ProgramTaskScheduler(WorkerPool pool, string name)
    {
        _queues = new WorkQueueSet(pool, this, name);
    }

    public WorkQueueSet Queues => _queues;

    public override int MaximumConcurrencyLevel => _queues.SlotCount;

    protected override void QueueTask(Task task) => _queues.Schedule(task);

    protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued) => _queues.TryExecuteInline(task, taskWasPreviouslyQueued);

    protected override IEnumerable<Task> GetScheduledTasks() => _queues.GetScheduledTasks();

    bool ITaskExecutor.ExecuteTask(Task task) => TryExecuteTask(task);
}
