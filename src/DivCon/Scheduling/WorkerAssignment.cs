namespace DivCon.Scheduling;

/// <summary>
/// One assignment of a worker (Worker.cs): the queue set it is to serve and when it was moved there. Immutable, and a
/// new object for every change of the worker's assignment and for every decision the mover applies to it (Mover.cs), so
/// that the reference is a token no later assignment can repeat: a self-move CASes the object it read before it read the
/// mover's snapshot, and fails when anything replaced it since, even if the set is the same again (required: no ABA;
/// a CAS on the set alone let a worker's move decided on a stale snapshot succeed after the mover sent it away and back).
/// </summary>
/// <param name="set">The queue set, or null for none.</param>
/// <param name="assignedAt">When the worker was last moved (Stopwatch ticks; 0 before any move): kept when the mover only renews the token.</param>
internal sealed class WorkerAssignment(WorkQueueSet? set, long assignedAt)
{
    /// <summary>The queue set the worker is assigned to, or null for none.</summary>
    public WorkQueueSet? Set { get; } = set;

    /// <summary>When the set last changed (Stopwatch ticks): the age of a move still waiting on a running task.</summary>
    public long AssignedAt { get; } = assignedAt;
}
