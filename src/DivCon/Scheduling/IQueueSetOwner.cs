namespace DivCon.Scheduling;

/// <summary>
/// The owner of a <see cref="WorkQueueSet"/> served by a shared pool (a MultiProgramScheduler program): what the mover,
/// the lender and the telemetry need of it, typed (the set never holds an untyped tag).
/// </summary>
internal interface IQueueSetOwner
{
    /// <summary>The owner's id (the program id on the timeline).</summary>
    int Id { get; }

    /// <summary>The owner's name (a metric tag).</summary>
    string Name { get; }

    /// <summary>A worker's assignment changed to this set (whoever's CAS made the change counts it, once).</summary>
    void WorkerArrived();

    /// <summary>A worker's assignment changed away from this set.</summary>
    void WorkerLeft();

    /// <summary>A task queued from outside after the set was closed ran on the thread pool (late task).</summary>
    void LateTaskQueued();
}
