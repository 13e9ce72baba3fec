namespace DivCon.Simulation.Engine;

/// <summary>
/// One work-stealing queue superstructure (docs/DESIGN.md §2–3): a global FIFO queue for tasks queued from outside, one
/// deque per worker slot, the set of slots whose workers serve it now (the steal victims), and its blocked workers.
/// A standalone scheduler (shared, oversubscribed, isolated runs) has every slot active for good; a program of the
/// MultiProgramScheduler has the slots its allocation gives it, and they change at moves.
/// </summary>
internal sealed class WorkPool(int id, int slots)
{
    public int Id { get; } = id;

    public TaskDeque[] Deques { get; } = Enumerable.Range(0, slots).Select(_ => new TaskDeque()).ToArray();

    public Queue<SimTask> Global { get; } = new();

    /// <summary>Blocked workers serving this pool (unordered); a push wakes one chosen at random.</summary>
    public List<SimWorker> Sleepers { get; } = [];

    /// <summary>Tasks queued and not started (global queue plus deques): the O(1) available-task counter.</summary>
    public int TaskCount { get; set; }

    /// <summary>Workers of this pool that are looking for work (or woken to): while there is one, a push wakes nobody.</summary>
    public int Searching { get; set; }

    /// <summary>
    /// A task was queued while none of its workers was blocked, and no worker serving it has run dry since
    /// (WorkQueueSet.WantsWorkers): its lent workers come home at their next task boundary.
    /// </summary>
    public bool WantsWorkers { get; set; }

    /// <summary>The slots whose workers serve it now (running, runnable or blocked): the steal victims.</summary>
    public IndexSet Active { get; } = new(slots);

    /// <summary>Core time served by workers that left it (the ones serving it now add theirs when read: Machine.Partitioning.cs), ns.</summary>
    public long ServedNs { get; set; }

    /// <summary>Time its workers ran its tasks, charged when a task step ends (or is preempted), ns.</summary>
    public long BusyNs { get; set; }

    /// <summary>Its tasks that finished.</summary>
    public long TasksExecuted { get; set; }
}
