namespace DivCon.Multiprogramming;

/// <summary>What happens to a program's outstanding tasks when it is removed (or its scheduler disposed).</summary>
public enum ProgramRemoval
{
    /// <summary>Wait until every task queued to the program has run (the default). Nothing is dropped.</summary>
    WaitForTasks = 0,

    /// <summary>
    /// Cancel <see cref="ProgramHandle.CancellationToken"/>, then wait until the queues are empty: tasks created with
    /// that token and not yet started end as canceled without running; any other task still runs. Nothing is
    /// dropped silently.
    /// </summary>
    CancelTasks = 1,
}
