using System.Diagnostics;

namespace DivCon.Scheduling;

/// <summary>
/// Turns a queue set's cumulative counters into <see cref="SchedulerStatistics"/> over a window. Reset does not touch
/// the counters (the workers own them): it records their current values as a baseline, published as one immutable
/// object, and later snapshots subtract it.
/// </summary>
internal sealed class StatisticsWindow
{
    private readonly WorkQueueSet _set;
    private readonly Func<int, int?> _processorOf;
    private readonly string? _budgetWarning;
    private Baseline _baseline;

    public StatisticsWindow(WorkQueueSet set, Func<int, int?> processorOf, string? budgetWarning = null)
    {
        _set = set;
        _processorOf = processorOf;
        _budgetWarning = budgetWarning;
        _baseline = Capture(Stopwatch.GetTimestamp());
    }

    public void Reset() => Volatile.Write(ref _baseline, Capture(Stopwatch.GetTimestamp()));

    public SchedulerStatistics Snapshot()
    {
        Baseline baseline = Volatile.Read(ref _baseline);
        long now = Stopwatch.GetTimestamp();
        // The pool's slots, then the compensating slots used so far (unpinned: no processor).
        var workers = new WorkerStatistics[_set.UsedSlotCount];
        for (int i = 0; i < workers.Length; i++)
        {
            WorkerCounterValues v = _set.ReadCounters(i, now) - (i < baseline.Values.Length ? baseline.Values[i] : default);
            workers[i] = new WorkerStatistics(
                i, i < _set.SlotCount ? _processorOf(i) : null, v.TasksExecuted, v.Steals, ToTimeSpan(v.StealTicks), ToTimeSpan(v.BusyTicks), ToTimeSpan(v.IdleTicks), v.LocalSteals, v.RemoteSteals);
        }

        return new SchedulerStatistics(ToTimeSpan(now - baseline.Timestamp), workers) { BudgetWarning = _budgetWarning };
    }

    internal static TimeSpan ToTimeSpan(long stopwatchTicks)
        => new((long)(stopwatchTicks * ((double)TimeSpan.TicksPerSecond / Stopwatch.Frequency)));

    private Baseline Capture(long now)
    {
        var values = new WorkerCounterValues[_set.UsedSlotCount];
        for (int i = 0; i < values.Length; i++)
        {
            values[i] = _set.ReadCounters(i, now);
        }

        return new Baseline(now, values);
    }

    private sealed record Baseline(long Timestamp, WorkerCounterValues[] Values);
}
