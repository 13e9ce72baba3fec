namespace DivCon.Scheduling;

/// <summary>
/// The <see cref="TaskScheduler"/> façade of a queue set: only a scheduler may run its tasks
/// (<c>TaskScheduler.TryExecuteTask</c> is protected), so workers call back through this.
/// </summary>
internal interface ITaskExecutor
{
    /// <summary>Runs <paramref name="task"/> on the calling worker; false when it had already run (e.g. inlined).</summary>
    bool ExecuteTask(Task task);
}
