using System.Diagnostics.Metrics;

namespace DivCon.Scheduling;

// The CPU budget the scheduler was sized by, and its telemetry: a <see cref="Meter"/> named
// <see cref="SchedulingTelemetry.MeterName"/> per scheduler, disposed with it (instrument names in
// <see cref="SchedulingTelemetry"/>). Every instrument is observable: it reads the per-worker counters (the same
// sums as <see cref="GetStatistics"/>, since the scheduler started) only when a listener collects.
public sealed partial class WorkStealingTaskScheduler
{
    private readonly Meter _meter;
    private readonly StatisticsWindow _meterStatistics;

    /// <summary>The CPU budget the scheduler was sized by (<see cref="WorkStealingSchedulerOptions.Budget"/>, else detected at creation).</summary>
    public CpuBudget Budget { get; }

    /// <summary>
    /// Set when the scheduler runs more workers than <see cref="Budget"/> allows (an explicit worker count or
    /// processor list won over it): the budget and why exceeding it costs. Null otherwise. Also in
    /// <see cref="SchedulerStatistics.BudgetWarning"/>.
    /// </summary>
    public string? BudgetWarning { get; }

    private Meter CreateMeter()
    {
        KeyValuePair<string, object?>[] tags = [new(SchedulingTelemetry.SchedulerType, "work_stealing"), new(SchedulingTelemetry.SchedulerId, Id)];
        Meter meter = SchedulingTelemetry.CreateSchedulerMeter(tags, () => WorkerCount, Budget);
        meter.CreateObservableUpDownCounter(SchedulingTelemetry.QueueLength, () => new Measurement<int>(AvailableTasks, tags), "{task}", "Tasks queued and not yet started.");
        meter.CreateObservableCounter(SchedulingTelemetry.ExecutedTasks, () => Totals(tags, t => t.TasksExecuted), "{task}", "Tasks the workers ran.");
        meter.CreateObservableCounter(
            SchedulingTelemetry.Steals,
            () => Totals(tags, t => t.LocalSteals, (SchedulingTelemetry.StealLocality, "local"), t => t.RemoteSteals, (SchedulingTelemetry.StealLocality, "remote")),
            "{steal}",
            "Successful steals, by whether the victim was in the thief's stealing group.");
        meter.CreateObservableCounter(
            SchedulingTelemetry.WorkerTime,
            () => Totals(tags, t => t.BusyTime.TotalSeconds, (SchedulingTelemetry.WorkerState, "busy"), t => t.IdleTime.TotalSeconds, (SchedulingTelemetry.WorkerState, "idle")),
            "s",
            "Time the workers spent running tasks (busy) and looking for one (idle).");
        meter.CreateObservableCounter(SchedulingTelemetry.Compensations, () => new Measurement<long>(Compensations, tags), "{worker}", "Compensating workers started because every worker was stuck in a task while tasks were queued.");
        meter.CreateObservableCounter(SchedulingTelemetry.LateTasks, () => new Measurement<long>(LateTasks, tags), "{task}", "Tasks queued from outside after Dispose; they ran on the .NET thread pool.");
        return meter;
    }

    private IEnumerable<Measurement<T>> Totals<T>(KeyValuePair<string, object?>[] tags, Func<SchedulerStatistics, T> value)
        where T : struct
    {
        yield return new Measurement<T>(value(SinceStart()), tags);
    }

    private IEnumerable<Measurement<T>> Totals<T>(
        KeyValuePair<string, object?>[] tags,
        Func<SchedulerStatistics, T> first,
        (string Key, string Value) firstTag,
        Func<SchedulerStatistics, T> second,
        (string Key, string Value) secondTag)
        where T : struct
    {
        SchedulerStatistics totals = SinceStart();
        yield return new Measurement<T>(first(totals), [.. tags, new(firstTag.Key, firstTag.Value)]);
        yield return new Measurement<T>(second(totals), [.. tags, new(secondTag.Key, secondTag.Value)]);
    }

    // Counters must not go backwards when the user resets the statistics window, so the meter reads its own window,
    // which is never reset.
    private SchedulerStatistics SinceStart() => _meterStatistics.Snapshot();
}
