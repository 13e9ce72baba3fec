using System.Collections.Concurrent;

namespace DivCon.Harness.Cyclic;

/// <summary>
/// Runs the harness's own control flow (starting runs, noticing their end, restarting them) on one dedicated thread
/// with a single-threaded SynchronizationContext. Why: under the TPL-default scheme the programs' work fills the
/// thread pool, and a harness continuation queued there would wait behind it, delaying restarts by an amount that
/// depends on the scheme being measured. A dedicated thread makes the harness's latency the same for every scheme.
/// </summary>
public static class HarnessThread
{
    /// <summary>
    /// Runs <paramref name="body"/> on a new dedicated thread whose every continuation returns to that thread; the
    /// returned task completes (on the pool) with <paramref name="body"/>'s result or exception.
    /// </summary>
    public static Task<T> RunAsync<T>(Func<Task<T>> body)
    {
        ArgumentNullException.ThrowIfNull(body);
        var result = new TaskCompletionSource<T>(TaskCreationOptions.RunContinuationsAsynchronously);
        var thread = new Thread(() =>
        {
            var context = new PumpContext();
            SynchronizationContext.SetSynchronizationContext(context);
            Task<T> task;
            try
            {
                task = body();
            }
            catch (Exception e)
            {
                task = Task.FromException<T>(e);
            }

            context.RunUntilComplete(task);
            result.TrySetFromTask(task);
        })
        {
            IsBackground = true,
            Name = "divcon-harness",
        };
        thread.Start();
        return result.Task;
    }

    /// <summary>
    /// A single-threaded context: Post enqueues; the owning thread runs the queue until the body's task completes.
    /// Posts from any thread (workers completing runs) go through the blocking collection, which is the only shared
    /// state. A continuation posted after the pump has stopped (a stray timer callback of a canceled delay) runs on the
    /// thread pool instead of being lost.
    /// </summary>
    private sealed class PumpContext : SynchronizationContext
    {
        private readonly BlockingCollection<(SendOrPostCallback Callback, object? State)> _queue = new();

        public override void Post(SendOrPostCallback d, object? state)
        {
            try
            {
                _queue.Add((d, state));
            }
            catch (InvalidOperationException)
            {
                // Added after CompleteAdding: the pump has finished; run it elsewhere rather than drop it.
                ThreadPool.QueueUserWorkItem(static s => s.d(s.state), (d, state), preferLocal: false);
            }
        }

        public override void Send(SendOrPostCallback d, object? state) =>
            throw new NotSupportedException("The harness thread does not support synchronous Send.");

        public override SynchronizationContext CreateCopy() => this;

        public void RunUntilComplete(Task task)
        {
            task.ContinueWith(_ => _queue.CompleteAdding(), CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
            foreach (var (callback, state) in _queue.GetConsumingEnumerable())
            {
                callback(state);
            }
        }
    }
}
