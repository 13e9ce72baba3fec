using System.Diagnostics;

namespace DivCon.Skeletons;

/// <summary>
/// Phase profiling hooks for the D&amp;C skeleton (§7.3, Figure 7.5): per recursion level, the number of split, execute
/// and merge calls and their cumulative time. Attach one through <see cref="DivConBase{TParam, TResult}.Profiler"/>;
/// profiling is off (null) by default, and then costs one null check per call and no allocation.
/// </summary>
/// <remarks>
/// Thread safety: any number of workers record concurrently. Counters are updated with <see cref="Interlocked"/>
/// adds, so they are exact; a <see cref="Snapshot"/> taken while a run is in progress may see a call's count without
/// its time (each field is read atomically, the pair is not). Take snapshots after the run's task has completed.
/// Timestamps come from <see cref="Stopwatch.GetTimestamp"/>.
/// </remarks>
public sealed class PhaseProfiler
{
    private const int InitialLevels = 16;

    // Index = level − 1. Grown (never shrunk) under _growLock; the LevelCounters objects are carried over, so an
    // increment that went to an object read from the old array is kept. Readers: Volatile.Read, pairs with the
    // Volatile.Write in GrowNeedsLock (a reader sees either the old or the fully copied new array).
    private LevelCounters[] _levels;
    private readonly Lock _growLock = new();

    /// <summary>Creates an empty profiler.</summary>
    public PhaseProfiler()
    {
        _levels = NewCounters(InitialLevels, []);
    }

    /// <summary>Records one call of <paramref name="phase"/> at <paramref name="level"/> that took <paramref name="elapsedTimestampTicks"/> Stopwatch ticks.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="level"/> is less than 1, or <paramref name="elapsedTimestampTicks"/> is negative.</exception>
    public void Record(DivConPhase phase, int level, long elapsedTimestampTicks)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(level);
        ArgumentOutOfRangeException.ThrowIfNegative(elapsedTimestampTicks);
        LevelCounters[] levels = Volatile.Read(ref _levels);
        LevelCounters counters = level <= levels.Length ? levels[level - 1] : Grow(level);
        switch (phase)
        {
            case DivConPhase.Split:
                Interlocked.Increment(ref counters.SplitCount);
                Interlocked.Add(ref counters.SplitTicks, elapsedTimestampTicks);
                break;
            case DivConPhase.Execute:
                Interlocked.Increment(ref counters.ExecuteCount);
                Interlocked.Add(ref counters.ExecuteTicks, elapsedTimestampTicks);
                break;
            case DivConPhase.Merge:
                Interlocked.Increment(ref counters.MergeCount);
                Interlocked.Add(ref counters.MergeTicks, elapsedTimestampTicks);
                break;
            default:
                throw new ArgumentOutOfRangeException(nameof(phase), phase, "Allowed: Split, Execute, Merge.");
        }
    }

    /// <summary>
    /// The statistics per level, from level 1 to the deepest level at which anything was recorded (levels in between
    /// with no calls are included with zeros).
    /// </summary>
    public IReadOnlyList<PhaseLevelStatistics> Snapshot()
    {
        LevelCounters[] levels = Volatile.Read(ref _levels);
        int deepest = 0;
        for (int i = 0; i < levels.Length; i++)
        {
            if (levels[i].HasAny)
            {
                deepest = i + 1;
            }
        }

        var result = new PhaseLevelStatistics[deepest];
        for (int i = 0; i < deepest; i++)
        {
            LevelCounters c = levels[i];
            result[i] = new PhaseLevelStatistics(
                i + 1,
                Volatile.Read(ref c.SplitCount),
                ToTimeSpan(Volatile.Read(ref c.SplitTicks)),
                Volatile.Read(ref c.ExecuteCount),
                ToTimeSpan(Volatile.Read(ref c.ExecuteTicks)),
                Volatile.Read(ref c.MergeCount),
                ToTimeSpan(Volatile.Read(ref c.MergeTicks)));
        }

        return result;
    }

    /// <summary>The number of calls of <paramref name="phase"/> over all levels.</summary>
    public long TotalCount(DivConPhase phase)
    {
        long total = 0;
        foreach (PhaseLevelStatistics level in Snapshot())
        {
            total += level.Count(phase);
        }

        return total;
    }

    /// <summary>The cumulative time of <paramref name="phase"/> over all levels.</summary>
    public TimeSpan TotalTime(DivConPhase phase)
    {
        TimeSpan total = TimeSpan.Zero;
        foreach (PhaseLevelStatistics level in Snapshot())
        {
            total += level.Time(phase);
        }

        return total;
    }

    /// <summary>Sets every counter back to zero. Call it only while no run using this profiler is in progress.</summary>
    public void Reset()
    {
        lock (_growLock)
        {
            Volatile.Write(ref _levels, NewCounters(InitialLevels, []));
        }
    }

    private static TimeSpan ToTimeSpan(long timestampTicks) => Stopwatch.GetElapsedTime(0, timestampTicks);

    // Rare path: the recursion went deeper than any run before.
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private LevelCounters Grow(int level)
    {
        lock (_growLock)
        {
            LevelCounters[] current = _levels;
            if (level > current.Length)
            {
                current = NewCounters(Math.Max(level, current.Length * 2), current);
                Volatile.Write(ref _levels, current);
            }

            return current[level - 1];
        }
    }

    private static LevelCounters[] NewCounters(int length, LevelCounters[] keep)
    {
        var result = new LevelCounters[length];
        Array.Copy(keep, result, keep.Length);
        for (int i = keep.Length; i < length; i++)
        {
            result[i] = new LevelCounters();
        }

        return result;
    }

    // Any worker writes (Interlocked); snapshots read (Volatile).
    private sealed class LevelCounters
    {
        public long SplitCount;
        public long SplitTicks;
        public long ExecuteCount;
        public long ExecuteTicks;
        public long MergeCount;
        public long MergeTicks;

        public bool HasAny =>
            Volatile.Read(ref SplitCount) != 0 || Volatile.Read(ref ExecuteCount) != 0 || Volatile.Read(ref MergeCount) != 0;
    }
}
