using DivCon.Skeletons;

namespace DivCon.Tests.Skeletons;

/// <summary>Small declarative D&amp;C programs for the skeleton tests, with probes on every muscle call.</summary>
internal static class SkeletonPrograms
{
    public static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    /// <summary>Sum of the indices in a range: Σ [min, max) = n(n − 1)/2 for [0, n).</summary>
    public static DivConBase<ElementRange, long> RangeSum(TaskScheduler scheduler, int grain, CallProbe? probe = null, int branching = 2) =>
        DivConFactory.Create<ElementRange, long>(
            scheduler,
            shouldSplit: (range, level) => range.Length > grain,
            split: (range, level) =>
            {
                using var call = probe?.Enter(DivConPhase.Split, range, level);
                return range.Split(branching);
            },
            executeMuscle: (range, level) =>
            {
                using var call = probe?.Enter(DivConPhase.Execute, range, level);
                long sum = 0;
                for (int i = range.Min; i < range.Max; i++)
                {
                    sum += i;
                }

                return sum;
            },
            merge: (subResults, level) =>
            {
                using var call = probe?.Enter(DivConPhase.Merge, default, level);
                long sum = 0;
                foreach (long s in subResults)
                {
                    sum += s;
                }

                return sum;
            });

    public static long ExpectedSum(int n) => (long)n * (n - 1) / 2;

    /// <summary>Polls <paramref name="condition"/> every 10 ms until it holds (true) or <see cref="Timeout"/> passes (false).</summary>
    public static async Task<bool> EventuallyAsync(Func<bool> condition)
    {
        var deadline = DateTime.UtcNow + Timeout;
        while (!condition())
        {
            if (DateTime.UtcNow > deadline)
            {
                return false;
            }

            await Task.Delay(10);
        }

        return true;
    }
}

/// <summary>
/// Observes muscle calls: counts calls in and out (so a test can check that none is in flight), the scheduler each
/// ran on, calls that started after the run was declared over, and an optional action per call (fault, cancel).
/// </summary>
internal sealed class CallProbe
{
    private int _active;
    private int _started;
    private int _executes;
    private int _wrongScheduler;
    private int _startedAfterEnd;
    private volatile bool _ended;

    public TaskScheduler? ExpectedScheduler { get; init; }

    /// <summary>Called at the start of each call with (phase, range, level, index of this call among its phase's calls).</summary>
    public Action<DivConPhase, ElementRange, int, int>? OnCall { get; init; }

    public int Active => Volatile.Read(ref _active);

    public int Started => Volatile.Read(ref _started);

    public int Executes => Volatile.Read(ref _executes);

    public int WrongScheduler => Volatile.Read(ref _wrongScheduler);

    public int StartedAfterEnd => Volatile.Read(ref _startedAfterEnd);

    /// <summary>Declares the run over: any call that starts from now on is counted in <see cref="StartedAfterEnd"/>.</summary>
    public void MarkEnded() => _ended = true;

    public Call Enter(DivConPhase phase, ElementRange range, int level)
    {
        if (_ended)
        {
            Interlocked.Increment(ref _startedAfterEnd);
        }

        Interlocked.Increment(ref _active);
        Interlocked.Increment(ref _started);
        int index = phase == DivConPhase.Execute ? Interlocked.Increment(ref _executes) - 1 : -1;
        if (ExpectedScheduler is not null && TaskScheduler.Current != ExpectedScheduler)
        {
            Interlocked.Increment(ref _wrongScheduler);
        }

        try
        {
            OnCall?.Invoke(phase, range, level, index);
        }
        catch
        {
            Interlocked.Decrement(ref _active); // the call ends here, by this exception
            throw;
        }

        return new Call(this);
    }

    public readonly struct Call(CallProbe probe) : IDisposable
    {
        public void Dispose() => Interlocked.Decrement(ref probe._active);
    }
}
