using System.Collections.Concurrent;

namespace DivCon.Tests.Skeletons;

/// <summary>
/// A test scheduler with a fixed number of dedicated threads that never inlines a task (as the thesis's bounded
/// schedulers, §4.2.1): a worker that blocks on a task does not run it. Optionally refuses every task after the
/// first <c>acceptLimit</c> (QueueTask throws), to test how the skeleton handles a failing scheduler.
/// </summary>
internal sealed class DedicatedThreadScheduler : TaskScheduler, IDisposable
{
    private readonly BlockingCollection<Task> _queue = new();
    private readonly Thread[] _threads;
    private readonly int _acceptLimit;
    private int _accepted;
    private int _executing;

    public DedicatedThreadScheduler(int threads, int acceptLimit = int.MaxValue)
    {
        _acceptLimit = acceptLimit;
        _threads = new Thread[threads];
        for (int i = 0; i < threads; i++)
        {
            _threads[i] = new Thread(Work) { IsBackground = true, Name = $"DedicatedThreadScheduler {i}" };
            _threads[i].Start();
        }
    }

    public override int MaximumConcurrencyLevel => _threads.Length;

    /// <summary>Tasks queued and not yet taken by a thread.</summary>
    public int QueuedCount => _queue.Count;

    /// <summary>Tasks being executed right now.</summary>
    public int ExecutingCount => Volatile.Read(ref _executing);

    public int AcceptedCount => Volatile.Read(ref _accepted);

    public void Dispose()
    {
        _queue.CompleteAdding();
        foreach (Thread thread in _threads)
        {
            thread.Join(TimeSpan.FromSeconds(10));
        }
    }

    protected override void QueueTask(Task task)
    {
        if (Interlocked.Increment(ref _accepted) > _acceptLimit)
        {
            throw new InvalidOperationException("DedicatedThreadScheduler: accept limit reached (test fault injection).");
        }

        _queue.Add(task);
    }

    protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued) => false;

    protected override IEnumerable<Task> GetScheduledTasks() => _queue.ToArray();

    private void Work()
    {
        foreach (Task task in _queue.GetConsumingEnumerable())
        {
            Interlocked.Increment(ref _executing);
            TryExecuteTask(task);
            Interlocked.Decrement(ref _executing);
        }
    }
}
